"""The terminal game: whole games by scripted input, bad input, quitting, the CLI."""

from __future__ import annotations

import io
import itertools
import json
import re
import signal
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner
from rich.console import Console

from chkobba.agents import make_agent
from chkobba.cli import main
from chkobba.fishing.cards import Card
from chkobba.fishing.match import Match
from chkobba.fishing.moves import Cut, Move, Play
from chkobba.fishing.narrate import describe_turn, sweep_word
from chkobba.fishing.observe import Observation
from chkobba.fishing.record import GameRecord, replay
from chkobba.fishing.rules import preset
from chkobba.tui import Ending, PlaySession
from chkobba.tui.command import PREFERRED_OPPONENTS, default_player
from chkobba.tui.render import in_hand_order
from chkobba.tui.saving import chkobba_command

RULES_11 = preset("chkobba", {"target": 11})


@pytest.fixture(autouse=True)
def ctrl_c_interrupts() -> Iterator[None]:
    """Ctrl-C raises KeyboardInterrupt, as at a terminal: a test run started in the
    background (``cmd &`` in a script, as CI may) inherits SIGINT ignored, and then
    ``signal.raise_signal(SIGINT)`` would do nothing."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def deck(*first: str) -> list[int]:
    """A deck whose top cards are ``first``, the others after them in card order."""
    top = [Card.parse(c) for c in first]
    return top + [c for c in range(40) if c not in top]


# With seat 1 dealing, the human at seat 0 cuts; keeping the cut card gives the
# human deck[0:3], seat 1 deck[3:6] and the table deck[6:10].
SPLIT_DECK = deck("7c", "Ks", "5h", "6s", "Jh", "Qd", "3s", "4d", "2d", "Ac")
"""The human holds 7♣ K♠ 5♥ against a table of 3♠ 4♦ 2♦ A♣: every card captures,
and 7♣ and 5♥ can each capture in two ways."""
VOID_DECK = deck("7c", "Ks", "2h", "6s", "Jh", "Qd", "5s", "5h", "5d", "Kc")
"""Keeping the cut card puts three 5s on the table: a void deal."""


class Script:
    """Answers the prompts from a list of lines, then raises EOFError.

    Each prompt and answer is written to the console, so the output reads as a
    terminal transcript would.
    """

    def __init__(self, console: Console, answers: Iterable[str]) -> None:
        self.console = console
        self.answers: Iterator[str] = iter(answers)
        self.prompts: list[str] = []

    def __call__(self, prompt: str) -> str:
        self.prompts.append(prompt)
        self.console.print(prompt, end="")
        answer = next(self.answers, None)
        if answer is None:
            raise EOFError
        self.console.print(answer, markup=False)
        return answer


def session(
    tmp_path: Path,
    answers: Iterable[str],
    seats: int = 2,
    seed: int = 1,
    first_deck: list[int] | None = None,
    first_dealer: int | None = None,
) -> tuple[PlaySession, io.StringIO]:
    """A session against random players, its output captured."""
    match = Match(
        RULES_11,
        seats=seats,
        teams=seats == 4,
        seed=seed,
        first_dealer=first_dealer,
        first_deck=first_deck,
    )
    out = io.StringIO()
    console = Console(file=out, width=100, highlight=False)
    agents = {s: make_agent("random", seed + s) for s in range(1, seats)}
    names = ["Alice"] + [f"cpu{s}" for s in range(1, seats)]
    play = PlaySession(
        match,
        agents,
        names,
        tmp_path / "game.json",
        console=console,
        ask=Script(console, answers),
        meta={"test": True},
    )
    return play, out


def check_record(play: PlaySession) -> GameRecord:
    """The saved record replays through the engine to the session's own match."""
    record = GameRecord.load(play.save_path)
    rep = replay(record)
    m = play.match
    assert rep.totals == m.totals
    assert rep.winner == m.winner
    played = list(m.finished)
    if not m.round.is_over and not m.round.void:
        played.append(m.round)
    assert [r.plays() for r in rep.rounds] == [r.plays() for r in played]
    assert record.names == play.names
    assert record.meta == {"test": True}
    return record


