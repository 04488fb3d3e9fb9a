"""Outside engines as players (``engine:COMMAND``, docs/engine-protocol.md): the protocol
with the reference engines in every command, and engines that crash, hang, answer
garbage or illegal moves, which never cost the match."""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from chkobba.agents import AgentError, make_agent
from chkobba.agents.engine import FAULTS, LOG_ENV, MAX_FAILED_GAMES, MAX_TIMEOUTS, EngineSpec
from chkobba.agents.engine import observation_json as message_of
from chkobba.cli import main
from chkobba.duel import run_duel, run_tournament
from chkobba.fishing.cards import CARDS, cards_of
from chkobba.fishing.match import Match
from chkobba.fishing.observe import observe
from chkobba.fishing.record import GameRecord, replay
from chkobba.fishing.rules import preset
from chkobba.simulate import run_simulation
from chkobba.touti.agents import ToutiAgentError, make_touti_agent
from chkobba.touti.match import ToutiMatch
from chkobba.touti.observe import observe as observe_touti
from chkobba.touti.record import ToutiRecord

ROOT = Path(__file__).parent.parent
GREEDY = ROOT / "examples" / "engines" / "greedy_engine.py"
RANDOM_C = ROOT / "examples" / "engines" / "random_engine.c"
FAULTY = Path(__file__).parent / "data" / "engines" / "faulty_engine.py"


def python_engine(script: Path, *args: str, limit: str = "") -> str:
    """The player name of a Python engine run by this interpreter."""
    return "engine:" + shlex.join([sys.executable, str(script), *args]) + limit


@pytest.fixture(scope="module")
def c_engine(tmp_path_factory: pytest.TempPathFactory) -> str:
    """The C reference engine, built with the system's compiler."""
    cc = shutil.which(os.environ.get("CC", "cc")) or shutil.which("gcc") or shutil.which("clang")
    if cc is None:
        pytest.skip("no C compiler (cc, gcc or clang) to build examples/engines/random_engine.c")
    out = tmp_path_factory.mktemp("engine") / "random_engine"
    subprocess.run(
        [cc, "-std=c99", "-Wall", "-Wextra", "-pedantic", "-Werror", "-O2", "-o", str(out),
         str(RANDOM_C)],
        check=True,
    )  # fmt: skip
    return "engine:" + shlex.quote(str(out))


@pytest.fixture
def pids(tmp_path: Path) -> Iterator[Path]:
    """A folder where the faulty engines write their process ids; afterwards every one of
    them must be gone, reaped (a zombie would still be found)."""
    folder = tmp_path / "pids"
    folder.mkdir()
    yield folder
    for f in folder.glob("*.pid"):
        pid = int(f.read_text())
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)


def verify(path: Path) -> dict[str, object]:
    """``chkobba verify --json`` on a record; it must pass."""
    res = CliRunner().invoke(main, ["verify", "--json", str(path)])
    assert res.exit_code == 0, res.output
    out: dict[str, object] = json.loads(res.output)
    return out


# -- names -------------------------------------------------------------------------


def test_the_time_per_move_is_a_suffix_of_the_name() -> None:
    spec = EngineSpec.parse(python_engine(GREEDY, limit="@250ms"))
    assert spec.seconds == 0.25 and spec.command == (sys.executable, str(GREEDY))
    assert EngineSpec.parse(python_engine(GREEDY, limit="@2s")).seconds == 2
    assert EngineSpec.parse(python_engine(GREEDY)).seconds == 10
    assert EngineSpec.parse(python_engine(GREEDY)).stem == "greedy_engine"


@pytest.mark.parametrize(
    ("name", "says"),
    [
        ("engine:", "needs a command"),
        ("engine:/no/such/engine", "no program /no/such/engine"),
        ("engine:no-such-engine-here", "no program 'no-such-engine-here' on the PATH"),
        (f"engine:{RANDOM_C}", "is not executable"),
        ("engine:'unclosed", "cannot read the command"),
        (f"engine:{GREEDY}@0s", "above 0"),
    ],
)
def test_a_bad_engine_name_is_one_clear_line(name: str, says: str) -> None:
    for make, error in ((make_agent, AgentError), (make_touti_agent, ToutiAgentError)):
        with pytest.raises(error) as e:
            make(name, 0)
        assert says in str(e.value) and "\n" not in str(e.value)
    res = CliRunner().invoke(main, ["duel", name, "random", "--pairs", "1"])
    assert res.exit_code == 2 and says in res.output


# -- what an engine is told --------------------------------------------------------

