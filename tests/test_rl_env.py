"""The ``chkobba_v1`` environments: PettingZoo's conformance tests, masks, hidden cards."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, seed_test

from chkobba.fishing.cards import iter_bits
from chkobba.fishing.game import Round
from chkobba.fishing.match import Match
from chkobba.fishing.moves import Move, Play
from chkobba.fishing.observe import observe, observe_round
from chkobba.fishing.rules import CHKOBBA, PRESETS, preset
from chkobba.rl import ChkobbaGymEnv, IllegalActionPenalty, env, raw_env
from chkobba.rl.aec import round_rewards
from chkobba.rl.spaces import (
    DONE,
    KEEP,
    NUM_ACTIONS,
    OBS_LAYOUT,
    OBS_SIZE,
    PLAY,
    TABLE,
    TAKE,
    Choice,
    IllegalAction,
    action_mask,
    actions_for,
    decide,
    encode,
    legal_actions,
)

TABLES = [
    ("chkobba", 2, False),
    ("chkobba", 3, False),
    ("chkobba", 4, False),
    ("chkobba", 4, True),
    # Every other preset at its first table (Scopone's are 2 against 2).
    *(
        (name, 4 if r.seatings[0] in ("4", "2v2") else int(r.seatings[0]), r.seatings[0] == "2v2")
        for name, r in sorted(PRESETS.items())
        if name != "chkobba"
    ),
]


# PettingZoo warns about any Dict observation, the convention of its own card games.
pytestmark = pytest.mark.filterwarnings("ignore:Observation:UserWarning")


@pytest.mark.parametrize(("rules", "seats", "teams"), TABLES)
def test_pettingzoo_api_and_seed_tests(rules: str, seats: int, teams: bool) -> None:
    """PettingZoo's own api_test and seed_test pass for every kind of table."""
    api_test(env(rules, seats, teams), num_cycles=60)
    seed_test(lambda: env(rules, seats, teams), num_cycles=60)


def test_pettingzoo_tests_for_whole_matches() -> None:
    """The same for episodes that are whole matches (rewards at each round's end)."""
    api_test(env("scopa", 2, episode="match"), num_cycles=300)
    seed_test(lambda: env("chkobba", 4, True, episode="match"), num_cycles=300)


def paths(moves: list[Move], choice: Choice | None = None) -> list[Move]:
    """Every move reachable through the mask, one entry per distinct action sequence."""
    out: list[Move] = []
    for a in legal_actions(moves, choice):
        step = decide(moves, choice, a)
        if isinstance(step, Choice):
            sub = paths(moves, step)
            assert sub, "a choice always leads to a play"
            out.extend(sub)
        else:
            out.append(step)
    return out


@settings(max_examples=25, deadline=None)
@given(
    st.sampled_from(sorted(PRESETS)),
    st.sampled_from([(2, False), (3, False), (4, False), (4, True)]),
    st.integers(0, 2**32 - 1),
)
def test_masks_express_exactly_the_legal_moves(
    rules: str, seating: tuple[int, bool], seed: int
) -> None:
    """Along seeded games of every preset, the actions the masks allow make exactly the
    engine's legal moves, each by one sequence of actions (so no capture is left out)."""
    seats, teams = seating
    r = preset(rules)
    if ("2v2" if teams else str(seats)) not in r.seatings:
        seats, teams = 4, True
    m = Match(r, seats, teams, seed=seed)
    rng = random.Random(seed)
    while not m.is_over and m.round_number <= 2:
        moves = m.legal_moves()
        reached = paths(moves)
        assert sorted(reached, key=str) == sorted(moves, key=str)
        vec = encode(observe(m, m.turn))
        # A reused buffer (as the policy player passes) gets every entry rewritten.
        assert np.array_equal(encode(observe(m, m.turn), None, np.full(OBS_SIZE, 7.0, np.float32)),
                              vec)
        capturing = {mv.card for mv in moves if isinstance(mv, Play) and mv.capture}
        assert set(np.flatnonzero(vec[OBS_LAYOUT["captures"]])) == capturing
        move = rng.choice(moves)
        step: Move | Choice | None = None
        for a in actions_for(moves, move):
            step = decide(moves, step if isinstance(step, Choice) else None, a)
        assert step == move
        m.apply(move)


