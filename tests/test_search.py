"""The search's parts: determinization, the playout policy, the endgame solver, the expert."""

from __future__ import annotations

import math
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chkobba.agents import make_agent
from chkobba.agents.cheater import CheaterAgent
from chkobba.agents.expert import EXPERT_ENDGAME_SAMPLES, ExpertAgent
from chkobba.fishing.cards import FULL_DECK, Card, parse_cards
from chkobba.fishing.game import Round
from chkobba.fishing.match import Match
from chkobba.fishing.moves import Play
from chkobba.fishing.observe import observe, observe_round
from chkobba.fishing.rules import CHKOBBA, PRESETS
from chkobba.search import fast, policy
from chkobba.search.determinize import determinize
from chkobba.search.endgame import solvable, solve
from chkobba.search.policy import policy_move, rollout

SEATINGS = [(2, False), (3, False), (4, False), (4, True)]


def random_position(seed: int, seats: int, teams: bool, plies: int) -> Match:
    """A match advanced by ``plies`` random legal moves."""
    m = Match(CHKOBBA, seats, teams, seed=seed)
    rng = random.Random(seed)
    for _ in range(plies):
        if m.is_over:
            break
        m.apply(rng.choice(m.legal_moves()))
    return m


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from(SEATINGS), st.integers(0, 40))
def test_determinization_keeps_every_public_fact(
    seed: int, seating: tuple[int, bool], plies: int
) -> None:
    seats, teams = seating
    m = random_position(seed, seats, teams, plies)
    r = m.round
    seat = r.turn
    obs = observe(m, seat)
    d = determinize(obs, random.Random(seed))
    if obs.phase.value == "cut":
        assert d.deck[0] == r.deck[0] or seat != r.cutter
        return
    assert d.hands[seat] == r.hands[seat]
    assert [h.bit_count() for h in d.hands] == [h.bit_count() for h in r.hands]
    assert d.table == r.table and d.piles == r.piles and d.chkobba == r.chkobba
    assert d.last_capturer == r.last_capturer and d.turn == r.turn
    assert d.stock == r.stock
    # The hidden cards are exactly the observer's unseen cards, each once.
    hidden = d.stock_mask()
    for s, h in enumerate(d.hands):
        if s != seat:
            assert not hidden & h
            hidden |= h
    assert hidden == obs.unseen
    known = d.table | d.hands[seat] | hidden
    for p in d.piles:
        known |= p
    assert known == FULL_DECK


def brute_force(r: Round, side: int) -> float:
    """Minimax on engine copies: the reference for the solver."""
    if r.score is not None:
        pts = r.score.points
        return float(pts[side] - pts[1 - side])
    values = []
    for mv in r.legal_moves():
        c = r.copy()
        c.apply_unchecked(mv)
        values.append(brute_force(c, side))
    return max(values) if r.side_of[r.turn] == side else min(values)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from([(2, False), (4, True)]))
def test_endgame_solver_matches_brute_force(seed: int, seating: tuple[int, bool]) -> None:
    seats, teams = seating
    m = Match(CHKOBBA, seats, teams, seed=seed)
    rng = random.Random(seed)
    # Play at random until the stock is empty and at most 6 cards remain in hands.
    while not (solvable(m.round) and m.round.in_hands <= 6):
        m.apply(rng.choice(m.legal_moves()))
    r = m.round
    side = r.side_of[r.turn]
    best, per_move = solve(r)
    assert best == brute_force(r, side)
    for play, value in per_move:
        c = r.copy()
        c.apply(play)
        assert value == brute_force(c, side)


def test_solver_takes_the_last_chkobba_only_when_it_scores() -> None:
    # Seat 0 holds Kd; the table is 3s+7h (sum 10). Sweeping is a chkobba unless it
    # is the last play of the round (docs/rules.md §2.4).
    r = Round(CHKOBBA, 2, False, 1, list(range(40)))
    r.apply(r.legal_moves()[1])
    r.stock_pos = len(r.deck)
    r.hands = [parse_cards("Kd+As"), parse_cards("2c")]
    r.in_hands = 3
    r.table = parse_cards("3s+7h")
    r.turn = 0
    _, per_move = solve(r)
    values = {str(p): v for p, v in per_move}
    assert values["Kd:3s+7h"] > values["As"]


