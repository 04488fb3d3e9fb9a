"""Outside engines as players: ``engine:COMMAND`` wherever a player is named.

An engine is any program that speaks the line protocol of docs/engine-protocol.md
(``chkobba-engine`` version 1) on its standard input and output: one JSON object
per line. The harness starts the program (without a shell) the first time its
seat must decide, tells it the game and its seat, then hands it each decision
as the observation of its seat, built from the seat's
:class:`~chkobba.fishing.observe.Observation` or
:class:`~chkobba.touti.observe.ToutiObservation` alone, so nothing hidden can
reach it. Each seat gets its own process: partners do not share one, so they
cannot share their hands.

A fault never costs the match: a timeout, an answer that cannot be read
(*garbage*) or an illegal move is replaced by the fallback's move (``random``,
seeded) for that decision; a crash, a failed handshake or
:data:`MAX_TIMEOUTS` timeouts in a row stop the engine, and the fallback plays
the seat to the end of the game. Every fallback move is kept in
:attr:`EngineAgent.faults` (the records' ``meta.engine_fallbacks``) and told
on the ``chkobba.engine`` logger in one line. After :data:`MAX_FAILED_GAMES`
games in which a command was stopped, this process no longer starts it.

The time limit per move is :data:`DEFAULT_TIME` seconds, or the suffix
``@SECONDS`` (``@2s``, ``@250ms``) at the end of the player name:
``engine:./my-engine --depth 3@2s``.

Every line sent to an engine and read from it (``info`` lines included) can be
written to a file, the *engine log* (``--engine-log FILE``, :func:`start_engine_log`):
the file is named in the environment (:data:`LOG_ENV`), so the worker processes
of a duel append to it too.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import queue
import re
import shlex
import shutil
import subprocess
import threading
import time
import weakref
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import PurePath
from typing import IO, Any, Final

from chkobba.fishing.cards import CARDS, cards_of

PREFIX: Final = "engine:"
"""How a player name points at an outside engine: ``engine:COMMAND``."""
PROTOCOL: Final = "chkobba-engine"
VERSION: Final = 1
DEFAULT_TIME: Final = 10.0
"""Seconds an engine has for each move unless its name says otherwise."""
HANDSHAKE_TIME: Final = 10.0
"""Seconds an engine has to start and answer ``ready`` (at least its move time)."""
MAX_TIMEOUTS: Final = 3
"""Timeouts in a row after which an engine is stopped for the rest of the game."""
MAX_FAILED_GAMES: Final = 3
"""Games with a crash (or a stop) after which a command is not started again."""
MAX_LINE: Final = 1 << 16
"""The longest line read from an engine; a longer one is garbage."""
QUIT_GRACE: Final = 1.0
"""Seconds an engine has to exit after ``quit`` before it is killed."""
FALLBACK: Final = "random"
"""The player that makes the moves an engine fails to make."""
FAULTS: Final = ("timeout", "garbage", "illegal", "crash")
"""The faults counted against an engine; ``gone`` marks the fallback's moves after a stop."""

SEED_BITS: Final = 53
"""Seeds told to engines fit in this many bits: JavaScript's ``JSON.parse`` (and any
reader that takes JSON numbers as doubles) rounds a larger integer."""
LOG_ENV: Final = "CHKOBBA_ENGINE_LOG"
"""The environment variable naming the engine log, inherited by worker processes."""

log = logging.getLogger("chkobba.engine")

_TIME = re.compile(r"@(\d+(?:\.\d+)?)(ms|s)$")
_failed_games: dict[str, int] = {}
"""Games in which each command (by player name) was stopped, in this process."""


class EngineError(ValueError):
    """A bad ``engine:`` player name (no command, a program that cannot be run)."""


