"""The Chkobba family's engine: the "fishing" games of Chkobba and the Scopa family.

Pure and deterministic (no terminal, web, database or clock; the same seed plays the same
game): the deck (:mod:`~chkobba.fishing.cards`), the rule sets
(:mod:`~chkobba.fishing.rules`), captures, moves, scoring, a round
(:mod:`~chkobba.fishing.game`), a match, what a seat may know
(:mod:`~chkobba.fishing.observe`), records and their narration. Everything above it (agents,
search, the game interface, the surfaces, Touti's engine) may import it; it imports none of
them (docs/architecture.md).
"""