@pytest.mark.parametrize(("seats", "seed"), [(2, 1), (2, 2), (4, 3)])
def test_a_whole_match_by_always_answering_1(tmp_path: Path, seats: int, seed: int) -> None:
    play, out = session(tmp_path, itertools.repeat("1"), seats=seats, seed=seed)
    result = play.run()
    assert result.ending is Ending.FINISHED
    assert result.winner is not None and result.winner == play.match.winner
    assert max(play.match.totals) >= 11
    assert result.saved == play.save_path
    record = check_record(play)
    assert record.teams is (seats == 4) and record.seats == seats
    text = out.getvalue()
    assert "wins the match" in text or "win the match" in text
    assert f"Game record saved to {play.save_path}" in text
    # Every finished round is shown with its points under their Arabic names.
    assert text.count("kārṭa (كارطة)") == len(play.match.finished)
    assert "dīnārī" in text and "barmīla" in text and "sabʿa l-ḥayya" in text
    # Between rounds the game waits for Enter, never after the last one.
    assert text.count("Press Enter for round") == len(play.match.finished) - 1
    # The last capturer takes what is left on the table: "takes", or a team "take".
    swept = sum(1 for r in play.match.finished if r.swept)
    verb = "take" if seats == 4 else "takes"
    assert text.count(f" {verb} the rest of the table: ") == swept > 0


def test_the_human_sees_the_board_before_each_play(tmp_path: Path) -> None:
    play, out = session(tmp_path, ["keep", "q", "y"], first_deck=SPLIT_DECK, first_dealer=1)
    play.run()
    text = out.getvalue()
    assert "You cut and are shown 7♣" in text
    board = text[text.index("Alice keeps the cut card") :]
    assert "Your hand" in board and " 5♥ " in board and " 7♣ " in board and " K♠ " in board
    assert " A♣ " in board and " 3♠ " in board
    assert "Score" in board and "first to 11" in board and "Stock" in board
    assert "cpu1: 3 cards" in board
    # Each legal play is listed with its number and its notation, in the hand's order
    # (by value: 5♥ 7♣ K♠), where the engine lists them by suit.
    listed = in_hand_order(play.match.legal_moves())
    assert [str(m).split(":")[0] for m in listed][:1] == ["5h"]
    for i, move in enumerate(listed, 1):
        assert any(
            line.split()[:1] == [str(i)] and str(move) in line for line in board.splitlines()
        )


def test_bad_input_is_explained_and_the_game_goes_on(tmp_path: Path) -> None:
    answers = [
        "1",  # keep the cut card
        "Jd",  # not in the hand
        "zz",  # not a card
        "99",  # no such play number
        "0",
        "",
        "lay 7c",  # 7c captures: it cannot be laid
        "7c:3s+2d",  # 3 + 2 is not 7
        "Ks:3s",  # a single card of the wrong value
        "keep",  # the cut is already decided
        "7c:",  # malformed
        "5h",  # two ways to capture: asked which
        "7",  # not one of them
        "2",
    ]
    play, out = session(
        tmp_path,
        itertools.chain(answers, itertools.repeat("1")),
        first_deck=SPLIT_DECK,
        first_dealer=1,
    )
    result = play.run()
    assert result.ending is Ending.FINISHED
    text = out.getvalue()
    for reason in [
        "Jd is not in your hand",
        "malformed play 'zz'",
        "there is no play number 99: choose 1 to",
        "there is no play number 0",
        "type the number of a play",
        "7c cannot be laid on the table: it captures",
        "7c cannot capture 2d+3s: 2+3 = 5, not 7",
        "Ks cannot capture 3s: it is worth 3, not 10",
        "there is no cut to decide now: it is your play",
        "malformed play '7c:'",
        "5♥ can be played 2 ways",
        "answer a number from 1 to 2",
    ]:
        assert reason in text, reason
    # Issue 18 §5.3: the player is "you", never a seat number.
    assert "seat 0" not in text and "seat 1" not in text
    # The play chosen in the end is the second of the two captures offered.
    m = Match(RULES_11, first_dealer=1, first_deck=SPLIT_DECK)
    m.apply(Cut.KEEP)
    offered = [mv for mv in m.legal_moves() if isinstance(mv, Play) and mv.card == Card.parse("5h")]
    record = check_record(play)
    assert record.rounds[0].plays[0] == str(offered[1])