CARD = re.compile(r"\b(?:[A2-7QJK])[shdc]\b")


def hidden_cards_named(message: dict[str, object]) -> set[str]:
    """The cards the message names outside its ``unseen`` list (where every hidden card
    is, unattributed) and Touti's ``excluded`` (cards a seat is known *not* to hold)."""
    rest = {k: v for k, v in message.items() if k not in ("unseen", "excluded")}
    return set(CARD.findall(json.dumps(rest)))


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32), plies=st.integers(0, 40), seats=st.sampled_from([2, 4]))
def test_a_chkobba_message_names_no_hidden_card(seed: int, plies: int, seats: int) -> None:
    """docs/rules.md §2.7: the other hands and the stock are hidden; the message is built
    from the seat's observation alone, so it names none of their cards."""
    match = Match(preset("chkobba"), seats, seats == 4, seed=seed)
    for _ in range(plies):
        if match.is_over:
            break
        match.apply(observe(match, match.turn).legal_moves[0], match.turn)
    r = match.round
    for seat in range(seats):
        msg = message_of(observe(match, seat))
        hidden = 0
        for s in range(seats):
            if s != seat:
                hidden |= r.hands[s]
        named = hidden_cards_named(msg)
        assert not named & {str(CARDS[c]) for c in cards_of(hidden)}
        assert msg["hand"] == [str(CARDS[c]) for c in cards_of(r.hands[seat])]
        assert set(msg["unseen"]) >= {str(CARDS[c]) for c in cards_of(hidden)}  # type: ignore[arg-type]


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32), plies=st.integers(0, 30))
def test_a_touti_message_names_no_hidden_card(seed: int, plies: int) -> None:
    """docs/rules.md §4: the other three hands are hidden, but for announced pairs."""
    match = ToutiMatch(seed=seed)
    for _ in range(plies):
        if match.is_over:
            break
        match.apply(observe_touti(match, match.turn).legal_moves[0])
    deal = match.deal
    for seat in range(4):
        obs = observe_touti(match, seat)
        msg = message_of(obs)
        hidden = 0
        for s in range(4):
            if s != seat:
                hidden |= deal.hands[s] & ~obs.known[s]
        assert not hidden_cards_named(msg) & {str(CARDS[c]) for c in cards_of(hidden)}
        assert msg["hand"] == [str(CARDS[c]) for c in cards_of(deal.hands[seat])]


# -- the reference engines ---------------------------------------------------------


@pytest.mark.parametrize("rules", ["chkobba", "scopa"])
def test_the_python_engine_plays_duels(rules: str, tmp_path: Path) -> None:
    name = python_engine(GREEDY)
    result = run_duel(name, "greedy", pairs=3, seed=2, jobs=1, rules=preset(rules),
                      save_dir=tmp_path)  # fmt: skip
    assert result.games == 6 and result.a_faults == (0, 0, 0, 0)
    assert result.a_timing.moves > 0
    assert result.to_json()["faults"] == {"a": dict.fromkeys(FAULTS, 0),
                                          "b": dict.fromkeys(FAULTS, 0)}  # fmt: skip
    for path in sorted(tmp_path.glob("*.json")):
        record = GameRecord.load(path)
        assert record.rules == rules and "engine_fallbacks" not in record.meta
        verify(path)


def test_the_python_engine_plays_touti(tmp_path: Path) -> None:
    result = run_duel(python_engine(GREEDY), "technique", pairs=1, seed=3, jobs=1,
                      game_name="touti", save_dir=tmp_path)  # fmt: skip
    assert result.games == 2 and result.a_faults == (0, 0, 0, 0)
    for path in tmp_path.glob("*.json"):
        assert "engine_fallbacks" not in ToutiRecord.load(path).meta
        verify(path)


@pytest.mark.parametrize(("game_name", "rules"), [("chkobba", None), ("chkobba", "escoba"),
                                                  ("touti", None)])  # fmt: skip
def test_the_c_engine_plays_every_game(
    c_engine: str, game_name: str, rules: str | None, tmp_path: Path
) -> None:
    chosen = None if rules is None else preset(rules)
    result = run_duel(c_engine, "random", pairs=2, seed=5, jobs=1, game_name=game_name,
                      rules=chosen, save_dir=tmp_path)  # fmt: skip
    assert result.a_faults == (0, 0, 0, 0) and result.games == 4
    for path in tmp_path.glob("*.json"):
        verify(path)