def test_a_capture_choice_step_by_step() -> None:
    """docs/rules.md §2.3.2: a king on A, 2, 3, 4, 6 captures 4+6, 1+3+6 or 1+2+3+4: play(K)
    opens the choice, take() names the cards lowest first, the last option applies."""
    table = sum(1 << c for c in (0, 11, 2, 13, 25))  # As 2h 3s 4h 6d
    king = 9  # Ks
    r = Round.in_play(CHKOBBA, (0, 1), 1, list(range(26, 40)), [1 << king, 0], table,
                      [0, 0], [0, 0], None, 0)
    moves = r.legal_moves()
    assert len(moves) == 3
    step = decide(moves, None, PLAY + king)
    assert isinstance(step, Choice) and step.taken == 0
    assert legal_actions(moves, step) == [TAKE + 0, TAKE + 13]  # As or 4h first
    after_ace = decide(moves, step, TAKE + 0)
    assert isinstance(after_ace, Choice)
    # Both captures with the ace go on with the 3s (card 2), the lowest card number.
    assert legal_actions(moves, after_ace) == [TAKE + 2]
    after_three = decide(moves, after_ace, TAKE + 2)
    assert isinstance(after_three, Choice)
    assert legal_actions(moves, after_three) == [TAKE + 11, TAKE + 25]
    # As, 3s, 2h: only 1+2+3+4 is left, played at once.
    assert decide(moves, after_three, TAKE + 11) == Play(king, 1 | 1 << 11 | 1 << 2 | 1 << 13)
    assert decide(moves, step, TAKE + 13) == Play(king, 1 << 13 | 1 << 25)
    with pytest.raises(IllegalAction, match="done is illegal"):
        decide(moves, step, DONE)
    with pytest.raises(IllegalAction):
        decide(moves, after_ace, TAKE + 25)  # 6d comes after the 3s in both captures
    for move in moves:
        seq = actions_for(moves, move)
        assert seq[0] == PLAY + king and len(seq) >= 2


def test_done_lays_a_capturing_card_where_the_rules_allow() -> None:
    """Where a capturing card may be laid (``may_drop_capturing_card``, as in the Scopa Frac
    of rules version 1): done with nothing taken."""
    rules = preset("scopa-frac", {"may_drop_capturing_card": True})
    r = Round.in_play(rules, (0, 1), 1, list(range(10, 40)), [1 << 4, 0], 1 << 5 | 1 << 9,
                      [0, 0], [0, 0], None, 0)
    moves = r.legal_moves()  # 5s: take 5? no, the table holds 6s and Ks: lay only
    assert moves == [Play(4, 0)]
    assert decide(moves, None, PLAY + 4) == Play(4, 0)
    r = Round.in_play(rules, (0, 1), 1, list(range(10, 40)), [1 << 5, 0], 1 << 0 | 1 << 4,
                      [0, 0], [0, 0], None, 0)
    moves = r.legal_moves()  # 6s on As 5s: capture As+5s or lay it
    step = decide(moves, None, PLAY + 5)
    assert isinstance(step, Choice)
    assert legal_actions(moves, step) == [TAKE + 0, DONE]
    assert decide(moves, step, DONE) == Play(5, 0)


def swap_hidden(r: Round, seat: int, rng: random.Random) -> Round:
    """A copy of ``r`` with the cards ``seat`` cannot see (other hands, the stock)
    dealt among the same places again, at random."""
    out = r.copy()
    others = [s for s in range(r.seats) if s != seat]
    stock = list(r.deck[r.stock_pos :])
    pool = stock + [c for s in others for c in iter_bits(r.hands[s])]
    rng.shuffle(pool)
    out.deck = r.deck[: r.stock_pos] + tuple(pool[: len(stock)])
    rest = pool[len(stock) :]
    hands = list(r.hands)
    for s in others:
        n = r.hands[s].bit_count()
        hands[s] = sum(1 << c for c in rest[:n])
        rest = rest[n:]
    out.hands = hands
    return out


@settings(max_examples=40, deadline=None)
@given(
    st.sampled_from(["chkobba", "scopa", "escoba", "scopa-frac"]),
    st.sampled_from([(2, False), (3, False), (4, True)]),
    st.integers(0, 2**32 - 1),
    st.integers(1, 60),
)
def test_the_observation_never_holds_hidden_cards(
    rules: str, seating: tuple[int, bool], seed: int, steps: int
) -> None:
    """docs/rules.md §2.7: redealing the cards a seat has not seen (the others' hands and the
    stock) among the same places leaves that seat's observation vector unchanged.
    (Not Cirulla, where a declared hand is shown to everyone.)"""
    seats, teams = seating
    rng = random.Random(seed)
    m = Match(preset(rules), seats, teams, seed=seed)
    for _ in range(steps):
        if m.is_over:
            break
        m.apply(rng.choice(m.legal_moves()))
    r = m.round
    for seat in range(seats):
        def vec(rr: Round, seat: int = seat) -> np.ndarray:
            return encode(observe_round(rr, seat, tuple(m.totals), m.round_number, m.rules.target))

        base = vec(r)
        assert base.shape == (OBS_SIZE,)
        for _ in range(3):
            assert np.array_equal(vec(swap_hidden(r, seat, rng)), base)