@dataclass(frozen=True, slots=True)
class EngineSpec:
    """An engine as a player name gives it: the command and the time per move."""

    name: str
    command: tuple[str, ...]
    seconds: float

    @staticmethod
    def parse(name: str) -> EngineSpec:
        """Read ``engine:COMMAND`` or ``engine:COMMAND@SECONDS``; raise :class:`EngineError`."""
        text = name[len(PREFIX) :] if name.startswith(PREFIX) else name
        seconds = DEFAULT_TIME
        m = _TIME.search(text)
        if m:
            seconds = float(m.group(1)) / (1000 if m.group(2) == "ms" else 1)
            text = text[: m.start()]
            if not 0 < seconds <= 3600:
                raise EngineError(f"{name}: the time per move must be above 0 and at most 1 hour")
        try:
            command = tuple(shlex.split(text))
        except ValueError as e:
            raise EngineError(f"{name}: cannot read the command: {e}") from None
        if not command:
            raise EngineError(
                "engine: needs a command, as in engine:examples/engines/greedy_engine.py"
            )
        program = command[0]
        if os.sep in program or (os.altsep and os.altsep in program):
            if not os.path.isfile(program):
                raise EngineError(f"{name}: no program {program}")
            if not os.access(program, os.X_OK):
                raise EngineError(f"{name}: {program} is not executable (chmod +x)")
        elif shutil.which(program) is None:
            raise EngineError(f"{name}: no program {program!r} on the PATH")
        return EngineSpec(name, command, seconds)

    @property
    def stem(self) -> str:
        """A short name for the engine: the stem of the first argument that is a file (the
        script an interpreter runs, ``greedy_engine``), else of the program."""
        files = [a for a in self.command[1:] if os.path.isfile(a)]
        return PurePath(files[0] if files else self.command[0]).stem


# -- the messages ------------------------------------------------------------------


def cards_json(mask: int) -> list[str]:
    """A set of cards as a list in the notation, in deck order."""
    return [str(CARDS[c]) for c in cards_of(mask)]


def engine_seed(seed: int) -> int:
    """``seed`` as told to an engine: in [0, 2**53), which every JSON reader reads exactly
    (a double holds every integer below 2**53); equal seeds stay equal."""
    return seed % (1 << SEED_BITS)


def start_engine_log(path: str | os.PathLike[str]) -> None:
    """Write the traffic of every engine started from now on (in this process and in the
    processes it starts) to ``path``, which is emptied first; raise ``OSError`` if it
    cannot be written."""
    full = os.path.abspath(path)
    with open(full, "w", encoding="utf-8"):
        pass
    os.environ[LOG_ENV] = full


def _log_path() -> str | None:
    return os.environ.get(LOG_ENV) or None


class TrafficTap:
    """Appends one seat's engine traffic to the engine log, a line per message: time,
    this process, the engine's process, seat, player name, ``>`` (to the engine) or ``<``
    (from it), the line."""

    def __init__(self, path: str, name: str, seat: int) -> None:
        self.path = path
        self.name = name
        self.seat = seat
        self.engine_pid = 0
        """The engine's process id, once started (a new one each game)."""
        self._lock = threading.Lock()

    def __call__(self, direction: str, line: str) -> None:
        """Append ``line`` (one message) in ``direction``; a failed write is logged once."""
        stamp = time.strftime("%H:%M:%S") + f".{int(time.time() * 1000) % 1000:03d}"
        head = f"pid {os.getpid()} engine {self.engine_pid} seat {self.seat} {self.name}"
        text = f"{stamp} {head} {direction} {line}\n"
        with self._lock:
            try:
                # One write of one line on a file opened for appending: the lines of
                # several processes interleave whole.
                fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
                try:
                    os.write(fd, text.encode("utf-8", errors="replace"))
                finally:
                    os.close(fd)
            except OSError as e:
                if self.path:
                    log.warning("cannot write the engine log %s: %s", self.path, e)
                self.path = ""


def newgame_message(obs: Any, seed: int, seconds: float) -> dict[str, Any]:
    """The ``newgame`` message for the seat of ``obs``: the game, its rules and the seating
    (``seed`` told as :func:`engine_seed`)."""
    from chkobba.fishing.observe import Observation

    seed = engine_seed(seed)
    ms = round(seconds * 1000)
    if isinstance(obs, Observation):
        return {
            "type": "newgame",
            "game": "chkobba",
            "rules": obs.rules.name,
            "options": obs.rules.json_options_all(),
            "seats": obs.seats,
            "teams": obs.teams,
            "side_of": list(obs.side_of),
            "seat": obs.seat,
            "seed": seed,
            "time_ms": ms,
        }
    return {
        "type": "newgame",
        "game": "touti",
        "rules": "touti",
        "options": obs.rules.options(),
        "seats": 4,
        "teams": True,
        "side_of": [0, 1, 0, 1],
        "seat": obs.seat,
        "seed": seed,
        "time_ms": ms,
    }


