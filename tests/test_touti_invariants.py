"""Invariants of Touti over seeded random games (hypothesis): docs/rules.md §4 as properties.

130 card points per deal (the last trick's 10 included); every card played was
legal by an independent reading of the rules; the 40 cards are always all
accounted for; a record replays to the same state; an observation never depends
on the hidden cards (swapping two hidden cards the public play allows gives the
same observation).
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from chkobba.fishing.cards import FULL_DECK, format_cards
from chkobba.touti.cards import STRENGTH
from chkobba.touti.deal import Deal, Phase
from chkobba.touti.match import ToutiMatch
from chkobba.touti.moves import CardPlay, NotationError, parse_move
from chkobba.touti.observe import observe, observe_deal
from chkobba.touti.record import ToutiRecord, record_of, replay
from chkobba.touti.rules import ToutiRules
from touti_helpers import deck_for

RULES = st.builds(
    ToutiRules,
    kaddour=st.booleans(),
    talk=st.sampled_from(["kalyado", "semi", "parle"]),
    all_pass=st.sampled_from(["same-dealer", "next-dealer", "third-next"]),
    min_trump_length=st.integers(0, 3),
    claim=st.sampled_from(["off", "forgive", "opponents-take-rest", "opponents-take-best-three"]),
    zero_point_redeal=st.booleans(),
)


def random_deal(seed: int, rules: ToutiRules) -> Deal:
    """A deal played to its end by uniformly random legal moves (bids kept low)."""
    rng = random.Random(seed)
    deck = list(range(40))
    rng.shuffle(deck)
    d = Deal(rng.randrange(4), deck, rules)
    while not d.is_over:
        moves = d.legal_moves()
        if d.phase is Phase.BID and rng.random() < 0.5:
            moves = moves[-3:]  # pass more often, so that deals vary
        d.apply(rng.choice(moves))
    return d


def naive_legal(hand: list[int], trick: list[int], trump: int, kaddour: bool) -> set[int]:
    """docs/rules.md §4 Play, read once more independently of the engine."""
    if not trick:
        return set(hand)
    led = trick[0] // 10
    trumped = [c for c in trick if c // 10 == trump and led != trump]
    if trumped:
        top = max(trumped, key=lambda c: STRENGTH[c])
    else:
        top = max((c for c in trick if c // 10 == led), key=lambda c: STRENGTH[c])
    same = [c for c in hand if c // 10 == led]
    if same:
        if trumped:
            return set(same)
        higher = [c for c in same if STRENGTH[c] > STRENGTH[top]]
        return set(higher or same)
    trumps = [c for c in hand if c // 10 == trump]
    if not trumps:
        return set(hand)
    if trumped:
        over = [c for c in trumps if STRENGTH[c] > STRENGTH[top]]
        if over:
            return set(over)
        return set(hand) if kaddour else set(trumps)
    return set(trumps)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1), RULES)
def test_deal_invariants(seed: int, rules: ToutiRules) -> None:
    d = random_deal(seed, rules)
    for _, move in d.history:
        assert parse_move(str(move)) == move  # the text form round-trips
    if d.score is None:
        assert d.redeal
        return
    assert sum(d.score.card_points) == 130
    # replay the card plays against the naive rules
    hands = [set(_cards(h)) for h in d.initial_hands]
    trick: list[int] = []
    for seat, move in d.history:
        if isinstance(move, CardPlay):
            assert d.trump is not None
            assert move.card in naive_legal(sorted(hands[seat]), trick, d.trump, rules.kaddour)
            hands[seat].remove(move.card)
            trick.append(move.card)
            if len(trick) == 4:
                trick = []
    if d.claimed is None:
        assert len(d.tricks) == 10 and not any(hands)
    assert d.won[0] | d.won[1] == FULL_DECK and d.won[0] & d.won[1] == 0


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_cards_accounted_for_at_every_move(seed: int) -> None:
    d = random_deal(seed, ToutiRules())
    e = Deal(d.dealer, d.deck)
    for _, move in d.history:
        hands = e.hands
        assert sum(h.bit_count() for h in hands) + e.played.bit_count() == 40
        allc = hands[0] | hands[1] | hands[2] | hands[3] | e.played
        assert allc == FULL_DECK
        e.apply(move)


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 2**32 - 1), RULES)
def test_record_round_trip_replays_to_the_same_match(seed: int, rules: ToutiRules) -> None:
    rng = random.Random(seed)
    m = ToutiMatch(rules, seed=seed)
    for _ in range(rng.randrange(1, 150)):
        if m.is_over:
            break
        m.apply(rng.choice(m.legal_moves()))
    rec = record_of(m, names=["a", "b", "c", "d"])
    again = ToutiRecord.loads(rec.dumps())
    assert again == rec
    rep = replay(again)
    assert rep.totals == m.totals and rep.winner == m.winner
    last = rep.deals[-1]
    assert last.hands == m.deal.hands and last.history == m.deal.history
    assert last.phase is m.deal.phase and last.turn == m.deal.turn


def _cards(mask: int) -> list[int]:
    return [c for c in range(40) if mask >> c & 1]


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(0, 39), st.integers(0, 3))
def test_observation_does_not_depend_on_hidden_cards(seed: int, cut: int, seat: int) -> None:
    """Swap two unplayed cards between two other hands where the public play allows it:
    the observing seat's observation is unchanged."""
    full = random_deal(seed, ToutiRules())
    n = len(full.history) * cut // 40
    d = Deal(full.dealer, full.deck)
    for _, m in full.history[:n]:
        d.apply(m)
    obs = observe_deal(d, seat)
    others = [s for s in range(4) if s != seat]
    rng = random.Random(seed)
    rng.shuffle(others)
    a, b = others[0], others[1]
    xs = [c for c in _cards(d.hands[a] & ~obs.excluded[b] & ~obs.known[a])]
    ys = [c for c in _cards(d.hands[b] & ~obs.excluded[a] & ~obs.known[b])]
    if not xs or not ys:
        return
    x, y = rng.choice(xs), rng.choice(ys)
    hands0 = d.initial_hands
    hands0[a] ^= (1 << x) | (1 << y)
    hands0[b] ^= (1 << x) | (1 << y)

    swapped = Deal(d.dealer, deck_for([format_cards(h) for h in hands0], d.dealer))
    for _, m in d.history:
        swapped.apply(m)  # the public play stays legal: the exclusions are exact
    assert observe_deal(swapped, seat) == obs


