"""Inference from the other seats' plays: how likely a sampled deal makes what they did.

Uniform determinization (:mod:`chkobba.search.determinize`) treats every
placement of the unseen cards alike, yet the other seats' plays say something
about their hands: a player who laid a card while the 7♦ lay there to take with
a 7 probably holds no 7. Here each of their decisions *in the current deal* is
explained by a model of how they play: a softmax, at a *temperature* in round
points, over the playout policy's scores (:func:`chkobba.search.policy.play_score`)
of the plays they had,

    P(play | hand) = exp(score(play) / T) / Σ exp(score(p) / T) over their legal plays p,

the score being computed from what that seat knew then (its hand then, the
table, the piles). A sampled deal's *weight* is the product of these
probabilities over the decisions. Earlier deals explain nothing: once a deal is
played out, every card of it is public, and the hands of the current deal were
dealt from the unseen cards independently of them. The observer's own plays are
left out too: its hand is known, so they weigh every deal alike. A kept cut
card is an ordinary hidden card (the cut decision is not explained).

:func:`decisions` rebuilds, from the observation's public history, what each of
these decisions looked like (the table and piles before it, the cards the seat
has played since); :func:`log_likelihood` then scores one sampled deal. The
compiled kernel (:mod:`chkobba.search.fast`) takes the same decisions and computes the
same weights.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Final, NamedTuple

from chkobba.fishing.captures import captures, card_value
from chkobba.fishing.cards import FULL_DECK, rank_mask
from chkobba.fishing.game import Phase
from chkobba.fishing.moves import Play
from chkobba.fishing.observe import Observation
from chkobba.fishing.rules import RuleSet
from chkobba.search import policy

PARTNER: Final = -1
"""``Decision.next_hand`` when the next seat is the decider's partner (no threat)."""

_RANKS: Final = tuple(rank_mask(v) for v in range(1, 11))


class Decision(NamedTuple):
    """One play of another seat in the current deal, with what was public before it."""

    seat: int
    card: int
    capture: int
    table: int
    """The table just before the play."""
    public: int
    """The table and every pile just before the play: what the seat had seen besides its hand."""
    side: int
    last_capturer: int | None
    """The side that had captured last before the play."""
    last_play: bool
    """Whether it was the round's last play."""
    next_hand: int
    """How many cards the next seat was taken to hold (as :func:`policy.context` counts
    them), or :data:`PARTNER`."""
    later: int
    """The cards this seat has played from this decision on, this one included: its hand
    then was its hand now plus these."""


class Rewound(NamedTuple):
    """Another seat's play of the current deal, with the public state just before it
    (:func:`rewind`)."""

    position: int
    """The play's place in the observation's history."""
    seat: int
    move: Play
    table: int
    """The table just before the play."""
    piles: tuple[int, ...]
    """Each side's pile just before the play."""
    chkobba: tuple[int, ...]
    """Each side's chkobba count just before the play."""
    hand_sizes: tuple[int, ...]
    """Each seat's cards in hand just before the play."""
    later: int
    """The cards this seat has played from this play on, this one included."""
    last_capturer: int | None
    """The side that had captured last before the play."""
    cards_then: int
    """The cards every seat held together just before the play."""


def rewind(obs: Observation) -> tuple[Rewound, ...]:
    """The other seats' plays in the current deal, oldest first, each with the public
    state before it, found by undoing the deal's plays from the present.

    Only public facts are used: the history of plays, the table, the piles, the chkobba
    counts and the hand sizes.
    """
    if obs.phase is not Phase.PLAY:
        return ()
    in_hands = sum(obs.hand_sizes)
    played = obs.seats * obs.rules.hand_size - in_hands
    plays = [i for i, t in enumerate(obs.history) if isinstance(t.move, Play)]
    if not 0 <= played <= len(plays):
        raise ValueError(
            f"the history holds {len(plays)} plays, fewer than the {played} of the current deal"
        )
    first = len(plays) - played
    # The side that had captured last before each play of the deal.
    last: int | None = None
    last_before: list[int | None] = []
    for k, i in enumerate(plays):
        if k >= first:
            last_before.append(last)
        move = obs.history[i].move
        if isinstance(move, Play) and move.capture:
            last = obs.side_of[obs.history[i].seat]
    table = obs.table
    piles = list(obs.piles)
    chkobba = list(obs.chkobba)
    sizes = list(obs.hand_sizes)
    later = [0] * obs.seats
    out: list[Rewound] = []
    for k in range(len(plays) - 1, first - 1, -1):
        turn = obs.history[plays[k]]
        move = turn.move
        assert isinstance(move, Play)
        seat = turn.seat
        side = obs.side_of[seat]
        bit = 1 << move.card
        if move.capture:
            table |= move.capture
            piles[side] &= ~(move.capture | bit)
        else:
            table &= ~bit
        if turn.chkobba:
            chkobba[side] -= 1
        sizes[seat] += 1
        later[seat] |= bit
        if seat == obs.seat:
            continue
        out.append(
            Rewound(
                position=plays[k],
                seat=seat,
                move=move,
                table=table,
                piles=tuple(piles),
                chkobba=tuple(chkobba),
                hand_sizes=tuple(sizes),
                later=later[seat],
                last_capturer=last_before[k - first],
                cards_then=in_hands + (len(plays) - k),
            )
        )
    out.reverse()
    return tuple(out)