def observation_json(obs: Any) -> dict[str, Any]:
    """Everything the seat of ``obs`` may know, as JSON (docs/engine-protocol.md)."""
    from chkobba.fishing.observe import Observation

    if isinstance(obs, Observation):
        return {
            "seat": obs.seat,
            "phase": obs.phase.value,
            "turn": obs.turn,
            "dealer": obs.dealer,
            "cutter": obs.cutter,
            "round": obs.round_number,
            "hand": cards_json(obs.hand),
            "table": cards_json(obs.table),
            "cut_card": None if obs.cut_card is None else str(CARDS[obs.cut_card]),
            "history": [
                {"seat": t.seat, "move": str(t.move), "sweep": t.chkobba} for t in obs.history
            ],
            "piles": [cards_json(p) for p in obs.piles],
            "sweeps": list(obs.chkobba),
            "last_capturer": obs.last_capturer,
            "hand_sizes": list(obs.hand_sizes),
            "stock": obs.stock,
            "unseen": cards_json(obs.unseen),
            "declarations": [
                {
                    "seat": d.seat,
                    "name": d.name,
                    "points": d.points,
                    "cards": cards_json(d.cards),
                    "wild": d.wild,
                }
                for d in obs.declarations
            ],
            "shown": [cards_json(m) for m in obs.shown],
            "wild": obs.wild,
            "totals": list(obs.totals),
            "target": obs.target,
            "legal": [str(m) for m in obs.legal_moves],
        }
    suit = "shdc"
    return {
        "seat": obs.seat,
        "phase": obs.phase.value,
        "turn": obs.turn,
        "dealer": obs.dealer,
        "deal": obs.deal_number,
        "hand": cards_json(obs.hand),
        "history": [{"seat": s, "move": str(m)} for s, m in obs.history],
        "bid": obs.bid,
        "high_bidder": obs.high_bidder,
        "declarer": obs.declarer,
        "trump": None if obs.trump is None else suit[obs.trump],
        "leader": obs.leader,
        "current": [str(CARDS[c]) for c in obs.current],
        "tricks": [
            {"leader": t.leader, "cards": [str(CARDS[c]) for c in t.cards], "winner": t.winner}
            for t in obs.tricks
        ],
        "announcements": [
            {"seat": a.seat, "suit": suit[a.suit], "trick": a.trick} for a in obs.announcements
        ],
        "played": cards_json(obs.played),
        "hand_sizes": list(obs.hand_sizes),
        "excluded": [cards_json(m) for m in obs.excluded],
        "known": [cards_json(m) for m in obs.known],
        "unseen": cards_json(obs.unseen),
        "totals": list(obs.totals),
        "target": obs.target,
        "legal": [str(m) for m in obs.legal_moves],
    }


def round_of(obs: Any) -> int:
    """The number of the round (Chkobba) or deal (Touti) ``obs`` belongs to, from 1."""
    n = getattr(obs, "round_number", None)
    return int(n if n is not None else obs.deal_number)


def parse_answer(obs: Any, text: str) -> Any:
    """The move ``text`` names in the notation of ``obs``'s game; ``ValueError`` if malformed."""
    from chkobba.fishing.observe import Observation

    if isinstance(obs, Observation):
        from chkobba.fishing.moves import parse_move

        return parse_move(text)
    from chkobba.touti.moves import parse_move as parse_touti_move

    return parse_touti_move(text)


# -- the process -------------------------------------------------------------------

_EOF: Final = object()


