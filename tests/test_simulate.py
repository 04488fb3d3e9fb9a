"""``chkobba simulate``: the results table, the JSON results, the lineup, bad input."""

from __future__ import annotations

import json
from typing import Any, ClassVar

import pytest
from click.testing import CliRunner, Result

from chkobba.agents.base import AGENTS
from chkobba.cli import main
from chkobba.fishing.moves import Move, Play
from chkobba.fishing.observe import Observation
from chkobba.simulate import lineup_for, lineup_period, run_simulation


def run(*args: str) -> Result:
    """Invoke ``chkobba simulate`` with the arguments."""
    return CliRunner().invoke(main, ["simulate", *args])


def run_json(*args: str) -> dict[str, Any]:
    """Invoke ``chkobba simulate --json`` and parse its output."""
    result = run(*args, "--json")
    assert result.exit_code == 0, result.output
    out: dict[str, Any] = json.loads(result.stdout)
    return out


def test_table_output() -> None:
    """The default output is a table with a row per player and its columns."""
    result = run("greedy", "random", "--rounds", "20", "--seed", "3")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "greedy vs random: 20 rounds, 2 seats, seed 3" in out
    for column in ("won", "drawn", "lost", "margin", "ms/move"):
        assert column in out
    assert out.count("greedy") >= 2 and out.count("random") >= 2


def test_json_output_is_consistent() -> None:
    """One entry's wins are the other's losses; the margins are opposite; points add up."""
    d = run_json("heuristic", "greedy", "--rounds", "30", "--seed", "5")
    assert d["mode"] == "rounds" and d["games"] == 30 and d["seats"] == 2
    a, b = d["players"]
    assert (a["name"], b["name"]) == ("heuristic", "greedy")
    for p in (a, b):
        assert p["games"] == p["wins"] + p["draws"] + p["losses"] == 30
        assert p["moves"] > 30 * 17  # 18 plays each a round, less or more one cut
        assert p["margin_se"] is not None and p["margin_se"] > 0
    assert a["wins"] == b["losses"] and a["draws"] == b["draws"]
    assert a["margin"] == pytest.approx(-b["margin"])
    # A round scores at least the four points minus ties; the margin is the points' gap.
    assert a["points_per_round"] - b["points_per_round"] == pytest.approx(a["margin"])


def test_results_are_reproducible() -> None:
    """The same seed gives the same results (timings aside); another seed other ones."""

    def strip(d: dict[str, Any]) -> dict[str, Any]:
        for p in d["players"]:
            del p["ms_per_move"]
        return d

    first = strip(run_json("greedy", "random", "--rounds", "12", "--seed", "7"))
    again = strip(run_json("greedy", "random", "--rounds", "12", "--seed", "7"))
    other = strip(run_json("greedy", "random", "--rounds", "12", "--seed", "8"))
    assert first == again
    assert first != other


def test_any_target_and_any_preset() -> None:
    """scopa-wikipedia-fr.txt:49: Scopa is played to 11, 16 or 21; --target takes any
    positive number of points, and --rules the game (its own target by default)."""
    d = run_json("greedy", "random", "--rules", "scopa", "--matches", "2", "--target", "16")
    assert (d["rules"], d["mode"], d["target"]) == ("scopa", "matches", 16)
    assert all(p["wins"] + p["losses"] == 2 for p in d["players"])
    d = run_json("greedy", "random", "--rules", "scopa", "--matches", "1")
    assert d["target"] == 11
    assert run_json("greedy", "random", "--rounds", "2")["rules"] == "chkobba"


def test_matches_mode() -> None:
    """Whole matches to the target: every match has a winner, no draws."""
    d = run_json("greedy", "random", "--matches", "4", "--target", "11", "--seed", "1")
    assert d["mode"] == "matches" and d["target"] == 11
    a, b = d["players"]
    assert a["wins"] + b["wins"] == 4 and a["draws"] == b["draws"] == 0
    assert a["points_per_round"] > 0
    table = run("greedy", "random", "--matches", "2", "--target", "11").stdout
    assert "2 matches" in table and "target 11" in table


