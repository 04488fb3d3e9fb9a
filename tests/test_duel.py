"""The duplicate match harness: statistics, pairs, determinism, records and the CLI."""

from __future__ import annotations

import json
import math
import random
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from chkobba.agents import AGENTS
from chkobba.cli import main
from chkobba.duel import AgentMoveError, run_duel, run_tournament
from chkobba.duel.play import DuelSpec, draw_deck, play_pair, record_path, void_for_some_cut
from chkobba.duel.stats import (
    Z95,
    Estimate,
    Meeting,
    elo_estimate,
    elo_from_score,
    fit_elo,
    mean_estimate,
    percentile,
    score_from_elo,
)
from chkobba.fishing.game import Round
from chkobba.fishing.moves import Cut, Move, Play
from chkobba.fishing.observe import Observation
from chkobba.fishing.record import GameRecord, replay
from chkobba.fishing.rules import CHKOBBA

# -- test players ---------------------------------------------------------------


class FirstAgent:
    """Always the first legal move: a function of the observation alone."""

    def __init__(self, seed: int = 0) -> None:
        self.name = "first"

    def choose(self, obs: Observation) -> Move:
        return obs.legal_moves[0]


class CheatAgent:
    """Plays a card it does not hold."""

    def __init__(self, seed: int = 0) -> None:
        self.name = "cheat"

    def choose(self, obs: Observation) -> Move:
        if obs.cut_card is not None:
            return Cut.KEEP
        missing = next(c for c in range(40) if not obs.hand >> c & 1)
        return Play(missing, 0)