def test_engines_started_one_after_another_keep_their_first_line(c_engine: str) -> None:
    """Two hundred engines in a row (one per game): none loses the start of its output to
    the one before it, whose output is closed only by its own reading thread."""
    result = run_duel(c_engine, "random", pairs=100, seed=11, jobs=1)
    assert result.games == 200 and result.a_faults == (0, 0, 0, 0)


def test_the_engines_play_the_same_on_the_same_seeds(c_engine: str) -> None:
    """The engine is told its seed: a duel against the C engine can be replayed."""
    first = run_duel(c_engine, "random", pairs=2, seed=9, jobs=1)
    again = run_duel(c_engine, "random", pairs=2, seed=9, jobs=1)
    assert first.pair_margins == again.pair_margins


def test_the_command_line_duel_reports_the_engine(c_engine: str) -> None:
    res = CliRunner().invoke(main, ["duel", c_engine, python_engine(GREEDY), "--pairs", "2",
                                    "--jobs", "1"])  # fmt: skip
    assert res.exit_code == 0, res.output
    assert "engine faults (each move made by the fallback, random): A none; B none" in res.output


def test_a_tournament_with_engines(c_engine: str) -> None:
    t = run_tournament([c_engine, "random", python_engine(GREEDY)], pairs=1, seed=1, jobs=1)
    lines = t.table()
    assert f"engine faults of {c_engine}: none" in lines
    assert t.faults(1) == (0, 0, 0, 0)


def test_simulate_with_an_engine(c_engine: str) -> None:
    sim = run_simulation([python_engine(GREEDY), c_engine], 4, seed=1)
    assert sim.games == 4 and sum(e.wins + e.draws + e.losses for e in sim.entries) == 8
    res = CliRunner().invoke(main, ["simulate", python_engine(GREEDY), "random", "--rounds", "2",
                                    "--game", "touti", "--json"])  # fmt: skip
    assert res.exit_code == 0, res.output
    entry = json.loads(res.output)["players"][0]
    assert entry["name"] == python_engine(GREEDY) and entry["moves"] > 0
    assert entry["faults"] == dict.fromkeys(FAULTS, 0)
    res = CliRunner().invoke(main, ["simulate", c_engine, "greedy", "--rounds", "2"])
    assert res.exit_code == 0, res.output
    assert f"engine faults of {c_engine} (moves made by random): none" in res.output


# -- engines that fail -------------------------------------------------------------


def faulty_duel(mode: str, pids: Path, save: Path, limit: str = "", pairs: int = 1,
                game_name: str = "chkobba") -> tuple[object, list[dict[str, object]]]:  # fmt: skip
    """A duel of the faulty engine against random, and the fallback moves its records list."""
    name = python_engine(FAULTY, mode, str(pids), limit=limit)
    result = run_duel(name, "random", pairs=pairs, seed=4, jobs=1, save_dir=save,
                      game_name=game_name)  # fmt: skip
    fallbacks: list[dict[str, object]] = []
    for path in sorted(save.glob("*.json")):
        verify(path)
        meta = json.loads(path.read_text(encoding="utf-8"))["meta"]
        fallbacks += meta.get("engine_fallbacks", [])
    return result, fallbacks


def test_an_engine_that_crashes(pids: Path, tmp_path: Path) -> None:
    """It answers twice, then dies: the fallback plays its seat to the end of each game;
    each game starts it afresh, until it has failed in MAX_FAILED_GAMES games."""
    result, fallbacks = faulty_duel("crash", pids, tmp_path, pairs=2)
    assert result.games == 4  # type: ignore[attr-defined]
    crashes = [f for f in fallbacks if f["why"] == "crash"]
    assert len(crashes) == MAX_FAILED_GAMES
    assert "exited with status 3" in str(crashes[0]["detail"])
    assert result.a_faults == (0, 0, 0, MAX_FAILED_GAMES)  # type: ignore[attr-defined]
    # Every move of the engine's seat from its third decision on is the fallback's.
    assert len(fallbacks) == result.a_timing.moves - 2 * MAX_FAILED_GAMES  # type: ignore[attr-defined]
    assert len(list(pids.glob("*.pid"))) == MAX_FAILED_GAMES


def test_an_engine_that_hangs(pids: Path, tmp_path: Path) -> None:
    """Each decision times out; after MAX_TIMEOUTS in a row it is stopped (and reaped)."""
    result, fallbacks = faulty_duel("hang", pids, tmp_path, limit="@200ms")
    timeouts = [f for f in fallbacks if f["why"] == "timeout"]
    assert len(timeouts) == 2 * MAX_TIMEOUTS  # two games
    assert "no move within 0.2 s" in str(timeouts[0]["detail"])
    assert {f["why"] for f in fallbacks} == {"timeout", "gone"}
    assert result.a_faults == (2 * MAX_TIMEOUTS, 0, 0, 0)  # type: ignore[attr-defined]
    assert result.a_timing.p95_ms < 1000  # type: ignore[attr-defined]