def test_illegal_moves_name_the_player_you_and_the_others_as_the_board_does(
    tmp_path: Path,
) -> None:
    # Issue 18 §5.3: the engine says "seat N"; the terminal game names the seats.
    play, _ = session(tmp_path, [], seats=4, first_deck=SPLIT_DECK, first_dealer=3)
    r = play.match.round
    assert r.turn == 0 and r.cutter == 0
    assert r.explain_illegal(Play(Card.parse("7c"), 0)) == (
        "seat 0 must first decide the cut: keep or table"
    )
    assert r.explain_illegal(Play(Card.parse("7c"), 0), play.who) == (
        "you must first decide the cut: keep or table"
    )
    play.match.apply(Cut.KEEP)
    play.match.apply(r.legal_moves()[0])
    other = r.turn
    assert other != 0
    king = next(c for c in range(40) if not r.hands[other] >> c & 1 and c % 10 == 9)
    assert r.explain_illegal(Play(king, 0), play.who) == (
        f"{Card(king)} is not in cpu{other}'s hand"
    )
    assert r.explain_illegal(Cut.TABLE, play.who) == (
        f"there is no cut to decide now: it is cpu{other}'s play"
    )


def test_a_bare_card_with_one_play_and_a_written_capture_are_played(tmp_path: Path) -> None:
    answers = ["keep", "Ks", "5h:4d+Ac", "q", "y"]
    play, out = session(tmp_path, answers, first_deck=SPLIT_DECK, first_dealer=1)
    play.run()
    plays = check_record(play).rounds[0].plays
    assert plays[0] == "Ks:Ac+2d+3s+4d"  # K♠'s only play, a sweep of the table
    assert "Alice plays K♠ and captures A♣ 2♦ 3♠ 4♦  — chkobba!" in out.getvalue()
    if len(plays) > 2:
        assert plays[2].startswith("5h:")


def test_quit_saves_a_record_that_replays_unfinished(tmp_path: Path) -> None:
    play, out = session(tmp_path, ["1", "1", "1", "q", "n", "1", "quit", "yes"], seed=5)
    result = play.run()
    assert result.ending is Ending.QUIT
    assert result.winner is None and result.saved == play.save_path
    text = out.getvalue()
    assert "Let's play on." in text
    # Issue 18 §5.4: the prompt promises the save; only the save itself says it is done.
    assert "Quit now? The game so far will be saved. [y/N]" in text
    assert " is saved" not in text
    assert text.rstrip().endswith(
        f"Game record saved to {play.save_path}\n"
        f"  replay it with: {chkobba_command()} replay {play.save_path}"
    )
    record = check_record(play)
    assert replay(record).winner is None
    assert sum(1 for r in record.rounds for p in r.plays) >= 4