@pytest.fixture
def first(monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setitem(AGENTS, "first", FirstAgent)
    return "first"


@pytest.fixture
def cheat(monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setitem(AGENTS, "cheat", CheatAgent)
    return "cheat"


# -- statistics -------------------------------------------------------------------


def test_mean_estimate_on_known_values() -> None:
    e = mean_estimate([1.0, 2.0, 3.0, 4.0])
    # sample variance 5/3, so SE = sqrt(5/3 / 4)
    se = math.sqrt(5 / 12)
    assert e.mean == 2.5
    assert e.se == pytest.approx(se)
    assert (e.low, e.high) == pytest.approx((2.5 - 1.959964 * se, 2.5 + 1.959964 * se))
    assert e.n == 4
    assert abs(Z95 - 1.959964) < 1e-6


def test_mean_estimate_of_one_value_has_unknown_error() -> None:
    e = mean_estimate([3.0])
    assert e.mean == 3.0 and math.isinf(e.se)
    assert e.to_json() == {"mean": 3.0, "se": None, "ci95": [None, None], "n": 1}
    with pytest.raises(ValueError, match="at least one"):
        mean_estimate([])


def test_elo_from_score_on_known_values() -> None:
    assert elo_from_score(0.5) == 0.0
    assert elo_from_score(0.75) == pytest.approx(400 * math.log10(3))
    assert elo_from_score(0.75) == pytest.approx(190.85, abs=0.01)
    assert elo_from_score(0.25) == pytest.approx(-190.85, abs=0.01)
    assert elo_from_score(1.0) == math.inf
    assert elo_from_score(0.0) == -math.inf


@given(st.floats(min_value=-1500, max_value=1500))
def test_score_and_elo_are_inverse(elo: float) -> None:
    assert elo_from_score(score_from_elo(elo)) == pytest.approx(elo, abs=1e-6)


def test_elo_interval_maps_the_score_interval() -> None:
    e = elo_estimate(Estimate(0.75, 0.05, 0.65, 0.85, 100))
    assert e.elo == pytest.approx(190.85, abs=0.01)
    assert e.low == pytest.approx(elo_from_score(0.65))
    assert e.high == pytest.approx(elo_from_score(0.85))
    assert e.low < e.elo < e.high
    # A bound past a certain win is an infinite Elo, which JSON shows as null.
    wide = elo_estimate(Estimate(0.95, 0.05, 0.85, 1.05, 10))
    assert wide.to_json()["ci95"][1] is None
    assert wide.to_json()["ci95"][0] == pytest.approx(elo_from_score(0.85))


def test_percentile_interpolates() -> None:
    values = [5.0, 1.0, 4.0, 2.0, 3.0]
    assert percentile(values, 50) == 3.0
    assert percentile(values, 95) == pytest.approx(4.8)
    assert percentile(values, 0) == 1.0
    assert percentile(values, 100) == 5.0
    with pytest.raises(ValueError):
        percentile([], 50)
    with pytest.raises(ValueError):
        percentile(values, 101)


def test_fit_elo_of_two_players_is_the_score_elo() -> None:
    ratings = fit_elo(2, [Meeting(0, 1, 75.0, 100.0)], prior_games=0)
    assert ratings[0] == 0.0
    assert ratings[1] == pytest.approx(-190.85, abs=0.01)
    # Anchoring the other player shifts the scale.
    shifted = fit_elo(2, [Meeting(0, 1, 75.0, 100.0)], anchor=1, prior_games=0)
    assert shifted == pytest.approx([190.85, 0.0], abs=0.01)


def test_fit_elo_recovers_ratings_from_exact_scores() -> None:
    true = [0.0, 120.0, 300.0, -80.0]
    meetings = [
        Meeting(i, j, 1000 * score_from_elo(true[i] - true[j]), 1000.0)
        for i in range(4)
        for j in range(i + 1, 4)
    ]
    assert fit_elo(4, meetings, prior_games=0) == pytest.approx(true, abs=1e-3)
    # The prior pulls ratings towards each other, a little.
    shrunk = fit_elo(4, meetings, prior_games=1)
    assert 0 < shrunk[2] < 300


def test_fit_elo_refuses_unbounded_ratings() -> None:
    # Player 0 won every game: no finite rating fits, unless with a prior.
    perfect = [Meeting(0, 1, 10.0, 10.0), Meeting(0, 2, 10.0, 10.0), Meeting(1, 2, 5.0, 10.0)]
    with pytest.raises(ValueError, match="unbounded"):
        fit_elo(3, perfect, prior_games=0)
    ratings = fit_elo(3, perfect, prior_games=1)
    assert ratings[0] == 0.0
    assert ratings[1] == pytest.approx(ratings[2]) and ratings[1] < -300
    # Losing every game to one player is fine when a path leads back through another.
    linked = [Meeting(0, 1, 10.0, 10.0), Meeting(0, 2, 6.0, 10.0), Meeting(1, 2, 5.0, 10.0)]
    assert all(math.isfinite(r) for r in fit_elo(3, linked, prior_games=0))
    with pytest.raises(ValueError, match="no game"):
        fit_elo(3, [Meeting(0, 1, 1.0, 2.0)])
    with pytest.raises(ValueError, match="impossible"):
        fit_elo(2, [Meeting(0, 1, 3.0, 2.0)])


# -- decks and pairs --------------------------------------------------------------


@given(st.integers(0, 2**32), st.sampled_from([2, 4]), st.integers(0, 3))
def test_drawn_decks_are_valid_for_both_cut_decisions(seed: int, players: int, dealer: int) -> None:
    dealer %= players
    deck = draw_deck(random.Random(seed), CHKOBBA, players, players == 4, dealer)
    for cut in Cut:
        r = Round(CHKOBBA, players, players == 4, dealer, deck)
        r.apply(cut)
        assert not r.void


def test_void_for_some_cut_detects_a_void_deal() -> None:
    # Three kings on top: tabling the cut card puts them on the table.
    kings = [9, 19, 29]
    deck = kings + [c for c in range(40) if c not in kings]
    assert void_for_some_cut(CHKOBBA, 2, False, 0, deck)
    assert not void_for_some_cut(CHKOBBA, 2, False, 0, list(range(40)))


def _load_pair(save_dir: Path, index: int) -> tuple[GameRecord, GameRecord]:
    return (
        GameRecord.load(record_path(save_dir, index, 0)),
        GameRecord.load(record_path(save_dir, index, 1)),
    )


@pytest.mark.parametrize(("players", "unit"), [(2, "round"), (4, "round"), (2, "match")])
def test_the_two_games_of_a_pair_share_the_cards_with_seats_swapped(
    tmp_path: Path, first: str, players: int, unit: Any
) -> None:
    run_duel(first, "random", 3, seed=5, players=players, unit=unit, target=5, jobs=1,
             save_dir=tmp_path)  # fmt: skip
    for index in range(3):
        g1, g2 = _load_pair(tmp_path, index)
        assert g1.names is not None and g2.names is not None
        assert g1.names == ["first", "random"] * (players // 2)
        assert g2.names == ["random", "first"] * (players // 2)
        assert g1.meta is not None and g2.meta is not None
        assert g1.meta["duel"]["seats"] == ["a", "b"] * (players // 2)
        assert g2.meta["duel"]["seats"] == ["b", "a"] * (players // 2)
        # Round k of both games: the same dealer seat and the same shuffle.
        for r1, r2 in zip(g1.rounds, g2.rounds, strict=False):
            assert (r1.dealer, r1.deck) == (r2.dealer, r2.deck)
        if unit == "round":
            assert len(g1.rounds) == len(g2.rounds) == 1


@pytest.mark.parametrize(("players", "unit"), [(2, "round"), (4, "round"), (2, "match")])
def test_an_observation_only_player_against_itself_cancels_exactly(
    first: str, players: int, unit: Any
) -> None:
    # Same cards, same seat, same policy: game 2 replays game 1 with the names
    # swapped, so every pair's margin is exactly 0 and every win has its loss.
    result = run_duel(first, first, 8, seed=3, players=players, unit=unit, target=7, jobs=1)
    assert result.pair_margins == (0.0,) * 8
    assert result.wins == result.losses
    assert result.a_points == result.b_points
    assert result.margin.se == 0.0
    assert result.elo.elo == 0.0


def test_random_against_itself_is_even() -> None:
    result = run_duel("random", "random", 150, seed=11, jobs=1)
    assert result.margin.low < 0 < result.margin.high
    assert result.elo.low < 0 < result.elo.high


def test_statistics_are_over_pairs_and_match_the_saved_games(tmp_path: Path) -> None:
    result = run_duel("random", "greedy", 6, seed=9, jobs=1, save_dir=tmp_path)
    margins = []
    a_moves = 0
    a_points = 0
    wins = draws = 0
    for index in range(6):
        pair_margin = 0.0
        for game, rec in enumerate(_load_pair(tmp_path, index)):
            rep = replay(rec)  # raises if any move is illegal
            a_side = game  # A sits at seat 0 in game 1 and at seat 1 in game 2
            pts = rep.totals[a_side], rep.totals[1 - a_side]
            a_points += pts[0]
            wins += pts[0] > pts[1]
            draws += pts[0] == pts[1]
            pair_margin += (pts[0] - pts[1]) / 2
            a_moves += sum(t.seat == a_side for r in rep.rounds for t in r.history)
        margins.append(pair_margin)
    assert result.pair_margins == pytest.approx(margins)
    expected = mean_estimate(margins)
    assert (result.margin.mean, result.margin.se) == pytest.approx((expected.mean, expected.se))
    assert result.a_points == a_points
    assert (result.wins, result.draws) == (wins, draws)
    assert result.wins + result.draws + result.losses == result.games == 12
    assert result.score.mean == pytest.approx((wins + draws / 2) / 12)
    assert result.elo.elo == pytest.approx(elo_from_score(result.score.mean))
    assert result.a_timing.moves == a_moves
    assert 0 <= result.a_timing.median_ms <= result.a_timing.p95_ms


def test_four_player_records_verify_as_teams(tmp_path: Path) -> None:
    result = run_duel("greedy", "random", 3, seed=2, players=4, jobs=1, save_dir=tmp_path)
    total = 0
    for index in range(3):
        for game, rec in enumerate(_load_pair(tmp_path, index)):
            assert rec.teams and rec.seats == 4
            total += replay(rec).totals[game]
    assert total == result.a_points


def test_a_pair_depends_only_on_the_seed_and_its_index() -> None:
    spec = DuelSpec("random", "greedy", 2, "round", 4, CHKOBBA)
    result = run_duel("random", "greedy", 5, seed=4, jobs=1)
    assert play_pair(spec, 3).margin == result.pair_margins[3]
    other = run_duel("random", "greedy", 5, seed=5, jobs=1)
    assert other.pair_margins != result.pair_margins


def test_an_illegal_move_is_reported(cheat: str) -> None:
    with pytest.raises(AgentMoveError, match=r"'cheat' at seat \d+ chose .* not a legal move"):
        run_duel(cheat, "random", 1, jobs=1)


def test_bad_settings_are_refused() -> None:
    with pytest.raises(ValueError, match="at least one pair"):
        run_duel("random", "random", 0)
    with pytest.raises(ValueError, match="not 5"):
        run_duel("random", "random", 1, players=5)
    with pytest.raises(ValueError, match="unit"):
        run_duel("random", "random", 1, unit="set")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="unknown player 'nobody'"):
        run_duel("nobody", "random", 1)
    with pytest.raises(ValueError, match="jobs"):
        run_duel("random", "random", 2, jobs=0)
    with pytest.raises(ValueError, match="target"):
        run_duel("random", "random", 1, target=0)


# -- tournaments ------------------------------------------------------------------


def test_tournament_table_and_ratings() -> None:
    t = run_tournament(["greedy", "random", "heuristic"], 5, seed=1, jobs=1)
    assert t.anchor == "random"
    assert t.ratings[1] == 0.0
    assert len(t.duels) == 3
    for i in range(3):
        for j in range(3):
            if i != j:
                assert t.margin(i, j) == -t.margin(j, i)
    assert sum(t.points(i)[0] for i in range(3)) == 3 * 10
    assert all(t.points(i)[1] == 20 for i in range(3))
    no_random = run_tournament(["greedy", "heuristic"], 3, seed=1, jobs=1)
    assert no_random.anchor == "greedy" and no_random.ratings[0] == 0.0


def test_tournament_refuses_bad_player_lists() -> None:
    with pytest.raises(ValueError, match="at least two"):
        run_tournament(["random"], 1)
    with pytest.raises(ValueError, match="random repeated"):
        run_tournament(["random", "greedy", "random"], 1)


# -- the commands -----------------------------------------------------------------


def _without_timing(data: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in data.items() if k != "timing_ms"}


def test_duel_json_is_the_same_on_one_process_or_two() -> None:
    runner = CliRunner()
    args = ["duel", "random", "greedy", "--pairs", "6", "--seed", "7", "--json"]
    one = runner.invoke(main, [*args, "--jobs", "1"])
    two = runner.invoke(main, [*args, "--jobs", "2"])
    assert one.exit_code == 0, one.output
    assert two.exit_code == 0, two.output
    a, b = json.loads(one.output), json.loads(two.output)
    assert _without_timing(a) == _without_timing(b)
    assert a["games"] == 12 and a["margin"]["n"] == 6
    assert set(a["timing_ms"]["a"]) == {"moves", "median_ms", "p95_ms"}


def test_duel_text_output(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        main,
        ["duel", "random", "greedy", "--pairs", "4", "--jobs", "1", "--save-dir",
         str(tmp_path / "games")],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    out = result.output
    assert "random (A) vs greedy (B): 4 duplicate pairs = 8 deals" in out
    assert "margin per deal (A − B)" in out and "95% interval" in out
    assert "Elo of A over B" in out and "ms per move" in out
    saved = sorted((tmp_path / "games").iterdir())
    assert len(saved) == 8
    verify = CliRunner().invoke(main, ["verify", str(saved[0])])
    assert verify.exit_code == 0, verify.output


def test_duel_rejects_an_unknown_player_naming_the_known_ones() -> None:
    result = CliRunner().invoke(main, ["duel", "random", "nobody", "--pairs", "1"])
    assert result.exit_code == 2
    assert "unknown player 'nobody'" in result.output
    assert "random" in result.output.split("known:")[1]


def test_duel_reports_an_illegal_move(cheat: str) -> None:
    result = CliRunner().invoke(main, ["duel", cheat, "random", "--pairs", "1", "--jobs", "1"])
    assert result.exit_code == 1
    assert "not a legal move" in result.output


def test_tournament_command() -> None:
    runner = CliRunner()
    text = runner.invoke(main, ["tournament", "random", "greedy", "--pairs", "3", "--jobs", "1"])
    assert text.exit_code == 0, text.output
    lines = text.output.splitlines()
    assert lines[0].split()[:3] == ["player", "random", "greedy"]
    assert "random = 0" in lines[-1]
    data = json.loads(
        runner.invoke(
            main, ["tournament", "random", "greedy", "--pairs", "3", "--jobs", "1", "--json"]
        ).output
    )
    assert data["players"] == ["random", "greedy"] and data["anchor"] == "random"
    row = {r["player"]: r for r in data["table"]}
    assert row["random"]["elo"] == 0.0
    assert row["random"]["margin"]["greedy"] == -row["greedy"]["margin"]["random"]
    assert len(data["duels"]) == 1
    one = runner.invoke(main, ["tournament", "random", "--pairs", "1"])
    assert one.exit_code != 0 and "at least two" in one.output


def test_duel_options_reach_the_games(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        main,
        ["duel", "greedy", "random", "--pairs", "2", "--players", "4", "--unit", "match",
         "--target", "3", "--jobs", "1", "--json", "--save-dir", str(tmp_path)],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert (data["players"], data["unit"], data["options"]) == (4, "match", {"target": 3})
    assert data["draws"] == 0  # a match always has a winner
    for path in tmp_path.iterdir():
        rep = replay(GameRecord.load(path))
        assert rep.winner is not None and max(rep.totals) >= 3
    assert data["rounds"] == sum(len(GameRecord.load(p).rounds) for p in tmp_path.iterdir())


def test_an_elo_interval_of_pairs_that_all_scored_alike_is_unknown() -> None:
    """Two pairs of one player against itself score 50% each: a zero standard error,
    whose normal interval would read "+0 to +0"."""
    e = elo_estimate(mean_estimate([0.5, 0.5]))
    assert e.elo == 0.0 and math.isnan(e.low) and math.isnan(e.high)
    assert e.to_json() == {"estimate": 0.0, "ci95": [None, None]}
    result = CliRunner().invoke(main, ["duel", "greedy", "greedy", "--pairs", "2", "--jobs", "1"])
    assert result.exit_code == 0, result.output
    assert "Elo of A over B: +0 (no interval: all 2 pairs scored the same)" in result.output
    assert "+0 to +0" not in result.output


def test_one_pair_is_singular() -> None:
    result = CliRunner().invoke(main, ["duel", "greedy", "random", "--pairs", "1", "--jobs", "1"])
    assert "1 duplicate pair = 2 deals" in result.output
    three = ["duel", "greedy", "random", "--pairs", "1", "--jobs", "1", "--players", "3"]
    assert "1 duplicate set of 3 seatings = 3 deals" in CliRunner().invoke(main, three).output