def test_spectator_sees_no_hand() -> None:
    m = ToutiMatch(seed=3)
    obs = observe(m, -1)
    assert obs.hand == 0 and obs.legal_moves == ()
    other = observe(m, (m.turn + 1) % 4)
    assert other.legal_moves == () and other.hand == m.deal.hands[(m.turn + 1) % 4]


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_copy_is_independent(seed: int) -> None:
    """Search relies on Deal.copy(): playing on a copy leaves the original as it was."""
    full = random_deal(seed, ToutiRules())
    d = Deal(full.dealer, full.deck)
    for _, m in full.history[: len(full.history) // 2]:
        d.apply(m)
    snapshot = (list(d.hands), list(d.history), list(d.current), list(d.tricks), list(d.won),
                d.phase, d.turn)
    c = d.copy()
    rng = random.Random(seed)
    while not c.is_over:
        c.apply(rng.choice(c.legal_moves()))
    assert (d.hands, d.history, d.current, d.tricks, d.won, d.phase, d.turn) == snapshot


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=12))
def test_any_text_parses_or_is_a_notation_error(text: str) -> None:
    """Whatever a person types, the parser answers a move or a NotationError."""
    try:
        move = parse_move(text)
    except NotationError:
        return
    assert parse_move(str(move)) == move
