"""The strength tools on every game: ``--rules`` presets and ``--game touti`` for
``simulate``, ``duel`` and ``tournament``, the tables the rules allow, the duplicate
seatings, and one-line errors for bad players and tables (issue 18, section 4)."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from click.testing import CliRunner, Result

from chkobba.cli import main
from chkobba.duel import run_duel, run_tournament
from chkobba.duel.games import (
    AgentMoveError,
    choose_table,
    game,
    lineup_period,
    play_out,
    seating_words,
    table_of,
)
from chkobba.duel.play import DuelSpec, record_path, seat_roles
from chkobba.fishing.record import GameRecord, replay
from chkobba.fishing.rules import PRESETS, preset
from chkobba.simulate import run_simulation
from chkobba.touti.agents import TOUTI_AGENTS
from chkobba.touti.duplicate import TOUTI_GAME
from chkobba.touti.moves import ToutiMove
from chkobba.touti.observe import ToutiObservation
from chkobba.touti.record import ToutiRecord
from chkobba.touti.record import replay as replay_touti

ROOT = Path(__file__).resolve().parent.parent


def invoke(*args: str) -> Result:
    """Run the ``chkobba`` command."""
    return CliRunner().invoke(main, list(args))


def invoke_json(*args: str) -> dict[str, Any]:
    """Run the ``chkobba`` command with ``--json`` and parse its output."""
    result = invoke(*args, "--json")
    assert result.exit_code == 0, result.output
    out: dict[str, Any] = json.loads(result.stdout)
    return out


def assert_usage_error(result: Result, *fragments: str) -> None:
    """A usage error: exit code 2, no traceback, and the message on one line."""
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    error = [line for line in result.output.splitlines() if line.startswith("Error:")]
    assert len(error) == 1, result.output
    for fragment in fragments:
        assert fragment in error[0], result.output


# -- the tables ---------------------------------------------------------------------


def test_seating_names_and_words() -> None:
    assert [table_of(s) for s in ("2", "3", "4", "6", "2v2")] == [
        (2, False), (3, False), (4, False), (6, False), (4, True),
    ]  # fmt: skip
    assert seating_words(2, False) == "2 players"
    assert seating_words(6, False) == "6 players each for themselves"
    assert seating_words(4, True) == "4 players, 2 against 2"


def test_the_table_is_chosen_among_the_rules_seatings() -> None:
    both = ("2", "3", "4", "2v2")
    assert choose_table(both, None, None, prefer_teams=True) == (2, False)
    assert choose_table(both, 4, None, prefer_teams=True) == (4, True)
    assert choose_table(both, 4, None, prefer_teams=False) == (4, False)
    assert choose_table(both, 4, False, prefer_teams=True) == (4, False)
    assert choose_table(both, None, True, prefer_teams=False) == (4, True)
    # Scopone and Touti have one table, 2 against 2 (docs/rules.md §3 and §4).
    assert choose_table(("2v2",), None, None, prefer_teams=False) == (4, True)
    assert choose_table(("2v2",), 4, None, prefer_teams=False) == (4, True)
    # Six players each for themselves, where the rules name that table.
    assert choose_table(("2", "6"), 6, None, prefer_teams=True) == (6, False)


@pytest.mark.parametrize(("players", "rotations"), [(2, 2), (3, 3), (4, 2), (6, 2)])
def test_every_player_sits_every_seat_of_a_pair(players: int, rotations: int) -> None:
    """A pair is played once per turn of the alternating lineup, so A and B each sit
    every seat on the same cards (six independent players: scopa-wikipedia-fr.txt line 11)."""
    spec = DuelSpec("a", "b", players, "round", 0, PRESETS["scopa"], teams=False)
    assert spec.rotations == rotations == lineup_period([s % 2 for s in range(players)])
    games = [seat_roles(spec, g) for g in range(spec.rotations)]
    assert games[0] == ["ab"[s % 2] for s in range(players)]
    for role in "ab":
        assert {s for g in games for s, r in enumerate(g) if r == role} == set(range(players))
    assert len({tuple(g) for g in games}) == rotations


# -- duels on the presets ----------------------------------------------------------


def test_duel_on_a_preset_plays_its_rules(tmp_path: Path) -> None:
    data = invoke_json(
        "duel", "greedy", "random", "--rules", "escoba", "--pairs", "2", "--jobs", "1",
        "--save-dir", str(tmp_path),
    )  # fmt: skip
    assert (data["game"], data["rules"], data["players"], data["teams"]) == (
        "chkobba", "escoba", 2, False,
    )  # fmt: skip
    assert data["games"] == 4 and data["margin"]["n"] == 2
    for path in sorted(tmp_path.iterdir()):
        record = GameRecord.load(path)
        assert record.rules == "escoba"
        replay(record)  # every move is legal under Escoba's rules


def test_duel_defaults_to_the_presets_table() -> None:
    """Scopone is played 2 against 2 only (docs/rules.md §3, Scopone)."""
    data = invoke_json("duel", "greedy", "random", "--rules", "scopone", "--pairs", "2",
                       "--jobs", "1")  # fmt: skip
    assert (data["players"], data["teams"], data["rules"]) == (4, True, "scopone")


def test_three_players_play_each_shuffle_three_times(tmp_path: Path) -> None:
    result = run_duel("greedy", "random", 2, seed=4, players=3, jobs=1, save_dir=tmp_path,
                      rules=PRESETS["scopa"])  # fmt: skip
    assert result.games == 6 and result.wins + result.draws + result.losses == 6
    for index in range(2):
        records = [GameRecord.load(record_path(tmp_path, index, g)) for g in range(3)]
        assert [r.names for r in records] == [
            ["greedy", "random", "greedy"],
            ["random", "greedy", "greedy"],
            ["greedy", "greedy", "random"],
        ]
        deals = {(r.rounds[0].dealer, tuple(r.rounds[0].deck)) for r in records}
        assert len(deals) == 1  # the same dealer and shuffle in all three games
        for r in records:
            replay(r)
    # A's points are per seat: A's two seats are averaged, so the margin is fair.
    assert sum(result.pair_margins) / 2 == pytest.approx(result.margin.mean)


def test_four_players_each_for_themselves(tmp_path: Path) -> None:
    data = invoke_json("duel", "greedy", "random", "--players", "4", "--no-teams", "--pairs",
                       "2", "--jobs", "1", "--save-dir", str(tmp_path))  # fmt: skip
    assert (data["players"], data["teams"]) == (4, False)
    for path in tmp_path.iterdir():
        record = GameRecord.load(path)
        assert (record.seats, record.teams) == (4, False)


def test_fewest_points_win_in_scopa_a_perdere() -> None:
    """Scopa a perdere (docs/rules.md §3): the margin is B's points minus A's, so a positive
    margin is still A doing better."""
    r = run_duel("greedy", "random", 6, seed=2, jobs=1, rules=PRESETS["scopa-a-perdere"])
    assert r.to_json()["lowest_wins"] is True
    assert r.margin.mean * r.games == pytest.approx(r.b_points - r.a_points)
    assert "B − A, the fewest points win" in "\n".join(r.summary())
    sim = run_simulation(["greedy", "random"], 6, seed=2, rules=PRESETS["scopa-a-perdere"])
    greedy, rnd = sim.entries
    assert greedy.margin == pytest.approx(greedy.points_per_round * -1 + rnd.points_per_round)


def test_a_match_is_won_as_the_rules_decide(tmp_path: Path) -> None:
    """Scopa a perdere's match is won by strictly the lowest total (docs/rules.md §3): the
    duel's wins follow the match's winner, not the higher total."""
    rules = preset("scopa-a-perdere", {"target": 6})
    r = run_duel("greedy", "random", 3, seed=1, jobs=1, unit="match", rules=rules,
                 save_dir=tmp_path)  # fmt: skip
    wins = 0
    for index in range(3):
        for g in range(2):
            rep = replay(GameRecord.load(record_path(tmp_path, index, g)))
            assert rep.winner is not None
            wins += rep.winner == g  # A sits at seat 0 in game 1, at seat 1 in game 2
    assert (r.wins, r.draws, r.losses) == (wins, 0, 6 - wins)


def test_tournament_on_a_preset() -> None:
    data = invoke_json("tournament", "random", "greedy", "--rules", "scopa", "--pairs", "2",
                       "--jobs", "1")  # fmt: skip
    assert data["players"] == ["random", "greedy"]
    assert [d["rules"] for d in data["duels"]] == ["scopa"]


def test_simulate_on_a_preset() -> None:
    data = invoke_json("simulate", "greedy", "random", "--rules", "scopone", "--rounds", "2")
    assert (data["rules"], data["seats"], data["teams"], data["target"]) == (
        "scopone", 4, True, 11,
    )  # fmt: skip
    assert data["lineup"] == ["greedy", "random", "greedy", "random"]


# -- Touti --------------------------------------------------------------------------


def test_touti_duel_plays_duplicate_deals(tmp_path: Path) -> None:
    """Touti is played by 4, two teams of two, partners opposite (docs/rules.md §4; seeds:
    jeux-de-cartes-au-maroc-touti-extract.txt line 244): each deal twice, A's team in
    seats 0 and 2, then in seats 1 and 3."""
    data = invoke_json("duel", "technique", "random", "--game", "touti", "--pairs", "2",
                       "--jobs", "1", "--save-dir", str(tmp_path))  # fmt: skip
    assert (data["game"], data["rules"], data["players"], data["teams"]) == (
        "touti", "touti", 4, True,
    )  # fmt: skip
    assert data["games"] == 4 and data["margin"]["n"] == 2
    assert set(data["timing_ms"]["a"]) == {"moves", "median_ms", "p95_ms"}
    a_points = 0
    for index in range(2):
        first, second = (ToutiRecord.load(record_path(tmp_path, index, g)) for g in range(2))
        assert first.names == ["technique", "random"] * 2
        assert second.names == ["random", "technique"] * 2
        assert (first.deals[0].dealer, first.deals[0].deck) == (
            second.deals[0].dealer, second.deals[0].deck,
        )  # fmt: skip
        for g, record in enumerate((first, second)):
            a_points += replay_touti(record).totals[g]
        verify = invoke("verify", str(record_path(tmp_path, index, 0)))
        assert verify.exit_code == 0, verify.output
    assert data["points"]["a"] == a_points


def test_a_touti_player_against_itself_cancels_exactly() -> None:
    """The technique is a function of the observation: swapping the teams replays the
    deal with the names exchanged, so every pair's margin is 0."""
    r = run_duel("technique", "technique", 3, seed=5, game_name="touti", jobs=1)
    assert r.pair_margins == (0.0, 0.0, 0.0)