def test_the_cut_card_is_seen_by_the_cutter_alone() -> None:
    """docs/rules.md §2.2, §2.7: during the cut only the cutter's vector shows the cut card."""
    e = raw_env()
    e.reset(seed=5)
    r = e.match.round
    cut = OBS_LAYOUT["cut_card"]
    for seat, agent in enumerate(e.possible_agents):
        obs = e.observe(agent)
        if seat == r.cutter:
            assert obs["observation"][cut].argmax() == r.cut_card
            assert list(np.flatnonzero(obs["action_mask"])) == [KEEP, TABLE]
        else:
            assert not obs["observation"][cut].any()
            assert not obs["action_mask"].any()


def test_illegal_actions_raise_and_change_nothing() -> None:
    """A masked action raises IllegalAction; the game is as it was and play goes on."""
    e = raw_env()
    e.reset(seed=3)
    agent = e.agent_selection
    before = e.observe(agent)["observation"].copy()
    for bad in (PLAY + 0, DONE, NUM_ACTIONS, -1, "x"):
        with pytest.raises(IllegalAction):
            e.step(bad)  # type: ignore[arg-type]
    with pytest.raises(IllegalAction, match="not None"):
        e.step(None)
    assert e.agent_selection == agent
    assert np.array_equal(e.observe(agent)["observation"], before)
    e.step(KEEP)
    mask = e.observe(e.agent_selection)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(IllegalAction):
        e.step(illegal)
    wrapped = env()
    wrapped.reset(seed=3)
    with pytest.raises(IllegalAction):
        wrapped.step(NUM_ACTIONS)


def test_bad_settings_are_clear_errors() -> None:
    """A seating or episode the game does not know is refused at once."""
    with pytest.raises(ValueError, match="2, 3 or 4"):
        raw_env(seats=5)
    with pytest.raises(ValueError, match="two teams"):
        raw_env("scopone", seats=2)
    with pytest.raises(ValueError, match="episode"):
        raw_env(episode="season")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="unknown player"):
        ChkobbaGymEnv(opponent="nobody")


def test_round_rewards_are_margins() -> None:
    """Two sides: each side's reward is its margin; more sides: minus the others' mean."""
    assert round_rewards([3, 1], (0, 1)) == [2.0, -2.0]
    assert round_rewards([3, 1], (0, 1, 0, 1)) == [2.0, -2.0, 2.0, -2.0]
    assert round_rewards([3, 1, 2], (0, 1, 2)) == [1.5, -1.5, 0.0]


@pytest.mark.parametrize(("opponent", "seats", "teams"),
                         [("random", 2, False), ("greedy", 4, True), ("heuristic", 3, False)])
def test_gym_returns_are_the_round_margins(opponent: str, seats: int, teams: bool) -> None:
    """The Gymnasium wrapper's episode return is the learner's reward for the round."""
    e = ChkobbaGymEnv(opponent=opponent, seats=seats, teams=teams)
    rng = random.Random(1)
    for episode in range(6):
        obs, info = e.reset(seed=episode)
        assert obs.shape == (OBS_SIZE,) and info["action_mask"].any()
        total = info["reward_before"]
        done = False
        while not done:
            mask = e.action_masks()
            assert np.array_equal(mask, obs_mask(e))
            obs, rew, done, trunc, info = e.step(int(rng.choice(np.flatnonzero(mask))))
            total += float(rew)
            assert not trunc
        r = e.aec.match.finished[-1]
        assert r.score is not None
        assert total == round_rewards(r.score.points, r.side_of)[e.seat]
        assert not e.action_masks().any()
        with pytest.raises(IllegalAction, match="reset"):
            e.step(0)


def obs_mask(e: ChkobbaGymEnv) -> np.ndarray:
    """The learner's mask recomputed from the engine's observation."""
    seat = e.seat
    return action_mask(e.aec.observation(seat).legal_moves, e.aec.choice).astype(bool)


def test_penalty_wrapper_is_explicit() -> None:
    """IllegalActionPenalty turns a masked action into the penalty and the episode's end."""
    e = IllegalActionPenalty(ChkobbaGymEnv(seat=0), penalty=-5.0)
    e.reset(seed=2)
    illegal = int(np.flatnonzero(~e.unwrapped.action_masks())[0])  # type: ignore[attr-defined]
    _obs, rew, done, _trunc, info = e.step(illegal)
    assert rew == -5.0 and done and info["illegal_action"] == illegal


def test_render_names_the_table() -> None:
    """The ansi rendering is the seat to move's readable observation."""
    e = raw_env(render_mode="ansi")
    e.reset(seed=1)
    text = e.render()
    assert text is not None and "table:" in text and "seat" in text