def test_policy_takes_the_sweep() -> None:
    r = Round(CHKOBBA, 2, False, 1, list(range(40)))
    r.apply(r.legal_moves()[1])
    r.hands[r.turn] = parse_cards("Qh+2c+3c")
    r.table = parse_cards("7d+As")
    move = policy_move(r, random.Random(0))
    assert move == Play(Card.parse("Qh"), parse_cards("7d+As"))


@pytest.mark.parametrize(("seats", "teams"), SEATINGS)
def test_expert_plays_only_legal_moves_to_the_end(seats: int, teams: bool) -> None:
    m = Match(CHKOBBA, seats, teams, seed=seats * 10 + teams)
    agents = [ExpertAgent(seed=s, samples=4) for s in range(seats)]
    plies = 0
    while m.round_number == 1 and not m.is_over and plies < 60:
        seat = m.turn
        m.apply(agents[seat].choose(observe(m, seat)), seat)
        plies += 1
    assert m.finished, "the first round was played to the end"


def test_expert_is_deterministic_for_a_seed() -> None:
    m = random_position(5, 2, False, 7)
    obs = observe(m, m.turn)
    a = ExpertAgent(seed=3, samples=8).evaluate(obs)
    b = ExpertAgent(seed=3, samples=8).evaluate(obs)
    assert a == b


def test_rollout_finishes_the_round() -> None:
    m = random_position(11, 2, False, 3)
    r = m.round.copy()
    rollout(r, random.Random(1))
    assert r.score is not None
    assert sum(p.bit_count() for p in r.piles) + r.leftover.bit_count() == 40


def test_cheater_needs_the_true_state() -> None:
    m = random_position(2, 2, False, 5)
    cheater = CheaterAgent(seed=1, samples=2)
    with pytest.raises(TypeError):
        cheater.choose(observe_round(m.round, m.turn, (0, 0), 1, 21))
    assert cheater.choose_state(m.round) in m.legal_moves()


