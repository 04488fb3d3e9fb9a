"""Decisions per CPU second of the OpenSpiel game ``chkobba`` beside OpenSpiel's own card games.

Plays whole games of ``chkobba`` (2 players, one round), ``hearts`` and ``skat``
(OpenSpiel's C++ games) by the same loop, in the same run, interleaved: at a
chance node a uniformly drawn outcome of ``chance_outcomes()``, at a decision a
uniformly drawn action of ``legal_actions()``; each ``apply_action`` of a player
is one decision (the chance nodes' time counts, their number does not). With
``--tensor`` each decision also reads the player's tensor (what an RL agent does):
its ``observation_tensor``, or its ``information_state_tensor`` in a game that has
no observation tensor (``hearts``; the line printed names each game's), so that the
fair comparison is with ``skat``, whose observation tensor is read as ``chkobba``'s.
``--infostate`` reads every game's ``information_state_tensor`` instead, in the games
that have one (``chkobba`` and ``hearts``; ``skat`` has none and is left out).
With either, ``chkobba`` is also measured reading its tensor by OpenSpiel's own C++
route (``pyspiel.State.observation_tensor(state, player)``, the line ``C++ route``):
what a C++ algorithm pays, the state's Python answer bypassed. The rate
is per second of this process's CPU time (other work on the shared machine does not
count against it, though a busy core still runs slower); the median of several runs
is printed with its range, the ratios to ``hearts`` and ``skat`` and the load average at
the start and the end. The goal (issue 29): ``chkobba`` at least half of ``hearts``
(and, reading its tensor, at least half of ``skat``).

    python bench/openspiel_speed.py [--seconds 3] [--runs 5] [--tensor | --infostate]
                                    [--pure] [--floor]

``--pure`` measures the game with the compiled kernel turned off (``CHKOBBA_PURE=1``
must be set before the import, so the script sets it and re-runs itself). ``--floor``
adds ``python_floor``, a Python game whose own steps cost next to nothing, shaped as a
round of ``chkobba`` (a chance node for the dealer, 39 draws among the cards left, then
38 decisions among 4 actions): what OpenSpiel's plumbing of a Python game (its C++ state
calling back into Python) and this loop cost alone, the ceiling of any Python game here.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from collections.abc import Callable

import pyspiel

import chkobba.rl.openspiel  # noqa: F401  # registers "chkobba"
from chkobba.search import fast

_FLOOR_TYPE = pyspiel.GameType(
    short_name="python_floor",
    long_name="The cheapest Python game shaped as a round of chkobba",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=2,
    min_num_players=2,
    provides_information_state_string=False,
    provides_information_state_tensor=False,
    provides_observation_string=False,
    provides_observation_tensor=False,
    parameter_specification={},
)
_FLOOR_DRAWS = [[(c, 1.0 / n) for c in range(n)] for n in range(41)]
_FLOOR_LEGAL = [0, 3, 7, 12]


class FloorGame(pyspiel.Game):  # type: ignore[misc]
    """``python_floor``: 2 players, 83 actions, a dealer and 39 draws, then 38 decisions."""

    def __init__(self, params: dict[str, object] | None = None) -> None:
        info = pyspiel.GameInfo(num_distinct_actions=83, max_chance_outcomes=40,
                                num_players=2, min_utility=-1.0, max_utility=1.0,
                                utility_sum=0.0, max_game_length=78)
        super().__init__(_FLOOR_TYPE, info, params or {})

    def new_initial_state(self) -> FloorState:
        """Before the dealer is drawn."""
        return FloorState(self)


class _Counter:
    """A floor state's data: slotted, as a pybind11 instance's own attributes are slow."""

    __slots__ = ("steps", "to_move")

    def __init__(self) -> None:
        self.steps = 0
        self.to_move = int(pyspiel.PlayerId.CHANCE)


class FloorState(pyspiel.State):  # type: ignore[misc]
    """Each step is a counter: the draws' outcomes are the lowest cards (a list made
    again each time, as a game's own would be), the decisions 4 fixed actions."""

    def __init__(self, game: FloorGame) -> None:
        super().__init__(game)
        self.data = _Counter()

    def current_player(self) -> int:
        return self.data.to_move

    def is_terminal(self) -> bool:
        return self.data.steps >= 78

    def is_chance_node(self) -> bool:
        return self.data.steps < 40

    def chance_outcomes(self) -> list[tuple[int, float]]:
        steps = self.data.steps
        return list(_FLOOR_DRAWS[2 if steps == 0 else 41 - steps])

    def legal_actions(self, player: int | None = None) -> list[int]:
        return [] if self.data.steps >= 78 else list(_FLOOR_LEGAL)

    def _apply_action(self, action: int) -> None:
        data = self.data
        data.steps += 1
        steps = data.steps
        if steps >= 78:
            data.to_move = int(pyspiel.PlayerId.TERMINAL)
        elif steps >= 40:
            data.to_move = steps & 1

    def returns(self) -> list[float]:
        return [0.0, 0.0]

    def _action_to_string(self, player: int, action: int) -> str:
        return str(action)

    def __str__(self) -> str:
        return f"step {self.data.steps}"