def test_touti_matches_go_to_the_target() -> None:
    r = run_duel("technique", "random", 1, seed=3, game_name="touti", unit="match", jobs=1,
                 target=300)  # fmt: skip
    assert r.rounds >= 2 and r.draws == 0
    assert max(r.a_points, r.b_points) >= 300


def test_touti_tournament_and_simulation() -> None:
    data = invoke_json("tournament", "random", "technique", "--game", "touti", "--pairs", "2",
                       "--jobs", "1")  # fmt: skip
    assert data["anchor"] == "random" and data["duels"][0]["game"] == "touti"
    sim = invoke_json("simulate", "technique", "random", "--game", "touti", "--rounds", "2")
    assert (sim["game"], sim["seats"], sim["teams"], sim["target"]) == ("touti", 4, True, 600)
    technique, rnd = sim["players"]
    assert technique["margin"] == pytest.approx(-rnd["margin"])
    text = invoke("simulate", "technique", "random", "--game", "touti", "--rounds", "2")
    assert text.exit_code == 0 and "2 deals, touti" in text.output


class _ToutiCheat:
    """A Touti player that always bids what no one may bid."""

    def __init__(self, seed: int) -> None:
        self.name = "cheat"

    def choose(self, obs: ToutiObservation) -> ToutiMove:
        from chkobba.touti.moves import Bid

        return Bid(5)