def decisions(obs: Observation) -> tuple[Decision, ...]:
    """The other seats' plays in the current deal, oldest first, rebuilt from ``obs``
    (:func:`rewind`) as the playout policy's model reads them.

    The cards each seat still holds are left to the sampled deal.
    """
    out: list[Decision] = []
    for r in rewind(obs):
        side = obs.side_of[r.seat]
        nxt = (r.seat + 1) % obs.seats
        if obs.side_of[nxt] == side:
            next_hand = PARTNER
        elif r.cards_then > 1:
            next_hand = r.hand_sizes[nxt]
        else:
            next_hand = obs.rules.hand_size if obs.stock > 0 else 0
        public = r.table
        for p in r.piles:
            public |= p
        out.append(
            Decision(
                seat=r.seat,
                card=r.move.card,
                capture=r.move.capture,
                table=r.table,
                public=public,
                side=side,
                last_capturer=r.last_capturer,
                last_play=r.cards_then == 1 and obs.stock == 0,
                next_hand=next_hand,
                later=r.later,
            )
        )
    return tuple(out)


def legal_plays(hand: int, table: int, rules: RuleSet, wild: int = 0) -> list[tuple[int, int]]:
    """The legal plays of ``hand`` on ``table`` as ``(card, capture)``, in legal-move order;
    ``wild`` is the value the 7♠ keeps this round (0: a 7)."""
    out: list[tuple[int, int]] = []
    while hand:
        low = hand & -hand
        hand ^= low
        c = low.bit_length() - 1
        caps = captures(card_value(c, wild), table, rules, wild) if table else []
        out.extend((c, m) for m in caps)
        if rules.may_drop_capturing_card or not caps:
            out.append((c, 0))
    return out


def decision_context(d: Decision, hand: int, rules: RuleSet) -> policy.Context:
    """The policy's view for ``d``'s seat holding ``hand`` then (as :func:`policy.context`)."""
    chances = None
    if d.next_hand != PARTNER:
        chances = policy.chances_of(FULL_DECK & ~(hand | d.public), d.next_hand)
    return policy.Context(
        table=d.table,
        last_play=d.last_play,
        side=d.side,
        last_capturer=d.last_capturer,
        chances=chances,
        weights=policy.weights(rules),
    )


def decision_log_likelihood(
    d: Decision, hand: int, rules: RuleSet, temperature: float, wild: int = 0
) -> float:
    """log P(the play ``d`` | the seat held ``hand`` then), softmax at ``temperature`` points;
    ``wild`` is the value the 7♠ keeps this round (0: a 7)."""
    plays = legal_plays(hand, d.table, rules, wild)
    if (d.card, d.capture) not in plays:
        raise ValueError("the sampled hand cannot have made the play: an inconsistent deal")
    if len(plays) == 1:
        return 0.0
    chosen = plays.index((d.card, d.capture))
    ctx = decision_context(d, hand, rules)
    scores = [policy.play_score(c, m, ctx) for c, m in plays]
    scale = temperature * policy.SCALE
    best = max(scores)
    # Shifted by the best score so that no exponential overflows.
    z = 0.0
    for s in scores:
        z += math.exp((s - best) / scale)
    return (scores[chosen] - best) / scale - math.log(z)


def log_likelihood(
    found: Sequence[Decision],
    hands: Sequence[int],
    rules: RuleSet,
    temperature: float,
    wild: int = 0,
) -> float:
    """log of a sampled deal's weight: its ``hands`` (every seat's cards now) explain ``found``.

    0 (a weight of 1) when there is no decision to explain, and for a temperature
    of 0 (uniform sampling: no inference). ``wild``: the 7♠'s value this round (0: a 7);
    a declaration is made at the deal, so it holds for every play of the current deal.
    """
    check_temperature(temperature)
    if not temperature:
        return 0.0
    total = 0.0
    for d in found:
        total += decision_log_likelihood(d, hands[d.seat] | d.later, rules, temperature, wild)
    return total


def weight(
    found: Sequence[Decision],
    hands: Sequence[int],
    rules: RuleSet,
    temperature: float,
    wild: int = 0,
) -> float:
    """A sampled deal's weight: the probability of the other seats' plays in this deal."""
    return math.exp(log_likelihood(found, hands, rules, temperature, wild))


def active(temperature: float | None) -> bool:
    """Whether ``temperature`` asks for inference (None and 0 mean uniform sampling)."""
    check_temperature(temperature)
    return bool(temperature)


def check_temperature(temperature: float | None) -> None:
    """Raise ``ValueError`` unless ``temperature`` is None (uniform) or a non-negative number."""
    if temperature is not None and not (temperature >= 0.0 and math.isfinite(temperature)):
        raise ValueError(
            f"the temperature must be a non-negative number of points (0 or None: uniform), "
            f"not {temperature}"
        )