@pytest.mark.parametrize(
    ("name", "samples"),
    [("chkobba", 6000), ("scopa", 6000), ("scopone", 2000), ("scopone-scientifico", 1800)],
)
def test_the_expert_keeps_its_time_a_move_with_bigger_hands(
    name: str, samples: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The budget is set for hands of three: Scopone's 9 and 10 cards make each sample
    dearer, so the search samples a third as many deals (agents/expert.py BUDGET_HAND)."""
    asked: list[int] = []

    def evaluate(obs: object, n: int, seed: int, **kw: object) -> list[float]:
        asked.append(n)
        return [0.0] * len(obs.legal_moves)  # type: ignore[attr-defined]

    monkeypatch.setattr(fast, "evaluate", evaluate)
    rules = PRESETS[name]
    seats, teams = (4, True) if rules.seatings == ("2v2",) else (2, False)
    m = Match(rules, seats, teams, seed=1)
    while len(observe(m, m.turn).legal_moves) < 2 or observe(m, m.turn).phase.value == "cut":
        m.apply(m.legal_moves()[0])
    ExpertAgent(seed=1, samples=6000).choose(observe(m, m.turn))
    assert asked == [samples]


@pytest.mark.parametrize(("seats", "teams"), [(2, False), (4, True)])
def test_the_registered_expert_solves_its_endgame_splits(
    seats: int, teams: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Once the stock is empty the registered expert solves exactly: one solve with two
    players (every card is known), EXPERT_ENDGAME_SAMPLES sampled splits with partners."""
    asked: list[tuple[int, object]] = []

    def evaluate(obs: object, n: int, seed: int, **kw: object) -> list[float]:
        asked.append((n, kw.get("solve_cards")))
        return [0.0] * len(obs.legal_moves)  # type: ignore[attr-defined]

    monkeypatch.setattr(fast, "evaluate", evaluate)
    m = Match(PRESETS["scopa"], seats, teams, seed=2)
    while observe(m, m.turn).stock > 0 or len(m.legal_moves()) < 2:
        m.apply(m.legal_moves()[0])
    make_agent("expert", 1).choose(observe(m, m.turn))
    assert asked == [(1 if seats == 2 else EXPERT_ENDGAME_SAMPLES, 12)]


def _chances(**by_value: float) -> tuple[float, ...]:
    """policy.chances_of's shape: index v the chance the next player holds a v."""
    return tuple(by_value.get(f"v{v}", 0.0) for v in range(11))


def test_scopa_threat_counts_a_pair_the_next_player_adds_up() -> None:
    """3 + 4 left on a Scopa table give a 7 both cards (a capture of two, by their sum)."""
    w = policy.weights(PRESETS["scopa"])
    left = parse_cards("3s+4h+Kc")  # 17 in all: no card sweeps it
    chances = _chances(v7=0.5, v10=0.5)
    alone = policy.threat(left, chances, w)
    assert alone == 0.5 * w.card[int(Card.parse("Kc"))]
    with_pairs = policy.threat(left, chances, w, pairs=True)
    three, four = int(Card.parse("3s")), int(Card.parse("4h"))
    assert with_pairs == 0.5 * (w.card[three] + w.card[four]) > alone


def test_a_matching_card_takes_itself_not_the_pair() -> None:
    """Scopa's fewest cards: with a 5 on the table a 5 takes it alone, never 2 + 3."""
    w = policy.weights(PRESETS["scopa"])
    assert policy.pair_threat(parse_cards("2s+3h+5c"), _chances(v5=1.0), w) == 0.0
    two, five = int(Card.parse("2s")), int(Card.parse("5c"))
    assert policy.pair_threat(parse_cards("2s+3h+5c"), _chances(v7=1.0), w) == (
        w.card[two] + w.card[five]
    )


@pytest.mark.parametrize(
    ("name", "seats", "teams", "caution"),
    [
        ("scopa", 2, False, policy.TWO_CAUTION),
        ("escoba", 2, False, policy.TWO_CAUTION),
        ("scopa", 3, False, policy.CAUTION),
        ("scopa", 4, True, policy.CAUTION),
        ("chkobba", 2, False, policy.CAUTION),
        ("cirulla", 2, False, policy.CAUTION),
        ("scopone", 4, True, policy.CAUTION),
    ],
)
def test_the_two_player_caution_plays_in_scopa_with_two_players(
    name: str, seats: int, teams: bool, caution: float
) -> None:
    """Measured only there (bench/expert_variants.py): Scopa's captures, a table of two."""
    m = Match(PRESETS[name], seats, teams, seed=3)
    while m.round.phase.value == "cut":
        m.apply(m.legal_moves()[0])
    ctx = policy.context(m.round)
    w = ctx.weights
    assert (w.caution_two if ctx.two else w.caution) == caution
    assert ctx.two is (seats == 2)
    assert not w.pairs and w.epsilon == 0.0  # measured no stronger: off


def test_the_two_player_caution_weighs_the_threat() -> None:
    """The same Scopa play scored at a table of two and elsewhere: only the threat differs."""
    r = Round(PRESETS["scopa"], 2, False, 1, list(range(40)))
    r.hands[r.turn] = parse_cards("5c+Kh+2s")
    r.table = parse_cards("3d+Qs")
    ctx = policy.context(r)
    assert ctx.two and ctx.chances is not None
    lay = int(Card.parse("2s"))  # 2 + 3 = 5: a pair left, and a 2 to match
    w = ctx.weights
    threat = policy.threat(r.table | 1 << lay, ctx.chances, w)
    assert threat > 0
    at_two = policy.play_score(lay, 0, ctx)
    elsewhere = policy.play_score(lay, 0, ctx._replace(two=False))
    assert at_two - elsewhere == (
        math.floor(w.caution * threat + 0.5) - math.floor(w.caution_two * threat + 0.5)
    ) < 0