def test_an_engine_that_answers_garbage(pids: Path, tmp_path: Path) -> None:
    result, fallbacks = faulty_duel("garbage", pids, tmp_path)
    moves = result.a_timing.moves  # type: ignore[attr-defined]
    assert len(fallbacks) == moves and {f["why"] for f in fallbacks} == {"garbage"}
    assert result.a_faults == (0, moves, 0, 0)  # type: ignore[attr-defined]
    details = {str(f["detail"]).split(":")[0] for f in fallbacks}
    assert details == {"unreadable answer '{\"type\"", "unreadable answer 'not JSON{'",
                       "malformed move"}  # fmt: skip


def test_an_engine_that_plays_illegal_moves(pids: Path, tmp_path: Path) -> None:
    result, fallbacks = faulty_duel("illegal", pids, tmp_path, game_name="touti")
    moves = result.a_timing.moves  # type: ignore[attr-defined]
    assert result.a_faults == (0, 0, moves, 0)  # type: ignore[attr-defined]
    assert all("is not a legal move" in str(f["detail"]) for f in fallbacks)
    for f in fallbacks:
        assert f["seat"] in (0, 2) or f["seat"] in (1, 3)


def test_late_answers_are_not_faults(pids: Path, tmp_path: Path) -> None:
    result, fallbacks = faulty_duel("late", pids, tmp_path)
    assert fallbacks == [] and result.a_faults == (0, 0, 0, 0)  # type: ignore[attr-defined]


def test_an_engine_that_never_shakes_hands(pids: Path, tmp_path: Path) -> None:
    result, fallbacks = faulty_duel("silent", pids, tmp_path)
    assert result.a_faults[3] == 2  # type: ignore[attr-defined]
    assert "crashed at the start" in str(fallbacks[0]["detail"])


def test_faults_are_counted_in_the_command_line_summary(pids: Path) -> None:
    name = python_engine(FAULTY, "garbage", str(pids))
    res = CliRunner().invoke(main, ["duel", "random", name, "--pairs", "1", "--jobs", "1"])
    assert res.exit_code == 0, res.output
    assert re.search(r"B \d+ garbled answers\n", res.output)
    res = CliRunner().invoke(main, ["duel", "random", name, "--pairs", "1", "--jobs", "1",
                                    "--json"])  # fmt: skip
    faults = json.loads(res.output)["faults"]
    assert faults["b"]["garbage"] > 0 and "a" in faults


# -- chkobba play ------------------------------------------------------------------


def test_play_against_an_engine(tmp_path: Path, c_engine: str) -> None:
    """``chkobba play --opponent engine:…`` (a scripted person): the match is played out,
    the record names the engine and verifies."""
    path = tmp_path / "g.json"
    args = ["play", "--seed", "5", "--opponent", python_engine(GREEDY), "--target", "11",
            "--name", "Bob", "--save", str(path)]  # fmt: skip
    res = CliRunner().invoke(main, args, input="1\n" * 2000)
    assert res.exit_code == 0, res.output
    record = GameRecord.load(path)
    assert replay(record).winner is not None
    assert record.names == ["Bob", python_engine(GREEDY)]
    assert record.meta is not None and record.meta["engine_fallbacks"] == []
    verify(path)


def test_play_with_a_broken_partner(tmp_path: Path, c_engine: str, pids: Path) -> None:
    """A partner that answers garbage: each of its moves is the fallback's, listed in the
    record, and the match still ends."""
    path = tmp_path / "g.json"
    broken = python_engine(FAULTY, "garbage", str(pids))
    args = ["play", "--players", "4", "--seed", "2", "--opponent", c_engine, "--partner",
            broken, "--target", "11", "--name", "Ann", "--save", str(path)]  # fmt: skip
    res = CliRunner().invoke(main, args, input="1\n" * 3000)
    assert res.exit_code == 0, res.output
    record = GameRecord.load(path)
    assert record.meta is not None
    fallbacks = record.meta["engine_fallbacks"]
    assert fallbacks and {f["seat"] for f in fallbacks} == {2}
    assert {f["why"] for f in fallbacks} == {"garbage"}
    assert replay(record).winner is not None
    verify(path)