def test_an_illegal_touti_move_is_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(TOUTI_AGENTS, "cheat", _ToutiCheat)
    with pytest.raises(AgentMoveError, match=r"'cheat' at seat \d chose .* not a legal move"):
        run_duel("cheat", "random", 1, game_name="touti", jobs=1)
    table = TOUTI_GAME.start(TOUTI_GAME.rules(), 4, True, seed=1)
    with pytest.raises(AgentMoveError, match="in deal 1"):
        play_out(table, [_ToutiCheat(0)] * 4, [[] for _ in range(4)], "round", "deal")


# -- errors ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "fragments"),
    [
        (["duel", "technique", "random"], ["unknown player 'technique'", "greedy"]),
        (["duel", "expert", "random", "--game", "touti"],
         ["unknown Touti player 'expert'", "random, search, technique"]),
        (["tournament", "random", "technique"], ["unknown player 'technique'"]),
        (["tournament", "random", "expert", "--game", "touti"], ["unknown Touti player"]),
        (["simulate", "technique", "random"], ["unknown player 'technique'"]),
        (["simulate", "expert", "random", "--game", "touti"], ["unknown Touti player"]),
        (["duel", "greedy", "random", "--rules", "scopone", "--players", "2"],
         ["scopone is played by 4 players in two teams, not 2 players"]),
        (["duel", "greedy", "random", "--rules", "scopone", "--players", "4", "--no-teams"],
         ["scopone is played by"]),
        (["duel", "greedy", "random", "--players", "5"], ["'5' is not one of"]),
        (["duel", "greedy", "random", "--players", "3", "--teams"], ["teams need 4"]),
        (["duel", "technique", "random", "--game", "touti", "--players", "2"],
         ["Touti is played by 4 players, 2 against 2, not 2 players"]),
        (["duel", "technique", "random", "--game", "touti", "--no-teams"],
         ["Touti is played by 4 players, 2 against 2"]),
        (["duel", "technique", "random", "--game", "touti", "--rules", "scopa"],
         ["Touti has no rule presets"]),
        (["duel", "technique", "random", "--game", "touti", "--target", "15"],
         ["multiple of 10"]),
        (["duel", "greedy", "random", "--rules", "belote"], ["'belote' is not one of"]),
        (["duel", "greedy", "random", "--game", "chess"], ["'chess' is not one of"]),
        (["tournament", "greedy", "random", "--rules", "scopone", "--players", "3"],
         ["scopone is played by"]),
        (["simulate", "greedy", "random", "--rules", "scopone", "--seats", "2"],
         ["scopone is played by"]),
        (["simulate", "technique", "random", "--game", "touti", "--seats", "3"],
         ["Touti is played by 4 players"]),
        (["simulate", "greedy", "random", "--teams", "--seats", "3"], ["teams need 4 seats"]),
    ],
)  # fmt: skip
def test_bad_players_and_tables_are_one_line_errors(args: list[str], fragments: list[str]) -> None:
    assert_usage_error(invoke(*args, "--pairs" if args[0] != "simulate" else "--rounds", "1"),
                       *fragments)  # fmt: skip