def tensor_of(game: pyspiel.Game, infostate: bool = False) -> str | None:
    """The tensor a player of ``game`` reads: its observation tensor, or its information
    state tensor where it has no observation tensor (``hearts``); with ``infostate`` its
    information state tensor, None if it has none (``skat``)."""
    kind = game.get_type()
    if infostate:
        return "information_state_tensor" if kind.provides_information_state_tensor else None
    if kind.provides_observation_tensor:
        return "observation_tensor"
    if kind.provides_information_state_tensor:
        return "information_state_tensor"
    raise SystemExit(f"{kind.short_name} has no tensor: measure it without --tensor")


Reader = Callable[[pyspiel.State, int], list[float]]


def reader_of(game: pyspiel.Game, tensor: str, cpp: bool = False) -> Reader:
    """The function an RL loop's ``state.<tensor>(player)`` calls on a state of ``game``
    (the state's own class's, a Python game's where it answers in Python), or with
    ``cpp`` OpenSpiel's C++ one whatever the game."""
    cls = pyspiel.State if cpp else type(game.new_initial_state())
    return getattr(cls, tensor)  # type: ignore[no-any-return]


def run(game: pyspiel.Game, seconds: float, seed: int, read: Reader | None) -> float:
    """Decisions per CPU second over at least ``seconds`` of CPU time (whole games),
    reading the player's tensor by ``read`` at each decision if given."""
    rng = random.Random(seed)
    decisions = 0
    start = time.process_time()
    end = start + seconds
    while True:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
                continue
            if read is not None:
                read(state, state.current_player())
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
            decisions += 1
        state.returns()
        now = time.process_time()
        if now >= end:
            return decisions / (now - start)


def main() -> None:
    """Measure and print."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=3.0, help="CPU time of one run")
    ap.add_argument("--runs", type=int, default=5, help="runs per game (median printed)")
    kind = ap.add_mutually_exclusive_group()
    kind.add_argument("--tensor", action="store_true",
                      help="read the player's tensor too (observation, else information state)")
    kind.add_argument("--infostate", action="store_true",
                      help="read the player's information state tensor too (skat left out)")
    ap.add_argument("--pure", action="store_true", help="the game without the kernel")
    ap.add_argument("--preset", default="chkobba", help="the chkobba game's preset")
    ap.add_argument("--floor", action="store_true",
                    help="add python_floor, the cheapest Python game of the same shape")
    args = ap.parse_args()
    if args.pure and os.environ.get("CHKOBBA_PURE") != "1":
        os.environ["CHKOBBA_PURE"] = "1"
        os.execv(sys.executable, [sys.executable, *sys.argv])
    ours = f"chkobba ({args.preset})"
    chkobba = pyspiel.load_game("chkobba", {"preset": args.preset})
    games = {ours: chkobba, "hearts": pyspiel.load_game("hearts"),
             "skat": pyspiel.load_game("skat")}
    reading = args.tensor or args.infostate
    if args.floor:
        if reading:
            ap.error("python_floor has no tensor: --floor goes without --tensor, --infostate")
        pyspiel.register_game(_FLOOR_TYPE, FloorGame)
        games["python_floor"] = pyspiel.load_game("python_floor")
    tensors = {name: tensor_of(game, args.infostate) if reading else None
               for name, game in games.items()}
    games = {name: game for name, game in games.items() if not reading or tensors[name]}
    readers: dict[str, Reader | None] = {}
    for name, game in games.items():
        t = tensors[name]
        readers[name] = None if t is None else reader_of(game, t)
    cpp = f"{ours}, C++ route"
    if reading:
        games[cpp] = chkobba
        tensors[cpp] = tensors[ours]
        readers[cpp] = reader_of(chkobba, str(tensors[ours]), cpp=True)
    start_load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    rates: dict[str, list[float]] = {name: [] for name in games}
    # Interleaved, so that a change of load touches every game alike.
    for i in range(args.runs):
        for name, game in games.items():
            rates[name].append(run(game, args.seconds, i, readers[name]))
    end_load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    what = "decision + the player's tensor" if reading else "decision"
    print(f"OpenSpiel random play, {what} per CPU second, median of {args.runs} runs of "
          f"{args.seconds}s (min, max); chkobba on {fast.BACKEND}; load average "
          f"{start_load} at the start, {end_load} at the end, {os.cpu_count()} cores")
    if reading:
        print("tensors read: " + ", ".join(f"{name} {tensors[name]}" for name in games))
    medians = {name: statistics.median(r) for name, r in rates.items()}
    for name, r in rates.items():
        print(f"{name:26s} {medians[name]:10,.0f}  ({min(r):,.0f}, {max(r):,.0f})")
    for mine in (ours, cpp) if reading else (ours,):
        ratios = [f"/ {other}: {medians[mine] / medians[other]:.2f}x"
                  for other in ("hearts", "skat") if other in medians]
        print(f"{mine} " + "; ".join(ratios))
    if args.floor:
        print(f"python_floor / hearts: {medians['python_floor'] / medians['hearts']:.2f}x; "
              f"{ours} / python_floor: {medians[ours] / medians['python_floor']:.2f}x")


if __name__ == "__main__":
    main()