def test_quit_says_truthfully_that_the_record_could_not_be_saved(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    play, out = session(tmp_path, ["1", "q", "y"], seed=5)
    play.save_path = blocker / "game.json"
    result = play.run()
    assert result.ending is Ending.QUIT and result.saved is None
    text = out.getvalue()
    assert f"Could not save the game record to {play.save_path}" in text
    assert " saved" not in text.replace("will be saved", "")


def test_quit_at_the_cut_saves_a_record_stopped_at_the_cut(tmp_path: Path) -> None:
    play, _ = session(tmp_path, ["q", "y"], first_deck=SPLIT_DECK, first_dealer=1)
    assert play.run().ending is Ending.QUIT
    record = check_record(play)
    assert record.rounds[0].cut is None and record.rounds[0].plays == []


def test_quit_between_rounds(tmp_path: Path) -> None:
    answers = iter(["q", "y"])

    def ask(prompt: str) -> str:
        if "Press Enter" in prompt or "Quit now?" in prompt:
            return next(answers)
        return "1"

    play, _ = session(tmp_path, [], seed=4)
    play.ask = ask
    assert play.run().ending is Ending.QUIT
    assert len(play.match.finished) == 1
    record = check_record(play)
    # The next round has been shuffled but not cut yet: it is saved stopped at the cut.
    assert len(record.rounds) == 2 and record.rounds[1].cut is None
    assert replay(record).winner is None


def test_end_of_input_saves_the_record(tmp_path: Path) -> None:
    play, out = session(tmp_path, ["1"] * 7, seed=6)
    result = play.run()
    assert result.ending is Ending.END_OF_INPUT
    assert "End of input" in out.getvalue()
    assert replay(check_record(play)).winner is None


def test_ctrl_c_saves_the_record(tmp_path: Path) -> None:
    answers = ["1", "1", "1"]

    def ask(prompt: str) -> str:
        if not answers:
            raise KeyboardInterrupt
        return answers.pop()

    play, out = session(tmp_path, [], seed=7)
    play.ask = ask
    result = play.run()
    assert result.ending is Ending.INTERRUPTED
    assert "Interrupted" in out.getvalue()
    check_record(play)


PLAY_LINE = re.compile(r"^  (?:Alice|cpu\d) (?:keeps|tables|lays|plays) ")
"""A play as the session prints it when it happens (the board's recalled plays are framed)."""


def shown_plays(text: str) -> list[str]:
    """The plays the output showed as they happened, in order."""
    return [line.strip() for line in text.splitlines() if PLAY_LINE.match(line)]


def recorded_plays(play: PlaySession) -> list[str]:
    """The moves of the saved record, cut decisions included, as the session words them."""
    rep = replay(check_record(play))
    sweep = sweep_word(RULES_11)
    return [describe_turn(t, play.names, sweep) for r in rep.rounds for t in r.history]


@pytest.mark.parametrize(("seed", "pauses"), [(5, 1), (5, 3), (6, 2), (7, 4)])
def test_ctrl_c_while_the_computer_pauses_saves_only_what_was_shown(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, seed: int, pauses: int
) -> None:
    # Issue 18 §5.1: the computer's move was applied, then the pause ran, then it
    # was printed, so a Ctrl-C in the pause saved a move the player never saw.
    slept = 0

    def sleep(seconds: float) -> None:
        nonlocal slept
        slept += 1
        if slept == pauses:
            raise KeyboardInterrupt

    monkeypatch.setattr("chkobba.tui.session.time.sleep", sleep)
    play, out = session(tmp_path, itertools.repeat("1"), seed=seed)
    play.pause = 0.7
    assert play.run().ending is Ending.INTERRUPTED
    assert slept == pauses
    shown = shown_plays(out.getvalue())
    assert shown == recorded_plays(play)
    # Every pause but the interrupted one was followed by its computer move.
    assert sum(not line.startswith("Alice") for line in shown) == pauses - 1


@pytest.mark.parametrize(("seats", "moves"), [(2, 1), (2, 2), (2, 3), (2, 8), (4, 5), (4, 6)])
def test_ctrl_c_just_as_a_move_is_made_saves_exactly_what_was_shown(
    tmp_path: Path, seats: int, moves: int
) -> None:
    # A real SIGINT right after the engine took the move, before the screen showed
    # it: the move and its line go together, and the record holds what was shown.
    play, out = session(tmp_path, itertools.repeat("1"), seats=seats, seed=5)
    apply = play.match.apply
    applied = 0

    def apply_then_ctrl_c(move: Move, seat: int | None = None) -> None:
        nonlocal applied
        apply(move, seat)
        applied += 1
        if applied == moves:
            signal.raise_signal(signal.SIGINT)

    play.match.apply = apply_then_ctrl_c  # type: ignore[method-assign]
    assert play.run().ending is Ending.INTERRUPTED
    shown = shown_plays(out.getvalue())
    assert shown == recorded_plays(play)
    assert len(shown) == moves


def test_ctrl_c_while_the_record_is_written_still_writes_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from chkobba.tui import session as session_module

    real = session_module.save_record

    def ctrl_c_then_save(*args: object) -> Path | None:
        signal.raise_signal(signal.SIGINT)
        return real(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(session_module, "save_record", ctrl_c_then_save)
    play, out = session(tmp_path, ["1", "1", "q", "y"], seed=5)
    result = play.run()
    assert result.ending is Ending.QUIT and result.saved == play.save_path
    assert shown_plays(out.getvalue()) == recorded_plays(play)


@pytest.mark.parametrize("stopping", ["Interrupted", "Final score"])
def test_ctrl_c_again_while_the_game_stops_still_saves_it(tmp_path: Path, stopping: str) -> None:
    # A second Ctrl-C as the session says it stops (or as it shows the final score)
    # escaped before the record was written.
    class Impatient(io.StringIO):
        pressed = False

        def write(self, s: str) -> int:
            if stopping in s and not self.pressed:
                self.pressed = True
                raise KeyboardInterrupt
            return super().write(s)

    answers = itertools.repeat("1") if stopping == "Final score" else ["1", "1", "1"]
    play, _ = session(tmp_path, [], seed=7)
    play.console = Console(file=Impatient(), width=100, highlight=False)
    script = Script(play.console, answers)

    def ask(prompt: str) -> str:
        try:
            return script(prompt)
        except EOFError:
            raise KeyboardInterrupt from None

    play.ask = ask
    result = play.run()
    assert result.ending is Ending.INTERRUPTED
    assert result.saved == play.save_path
    check_record(play)
    assert (replay(check_record(play)).winner is None) is (stopping == "Interrupted")


def test_a_crash_still_saves_the_record(tmp_path: Path) -> None:
    class Broken:
        name = "broken"

        def choose(self, obs: Observation) -> Play:
            return Play(Card.parse("7d"), Card.parse("7h").bit)

    play, _ = session(tmp_path, itertools.repeat("1"), seed=8)
    play.agents[1] = Broken()
    with pytest.raises(RuntimeError, match="'broken' player at seat 1 chose an illegal move"):
        play.run()
    check_record(play)


def test_a_void_deal_is_told_and_dealt_again(tmp_path: Path) -> None:
    play, out = session(tmp_path, ["1", "q", "y"], first_deck=VOID_DECK, first_dealer=1)
    play.run()
    assert play.match.void_deals == 1
    text = " ".join(out.getvalue().split())
    assert "The table was dealt 5♠ 5♥ 5♦ K♣: 3 cards of rank 5 make the deal void" in text
    assert "cpu1 shuffles and deals again" in text
    record = check_record(play)
    assert len(record.rounds) == 1 and record.rounds[0].deck != [str(Card(c)) for c in VOID_DECK]


def test_help_and_board_commands(tmp_path: Path) -> None:
    play, out = session(tmp_path, ["?", "board", "q", "y"], seed=9)
    play.run()
    text = out.getvalue()
    assert "Qh:7d+Ah" in text and "lay 5s" in text
    assert text.count("Round 1 ─") >= 2 or text.count("╭") >= 2


def test_computers_are_given_their_own_observation(tmp_path: Path) -> None:
    seen: list[tuple[int, Observation]] = []

    class Spy:
        def __init__(self, seat: int) -> None:
            self.name = "spy"
            self.seat = seat
            self.inner = make_agent("random", seat)

        def choose(self, obs: Observation) -> Play | Cut:
            seen.append((self.seat, obs))
            return self.inner.choose(obs)

    play, _ = session(tmp_path, itertools.repeat("1"), seats=4, seed=10)
    play.agents = {s: Spy(s) for s in (1, 2, 3)}
    play.run()
    assert seen
    for seat, obs in seen:
        assert isinstance(obs, Observation)
        assert obs.seat == seat and obs.turn == seat and obs.legal_moves


# -- the command ---------------------------------------------------------------


def run_cli(args: list[str], answers: str = "") -> tuple[int, str]:
    result = CliRunner().invoke(main, ["play", *args], input=answers)
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.output


def test_cli_plays_a_whole_match(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    args = ["--seed", "11", "--opponent", "random", "--target", "11", "--name", "Bob"]
    code, output = run_cli([*args, "--save", str(path)], "1\n" * 2000)
    assert code == 0, output
    assert "you against random" in output and "seed 11" in output and "the match!" in output
    record = GameRecord.load(path)
    rep = replay(record)
    assert rep.winner is not None and max(rep.totals) >= 11
    assert record.names == ["Bob", "random"]
    assert record.meta is not None and record.meta["seed"] == 11
    # The same seed and the same answers give the same game.
    again = tmp_path / "g2.json"
    code, _ = run_cli([*args, "--save", str(again)], "1\n" * 20)
    first = GameRecord.load(again).rounds[0]
    assert first.deck == record.rounds[0].deck
    assert first.plays == record.rounds[0].plays[: len(first.plays)] and first.plays


def test_cli_two_against_two(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    args = ["--players", "4", "--opponent", "random", "--partner", "random", "--seed", "3"]
    args += ["--name", "Alice"]
    code, output = run_cli([*args, "--target", "11", "--save", str(path)], "1\n" * 2000)
    assert code == 0, output
    record = GameRecord.load(path)
    assert record.seats == 4 and record.teams
    assert record.names is not None and record.names == ["Alice", "Right", "Partner", "Left"]
    assert replay(record).winner is not None


@pytest.mark.parametrize(
    ("args", "seats", "names", "sides"),
    [
        (["--players", "3"], 3, ["Ann", "Right", "Left"], "you against two computers"),
        (
            ["--players", "4", "--no-teams"],
            4,
            ["Ann", "Right", "Opposite", "Left"],
            "you against three computers",
        ),
    ],
)
def test_cli_seats_every_table_each_for_themselves(
    tmp_path: Path, args: list[str], seats: int, names: list[str], sides: str
) -> None:
    """docs/rules.md §2.1: 3 and 4 players each for themselves, as the README says."""
    path = tmp_path / "g.json"
    cli = [*args, "--opponent", "random", "--seed", "5", "--name", "Ann", "--target", "5"]
    code, output = run_cli([*cli, "--save", str(path)], "1\n" * 3000)
    assert code == 0, output[-2000:]
    assert f"{sides} (random), each for themselves" in " ".join(output.split())
    record = GameRecord.load(path)
    assert record.seats == seats and not record.teams and record.names == names
    assert replay(record).winner is not None


@pytest.mark.parametrize("game", ["chkobba", "touti"])
def test_cli_players_2v2_is_the_rules_name_of_two_against_two(tmp_path: Path, game: str) -> None:
    """`chkobba rules` names the table 2v2: `--players 2v2` asks for it."""
    path = tmp_path / "g.json"
    args = ["--game", game, "--players", "2v2", "--seed", "3", "--save", str(path)]
    code, output = run_cli([*args, "--opponent", "random", "--partner", "random"], "q\ny\n")
    assert code == 0, output
    data = json.loads(path.read_text())
    if game == "touti":
        assert data["format"] == "touti-record/1"  # Touti is 2 against 2: accepted
    else:
        assert (data["seats"], data["teams"]) == (4, True)


def test_cli_saves_to_the_data_directory_by_default(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    code, output = run_cli(["--seed", "2", "--name", "Eve"], "1\n1\n")
    assert code == 0, output
    saved = list((tmp_path / "chkobba" / "games").glob("*.json"))
    assert len(saved) == 1
    assert str(saved[0]) in output.replace("\n", "")
    record = GameRecord.load(saved[0])
    assert replay(record).winner is None
    assert record.meta is not None and record.meta["players"] == {"1": default_player()}


def test_the_default_opponent_is_the_strongest_available() -> None:
    assert default_player() in PREFERRED_OPPONENTS
    from chkobba.agents import AGENTS

    for name in PREFERRED_OPPONENTS:
        if name in AGENTS:
            assert default_player() == name
            break


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--opponent", "nosuch"], "unknown player 'nosuch' (known:"),
        (["--players", "4", "--partner", "nosuch"], "unknown player 'nosuch'"),
        (["--players", "5"], "'5' is not one of '2', '3', '4', '6', '2v2'"),
        (["--players", "2v2", "--no-teams"], "--players 2v2 is 2 against 2"),
        (
            ["--players", "6"],
            "chkobba is not played with --players 6 (its tables: --players 2, --players 3, "
            "--players 4 --no-teams, --players 4)",
        ),
        (["--target", "0"], "0 is not in the range x>=1"),
        (["--partner", "random"], "--partner needs a partner: --players 4, 2 against 2"),
        (["--players", "4", "--no-teams", "--partner", "random"], "--partner needs a partner"),
        (["--players", "3", "--teams"], "--teams and --no-teams need --players 4"),
        (["--seed", "x"], "'x' is not a valid integer"),
        (["--name", "  "], "a name cannot be empty"),
    ],
)
def test_cli_rejects_bad_options(args: list[str], message: str, tmp_path: Path) -> None:
    code, output = run_cli([*args, "--save", str(tmp_path / "g.json")])
    assert code == 2
    assert message in " ".join(output.split())
    assert not (tmp_path / "g.json").exists()


def test_cli_lists_the_known_players_in_its_error(tmp_path: Path) -> None:
    _, output = run_cli(["--opponent", "nosuch"])
    assert "random" in output


def test_cli_never_overwrites_a_record(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    path.write_text("{}")
    code, output = run_cli(["--save", str(path)])
    assert code == 2 and "already exists" in output
    assert path.read_text() == "{}"


def test_cli_reports_a_record_it_cannot_write(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    code, output = run_cli(["--seed", "1", "--save", str(blocker / "g.json")], "q\ny\n")
    assert code == 1
    assert "Could not save the game record" in output


def test_cli_record_verifies_with_the_verify_command(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    run_cli(["--seed", "4", "--opponent", "random", "--save", str(path)], "1\n" * 30)
    result = CliRunner().invoke(main, ["verify", "--json", str(path)])
    assert result.exit_code == 0
    assert json.loads(result.output)["winner"] is None


def test_the_replay_command_works_as_typed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """After the quick start `chkobba` is only in .venv/bin: the last screen's command
    names the program as it was started, and plain `chkobba` only when that is it."""
    venv = tmp_path / ".venv" / "bin"
    venv.mkdir(parents=True)
    program = venv / "chkobba"
    program.write_text("#!/bin/sh\n")
    program.chmod(0o755)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "argv", [".venv/bin/chkobba", "play"])
    monkeypatch.setenv("PATH", str(tmp_path / "nowhere"))
    assert chkobba_command() == ".venv/bin/chkobba"
    monkeypatch.setenv("PATH", str(venv))  # the virtualenv activated
    assert chkobba_command() == "chkobba"
    other = tmp_path / "other"
    other.mkdir()
    (other / "chkobba").write_text("#!/bin/sh\n")
    (other / "chkobba").chmod(0o755)
    monkeypatch.setenv("PATH", str(other))  # another chkobba comes first: not this one
    assert chkobba_command() == ".venv/bin/chkobba"
    # Started some other way (python -c, a test runner): the one beside this Python.
    monkeypatch.setattr(sys, "argv", ["-c"])
    monkeypatch.setattr(sys, "executable", str(venv / "python"))
    monkeypatch.setenv("PATH", str(tmp_path / "nowhere"))
    assert chkobba_command() == ".venv/bin/chkobba"
    # A path with a space is quoted for the shell.
    spaced = tmp_path / "my games" / "bin"
    spaced.mkdir(parents=True)
    (spaced / "chkobba").write_text("#!/bin/sh\n")
    monkeypatch.setattr(sys, "executable", str(spaced / "python"))
    monkeypatch.chdir(other)
    assert chkobba_command() == f"'{spaced / 'chkobba'}'"