def test_play_touti_against_engines(tmp_path: Path) -> None:
    path = tmp_path / "t.json"
    args = ["play", "--game", "touti", "--seed", "4", "--opponent", python_engine(GREEDY),
            "--partner", "technique", "--save", str(path)]  # fmt: skip
    res = CliRunner().invoke(main, args, input="pass\n")
    assert res.exit_code == 0, res.output
    record = ToutiRecord.load(path)
    assert record.meta["engine_fallbacks"] == []  # type: ignore[index]
    verify(path)
    res = CliRunner().invoke(main, ["play", "--game", "touti", "--opponent", "engine:/nope"])
    assert res.exit_code == 2 and "no program /nope" in res.output


# -- seeing what an engine does ----------------------------------------------------


def test_engine_seeds_fit_in_53_bits() -> None:
    """JavaScript's JSON.parse rounds integers above 2**53: an engine is told its seed
    reduced below it, the same seed always the same."""
    from chkobba.agents.engine import engine_seed, newgame_message

    obs = observe(Match(preset("chkobba"), 2, False, seed=1), 0)
    for seed in (0, 42, 2**53 - 1, 2**53, 2**64 - 1, -1):
        told = newgame_message(obs, seed, 1.0)["seed"]
        assert 0 <= told < 2**53 and told == engine_seed(seed)
        assert float(told) == told  # exactly a double
    assert newgame_message(obs, 42, 1.0)["seed"] == 42
    assert engine_seed(2**64 - 1) != engine_seed(2**64 - 2)


def test_the_engine_log_has_every_line_and_the_info_lines(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The option names the log in the environment: undone after the test.
    monkeypatch.setenv(LOG_ENV, "")
    log = tmp_path / "engine.log"
    log.write_text("from before\n")
    name = python_engine(FAULTY, "first")
    res = CliRunner().invoke(main, ["duel", name, "random", "--pairs", "1", "--jobs", "1",
                                    "--engine-log", str(log)])  # fmt: skip
    assert res.exit_code == 0, res.output
    lines = log.read_text().splitlines()
    assert "from before" not in lines  # the file is started afresh
    sent = [json.loads(x.split(" > ", 1)[1]) for x in lines if " > " in x]
    read = [json.loads(x.split(" < ", 1)[1]) for x in lines if " < " in x]
    assert [m["type"] for m in sent][:2] == ["hello", "newgame"]
    assert {"go", "quit"} <= {m["type"] for m in sent}
    seeds = [m["seed"] for m in sent if m["type"] == "newgame"]
    assert len(seeds) == 2 and all(0 <= s < 2**53 for s in seeds)  # one per game
    assert {"type": "info", "text": "about to be ready"} in read
    assert any(m["type"] == "info" and m["text"].endswith("legal moves") for m in read)
    assert sum(m["type"] == "move" for m in read) == sum(m["type"] == "go" for m in sent)
    head = re.compile(r"\d\d:\d\d:\d\d\.\d{3} pid \d+ engine (\d+) seat [0-3] engine:")
    assert all(head.match(x) for x in lines)
    assert len({head.match(x).group(1) for x in lines}) == 2  # type: ignore[union-attr]  # a process a game


def test_the_engine_log_must_be_writable(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(LOG_ENV, "")
    where = str(tmp_path / "no" / "such" / "f")
    res = CliRunner().invoke(main, ["duel", "random", "greedy", "--engine-log", where])
    assert res.exit_code == 2 and "cannot write" in res.output


@pytest.mark.parametrize("command", ["duel", "tournament", "simulate", "play", "serve"])
def test_the_help_names_the_engine_and_policy_players(command: str) -> None:
    text = " ".join(CliRunner().invoke(main, [command, "--help"]).output.split())
    assert "engine:COMMAND" in text and "--engine-log" in text
    assert "policy:PATH" in text


@pytest.mark.parametrize(
    ("args", "forms"),
    [
        (["duel", "nobody", "random"], ["engine:COMMAND", "policy:PATH"]),
        (["play", "--opponent", "nobody"], ["engine:COMMAND", "policy:PATH"]),
        (["duel", "nobody", "random", "--game", "touti"], ["engine:COMMAND"]),
    ],
)
def test_an_unknown_player_s_error_names_the_other_forms(args: list[str], forms: list[str]) -> None:
    res = CliRunner().invoke(main, args)
    assert res.exit_code == 2
    text = " ".join(res.output.split())
    assert "unknown" in text and all(f in text for f in forms), text