def test_teams_alternate_two_names() -> None:
    """2 against 2 with two names: partners sit opposite, one name per side."""
    d = run_json("heuristic", "random", "--teams", "--rounds", "6")
    assert d["seats"] == 4 and d["teams"]
    assert d["lineup"] == ["heuristic", "random", "heuristic", "random"]
    a, b = d["players"]
    assert a["wins"] == b["losses"]


def test_one_name_per_seat() -> None:
    """Three names seat three players."""
    d = run_json("heuristic", "greedy", "random", "--rounds", "6")
    assert d["seats"] == 3 and [p["name"] for p in d["players"]] == [
        "heuristic",
        "greedy",
        "random",
    ]
    assert sum(p["margin"] for p in d["players"]) == pytest.approx(0)


def test_lineups() -> None:
    """Two names alternate; one name per seat; anything else is an error."""
    assert lineup_for(["a", "b"], 2) == [0, 1]
    assert lineup_for(["a", "b"], 4) == [0, 1, 0, 1]
    assert lineup_for(["a", "b"], 3) == [0, 1, 0]
    assert lineup_for(["a", "b", "c"], 3) == [0, 1, 2]
    with pytest.raises(ValueError, match="3 players named for 4 seats"):
        lineup_for(["a", "b", "c"], 4)
    assert lineup_period([0, 1]) == 2
    assert lineup_period([0, 1, 0, 1]) == 2
    assert lineup_period([0, 1, 0]) == 3
    assert lineup_period([0, 1, 2, 3]) == 4


class _SeatRecorder:
    """A player that notes the seat it plays from and makes the first legal move."""

    seats: ClassVar[list[int]] = []

    def __init__(self, seed: int) -> None:
        self.name = "recorder"
        self.noted = False

    def choose(self, obs: Observation) -> Move:
        if not self.noted:
            _SeatRecorder.seats.append(obs.seat)
            self.noted = True
        return obs.legal_moves[0]


def test_seats_alternate_between_games(monkeypatch: pytest.MonkeyPatch) -> None:
    """In 2-player games the entries swap seats every game, so neither seat is favoured."""
    monkeypatch.setitem(AGENTS, "recorder", _SeatRecorder)
    _SeatRecorder.seats = []
    run_simulation(["recorder", "random"], 6, seed=2)
    assert _SeatRecorder.seats == [0, 1, 0, 1, 0, 1]
    _SeatRecorder.seats = []
    run_simulation(["random", "recorder", "random"], 6, seats=3, seed=2)
    assert _SeatRecorder.seats == [1, 0, 2, 1, 0, 2]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["greedy", "nobody"], "unknown player 'nobody'"),
        (["greedy"], "at least two players"),
        (["greedy", "random", "--seats", "5"], "'5' is not one of"),
        (["greedy", "random", "--teams", "--seats", "3"], "teams need 4 seats"),
        (["greedy", "random", "heuristic", "--seats", "2"], "3 players named for 2 seats"),
        (["greedy", "random", "--rounds", "2", "--matches", "2"], "not both"),
        (["greedy", "random", "--rounds", "0"], "0 is not in the range"),
        (["greedy", "random", "--target", "0"], "0 is not in the range"),
        (["greedy", "random", "--seats", "6"], "chkobba is played by 2 players"),
    ],
)
def test_bad_input_is_a_usage_error(args: list[str], message: str) -> None:
    """Bad players, seats or counts: a clear message and exit code 2, no traceback."""
    result = run(*args)
    assert result.exit_code == 2, result.output
    assert message in result.output
    assert "Traceback" not in result.output
    assert isinstance(result.exception, SystemExit)


class _Cheat:
    """A player that lays a card it does not hold."""

    def __init__(self, seed: int) -> None:
        self.name = "cheat"

    def choose(self, obs: Observation) -> Move:
        if obs.legal_moves and not isinstance(obs.legal_moves[0], Play):
            return obs.legal_moves[0]
        return Play(next(c for c in range(40) if not obs.hand >> c & 1), 0)


def test_an_illegal_choice_is_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    """A player returning an illegal move stops the run with a message (exit 1), no traceback."""
    monkeypatch.setitem(AGENTS, "cheat", _Cheat)
    result = run("cheat", "random", "--rounds", "3")
    assert result.exit_code == 1
    assert "player 'cheat' at seat" in result.output and "chose an illegal move" in result.output
    assert isinstance(result.exception, SystemExit)