class EngineProcess:
    """A running engine: its pipes, and a thread that queues the lines it writes."""

    def __init__(self, command: tuple[str, ...], tap: TrafficTap | None = None) -> None:
        """Start ``command`` (no shell); raise ``OSError`` if it cannot be run. ``tap``
        is told every line sent and read."""
        self.popen = subprocess.Popen(
            list(command), stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0
        )
        self.tap = tap
        if tap is not None:
            tap.engine_pid = self.popen.pid
        self.lines: queue.Queue[object] = queue.Queue()
        assert self.popen.stdout is not None
        self._reader = threading.Thread(
            target=_read_lines, args=(self.popen.stdout, self.lines, tap), daemon=True
        )
        self._reader.start()
        # Killed and reaped even if nobody closes it: when dropped, and at exit.
        self._finalizer = weakref.finalize(self, _kill, self.popen)

    def send(self, message: dict[str, Any]) -> None:
        """Write one message line; raise ``OSError`` if the engine is gone."""
        stdin = self.popen.stdin
        assert stdin is not None
        line = json.dumps(message, separators=(",", ":"))
        if self.tap is not None:
            self.tap(">", line)
        stdin.write(line.encode() + b"\n")
        stdin.flush()

    def drain(self) -> bool:
        """Drop the lines not read yet (late answers); False if the engine's output ended."""
        while True:
            try:
                item = self.lines.get_nowait()
            except queue.Empty:
                return True
            if item is _EOF:
                self.lines.put(_EOF)
                return False

    def receive(self, deadline: float) -> str | None:
        """The next line, or None at the deadline; raise ``EOFError`` when the output ends."""
        timeout = deadline - time.monotonic()
        try:
            item = self.lines.get(timeout=max(0.0, timeout))
        except queue.Empty:
            return None
        if item is _EOF:
            self.lines.put(_EOF)
            raise EOFError
        assert isinstance(item, str)
        return item

    def exit_status(self) -> str:
        """How the process ended, in words (after its output ended)."""
        try:
            code = self.popen.wait(timeout=0.5)
        except subprocess.TimeoutExpired:
            return "closed its output"
        return f"exited with status {code}" if code >= 0 else f"was killed by signal {-code}"

    def stop(self, message: dict[str, Any] | None = None) -> None:
        """Send ``message`` (``quit``), give the engine :data:`QUIT_GRACE` to exit, then kill
        it; always reaped."""
        if self.popen.poll() is None and message is not None:
            try:
                self.send(message)
                assert self.popen.stdin is not None
                self.popen.stdin.close()
                self.popen.wait(timeout=QUIT_GRACE)
            except (OSError, ValueError, subprocess.TimeoutExpired):
                pass
        self._finalizer()


def _read_lines(
    stream: IO[bytes], lines: queue.Queue[object], tap: TrafficTap | None = None
) -> None:
    # This thread alone reads and closes the engine's output: closed by another thread
    # while a read waits, its descriptor could be reused by the next engine's pipe, and
    # this read would steal that engine's first byte.
    try:
        while True:
            raw = stream.readline(MAX_LINE)
            if not raw:
                break
            line = raw.decode("utf-8", errors="replace").rstrip("\r\n")
            if tap is not None:
                tap("<", line)
            lines.put(line)
    except (OSError, ValueError):
        pass
    finally:
        with contextlib.suppress(OSError):
            stream.close()
    lines.put(_EOF)


def _kill(popen: subprocess.Popen[bytes]) -> None:
    # Only the input is closed here; the output ends when the process dies, and the
    # reading thread closes it (see _read_lines).
    if popen.stdin is not None:
        with contextlib.suppress(OSError):
            popen.stdin.close()
    if popen.poll() is None:
        with contextlib.suppress(OSError):
            popen.kill()
    try:
        popen.wait(timeout=5)
    except subprocess.TimeoutExpired:
        log.error("engine process %d would not die", popen.pid)


# -- the player --------------------------------------------------------------------