def test_unknown_game() -> None:
    assert game("touti").players() == ["random", "search", "technique"]
    assert {"random", "greedy", "heuristic", "expert", "cheater"} <= set(game("chkobba").players())
    with pytest.raises(ValueError, match="unknown game 'chess'"):
        game("chess")
    with pytest.raises(ValueError, match="unknown Touti player 'expert'"):
        run_duel("expert", "random", 1, game_name="touti")
    with pytest.raises(ValueError, match="scopone is played by"):
        run_tournament(["greedy", "random"], 1, rules=PRESETS["scopone"], players=2)


# -- bench/strength.py ----------------------------------------------------------------


def _bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("strength_bench", ROOT / "bench" / "strength.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["strength_bench"] = module
    spec.loader.exec_module(module)
    return module


def test_the_bench_ladder_uses_the_registered_players() -> None:
    """The expert of the presets' ladder is the registered player, so it plays with the
    budget `chkobba duel` and `chkobba play` give it (its pure-Python search's)."""
    bench = _bench()
    chkobba = game("chkobba")
    for a, b in bench.PRESET_LADDER:
        chkobba.check_player(a)
        chkobba.check_player(b)
    assert ("expert", "heuristic") in bench.PRESET_LADDER


def test_the_bench_writes_a_markdown_table_to_a_new_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    bench = _bench()
    monkeypatch.chdir(tmp_path)
    bench.main(["--presets", "scopa,scopone", "--duels", "greedy:random", "--pairs", "2",
                "--jobs", "1", "--markdown"])  # fmt: skip
    out = capsys.readouterr().out
    assert "scopa, 2 players:" in out and "scopone, 4 players, 2 against 2:" in out
    assert "scopone, 2 players" not in out
    (written,) = tmp_path.glob("strength-*.md")
    rows = [r for r in written.read_text().splitlines() if r.startswith("| scop")]
    assert [r.split(" | ")[:3] for r in rows] == [
        ["| scopa", "2 players", "greedy vs random"],
        ["| scopa", "2 against 2", "greedy vs random"],
        ["| scopone", "2 against 2", "greedy vs random"],
    ]
    # Never over an existing file.
    with pytest.raises(SystemExit):
        bench.main(["--presets", "scopa", "--duels", "greedy:random", "--pairs", "1",
                    "--markdown", str(written)])  # fmt: skip
    assert "exists" in capsys.readouterr().err
    assert written.read_text().count("| scop") == 3


def test_the_bench_plays_the_tables_asked_and_each_row_says_its_command(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--tables`` plays each table a preset allows (6 only in the Scopa family, Scopone
    only 2 against 2), and each Markdown row's command gives the row's margin again."""
    bench = _bench()
    path = tmp_path / "ladder.md"
    bench.main(["--presets", "chkobba,scopa,scopone", "--tables", "3,4,6", "--duels",
                "greedy:random", "--pairs", "2", "--seed", "5", "--jobs", "1",
                "--markdown", str(path)])  # fmt: skip
    out = capsys.readouterr().out
    assert "chkobba: not played at 6 players each for themselves" in out
    assert "scopa, 6 players each for themselves:" in out
    assert "scopone: not played at 3 players each for themselves" in out
    rows = [r.split(" | ") for r in path.read_text().splitlines() if r.startswith("| ")][1:]
    assert [r[:3] for r in rows] == [
        ["| chkobba", "3 players", "greedy vs random"],
        ["| chkobba", "4 players each for themselves", "greedy vs random"],
        ["| scopa", "3 players", "greedy vs random"],
        ["| scopa", "4 players each for themselves", "greedy vs random"],
        ["| scopa", "6 players", "greedy vs random"],
    ]
    commands = [r[-1].strip(" |`") for r in rows]
    assert commands[1] == ("chkobba duel greedy random --rules chkobba --players 4 --no-teams "
                           "--pairs 2 --seed 5 --jobs 1")  # fmt: skip
    assert all(r[5] in ("yes", "no", "not shown") for r in rows)
    assert all(" → " in r[8] for r in rows)
    for row, command in zip(rows, commands, strict=True):
        words = command.split()
        assert words[:2] == ["chkobba", "duel"]
        result = CliRunner().invoke(main, [*words[1:], "--json"])
        assert result.exit_code == 0, result.output
        margin = json.loads(result.output)["margin"]["mean"]
        assert f"{margin:+.2f}" == row[3]


@pytest.mark.parametrize("text", ["5", "2,2v3", ","])
def test_the_bench_refuses_a_table_the_rules_do_not_name(
    text: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit):
        _bench().main(["--presets", "scopa", "--tables", text, "--pairs", "1"])
    err = capsys.readouterr().err
    assert "--tables" in err and ("a table is one of 2, 3, 4, 2v2, 6" in err
                                  or "at least one table" in err)  # fmt: skip


# -- the expert on every preset -------------------------------------------------------


@pytest.mark.parametrize("name", ["scopone", "scopone-scientifico"])
def test_the_experts_inference_reads_hands_of_any_size(name: str) -> None:
    """Scopone deals 9 cards each, scientifico 10 (docs/rules.md §3): the expert weighs its
    samples by the other seats' plays of the deal, which it counts from the rules' hand
    size (the presets' ladder plays the expert there)."""
    from chkobba.agents import make_agent
    from chkobba.agents.expert import EXPERT_TEMPERATURE, ExpertAgent
    from chkobba.fishing.match import Match
    from chkobba.fishing.observe import observe
    from chkobba.search.inference import decisions

    m = Match(PRESETS[name], 4, True, seed=3)
    greedy = make_agent("greedy", 0)
    for _ in range(5):
        m.apply(greedy.choose(observe(m, m.turn)))
    obs = observe(m, m.turn)
    assert len(decisions(obs)) == 5 - sum(t.seat == obs.seat for t in obs.history)
    # The registered expert's inference, on a small budget.
    expert = ExpertAgent(1, samples=16, temperature=EXPERT_TEMPERATURE)
    assert expert.choose(obs) in obs.legal_moves
