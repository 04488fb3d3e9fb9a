"""The Chkobba family's engine: the "fishing" games of Chkobba and the Scopa family.

Pure and deterministic (no input, output or clock): the deck (:mod:`~chkobba.fishing.cards`),
the rule sets (:mod:`~chkobba.fishing.rules`), captures, moves, scoring, a round
(:mod:`~chkobba.fishing.game`), a match, what a seat may know
(:mod:`~chkobba.fishing.observe`), records and their narration. Everything above it (agents,
search, the game interface, the surfaces) imports it; it imports none of them.
"""