class EngineAgent:
    """A seat played by an outside engine, with the fallback making the moves it fails to."""

    def __init__(self, spec: EngineSpec, seed: int, fallback: Any) -> None:
        """Play ``spec`` from ``seed``; ``fallback`` (a seeded player of the same game) makes
        the moves the engine fails to make."""
        self.spec = spec
        self.name = spec.name
        self.seed = seed
        self.fallback = fallback
        self.faults: list[dict[str, Any]] = []
        """Every move the fallback made: seat, round, ply, move, why (a fault of
        :data:`FAULTS` or ``gone``) and a detail."""
        self.engine_name: str | None = None
        """The name the engine gave in the handshake."""
        self.author: str | None = None
        self._process: EngineProcess | None = None
        self._gone: str | None = None
        """Why the engine no longer plays (None while it may)."""
        self._started = False
        self._timeouts = 0
        self._id = 0
        self._round: int | None = None
        self._totals: list[int] = []

    def choose(self, obs: Any) -> Any:
        """The engine's move for ``obs``, or the fallback's if the engine fails."""
        if not self._started:
            failure = self._start(obs)
            if failure is not None:
                return self._fall_back(obs, "crash", f"the engine {failure}")
        elif self._process is not None:
            self._tell_round(obs, ending=False)
        process = self._process
        if process is None:
            return self._fall_back(obs, "gone", self._gone or "not running")
        self._id += 1
        deadline = time.monotonic() + self.spec.seconds
        try:
            if not process.drain():
                raise EOFError
            process.send(
                {
                    "type": "go",
                    "id": self._id,
                    "time_ms": round(self.spec.seconds * 1000),
                    "observation": observation_json(obs),
                }
            )
            return self._answer(obs, process, deadline)
        except (EOFError, OSError, ValueError):
            why = process.exit_status()
            self._stop(f"crashed: {why}")
            return self._fall_back(obs, "crash", f"the engine {why}")

    def _answer(self, obs: Any, process: EngineProcess, deadline: float) -> Any:
        while True:
            line = process.receive(deadline)
            if line is None:
                self._timeouts += 1
                detail = f"no move within {self.spec.seconds:g} s"
                if self._timeouts >= MAX_TIMEOUTS:
                    self._stop(f"stopped after {MAX_TIMEOUTS} timeouts in a row")
                    detail += f" ({MAX_TIMEOUTS} in a row: stopped for the rest of the game)"
                return self._fall_back(obs, "timeout", detail)
            message = _message(line)
            kind = None if message is None else message.get("type")
            if kind == "info":
                log.debug("%s: %s", self.name, message.get("text") if message else "")
                continue
            if kind == "ready":
                continue  # tolerated: some engines answer every message
            if message is None or kind != "move":
                return self._fall_back(obs, "garbage", f"unreadable answer {_clip(line)}")
            answer_id = message.get("id")
            if isinstance(answer_id, int) and answer_id < self._id:
                continue  # a late answer to a decision already made
            text = message.get("move")
            if answer_id != self._id or not isinstance(text, str):
                return self._fall_back(obs, "garbage", f"unreadable answer {_clip(line)}")
            try:
                move = parse_answer(obs, text)
            except ValueError as e:
                return self._fall_back(obs, "garbage", f"malformed move: {e}")
            # Compared by their text: Touti's one-number moves (a card, a suit) are equal
            # as tuples across kinds.
            legal = {str(m): m for m in obs.legal_moves}.get(str(move))
            if legal is None:
                return self._fall_back(obs, "illegal", f"{text!r} is not a legal move")
            self._timeouts = 0
            return legal

    @property
    def stopped(self) -> bool:
        """Whether the engine was started and no longer runs (it crashed, was stopped
        after timeouts, failed the handshake, or was closed)."""
        return self._started and self._process is None

    def finish(self, obs: Any, played_out: bool = True) -> None:
        """Tell the engine the game is over (the points of its last round, the totals), then
        stop it; a game not ``played_out`` (resigned, abandoned) has no last round to tell."""
        if self._process is not None:
            if played_out:
                self._tell_round(obs, ending=True)
            with contextlib.suppress(OSError, ValueError):
                self._process.send({"type": "game_over", "totals": list(obs.totals)})
        self.close()

    def close(self) -> None:
        """Stop the engine (``quit``, then killed if it lingers) and reap it."""
        if self._process is not None:
            self._process.stop({"type": "quit"})
            self._process = None
            self._gone = self._gone or "closed"

    def _start(self, obs: Any) -> str | None:
        """Start the engine and shake hands; why it failed, if it did."""
        self._started = True
        self._round = round_of(obs)
        self._totals = list(obs.totals)
        if _failed_games.get(self.name, 0) >= MAX_FAILED_GAMES:
            self._gone = f"not started: it failed in {MAX_FAILED_GAMES} games"
            return None
        try:
            path = _log_path()
            tap = None if path is None else TrafficTap(path, self.name, obs.seat)
            process = EngineProcess(self.spec.command, tap)
        except OSError as e:
            self._stop(f"could not start: {e.strerror or e}")
            return self._gone
        self._process = process
        limit = max(HANDSHAKE_TIME, self.spec.seconds)
        deadline = time.monotonic() + limit
        try:
            process.send({"type": "hello", "protocol": PROTOCOL, "version": VERSION})
            while True:
                line = process.receive(deadline)
                if line is None:
                    raise TimeoutError(f"no ready within {limit:g} s")
                message = _message(line)
                kind = None if message is None else message.get("type")
                if message is not None and kind == "id":
                    self.engine_name = str(message.get("name", ""))[:64] or None
                    self.author = str(message.get("author", ""))[:64] or None
                elif kind == "ready":
                    break
                elif kind != "info":
                    raise ValueError(f"unreadable handshake {_clip(line)}")
            process.send(newgame_message(obs, self.seed, self.spec.seconds))
        except EOFError:
            self._stop(f"crashed at the start: {process.exit_status()}")
            return self._gone
        except (TimeoutError, ValueError, OSError) as e:
            self._stop(f"failed the handshake: {e}")
            return self._gone
        return None

    def _tell_round(self, obs: Any, ending: bool) -> None:
        """Send ``round_over`` when ``obs`` shows the round has changed (or, ``ending``, the
        game ended in this one)."""
        number = round_of(obs)
        if self._process is None or (number == self._round and not ending):
            return
        totals = list(obs.totals)
        points = [t - s for t, s in zip(totals, self._totals, strict=False)]
        with contextlib.suppress(OSError, ValueError):
            self._process.send(
                {"type": "round_over", "round": self._round, "points": points, "totals": totals}
            )
        self._round = number
        self._totals = totals

    def _stop(self, why: str) -> None:
        self._gone = why
        self._failed()
        if self._process is not None:
            self._process.stop(None)
            self._process = None

    def _failed(self) -> None:
        _failed_games[self.name] = _failed_games.get(self.name, 0) + 1

    def _fall_back(self, obs: Any, why: str, detail: str) -> Any:
        move = self.fallback.choose(obs)
        fault = {
            "seat": obs.seat,
            "round": round_of(obs),
            "ply": len(obs.history),
            "move": str(move),
            "why": why,
            "detail": detail,
        }
        self.faults.append(fault)
        if why != "gone":
            log.warning(
                "%s at seat %d, %s %d: %s: %s; %s played %s instead",
                self.name, obs.seat, _round_word(obs), fault["round"], why, detail,
                FALLBACK, move,
            )  # fmt: skip
        return move


def _round_word(obs: Any) -> str:
    return "round" if hasattr(obs, "round_number") else "deal"


def _message(line: str) -> dict[str, Any] | None:
    try:
        value = json.loads(line)
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


def _clip(line: str, n: int = 60) -> str:
    return repr(line if len(line) <= n else line[:n] + "…")


def shared_fallbacks(agents: Iterable[object]) -> list[dict[str, Any]] | None:
    """One list for the fallback moves of every engine among ``agents`` (which then
    append to it), to be kept in a record's ``meta``; None if none is an engine."""
    engines = [a for a in agents if isinstance(a, EngineAgent)]
    if not engines:
        return None
    shared: list[dict[str, Any]] = []
    for a in engines:
        a.faults = shared
    return shared


def close_all(agents: Iterable[object]) -> None:
    """Stop every engine among ``agents`` (the other players need nothing)."""
    for a in agents:
        if isinstance(a, EngineAgent):
            a.close()


def engine_agent(name: str, seed: int, fallback: Callable[[int], Any]) -> EngineAgent:
    """The player for ``engine:COMMAND``, with ``fallback(seed)`` making the moves it fails
    to make; raise :class:`EngineError` for a bad name."""
    return EngineAgent(EngineSpec.parse(name), seed, fallback(seed))
