"""The OpenSpiel game's tensors written by the compiled kernel's round (``SpielRound.observe``
and ``history``) against the ones the engine's round writes in Python: the same floats,
on random states of every preset at every table the game seats, for the observation, the
information state and their public views, and with the whole match's information state;
and the pure fallback (no kernel at all) still gives them."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from typing import Any

import numpy as np
import pytest

pytest.importorskip("pyspiel", reason="OpenSpiel missing: pip install 'chkobba[openspiel]'")

import pyspiel

from chkobba.fishing.rules import PRESETS
from chkobba.rl import openspiel as osp
from chkobba.rl.spaces import HISTORY_ENTRY, KEEP, OBS_SIZE

needs_kernel = pytest.mark.skipif(
    not osp._KERNEL_TENSORS or not pyspiel.load_game("chkobba").new_initial_state().fast,
    reason="the compiled kernel is not built (or CHKOBBA_PURE is set)",
)

_SEATINGS = {"2": (2, False), "3": (3, False), "4": (4, False), "2v2": (4, True)}


def _tables(name: str) -> list[dict[str, Any]]:
    """The game's parameters for each table ``name`` is played at (six seats excepted:
    the game seats 2 to 4)."""
    return [{"preset": name, "players": _SEATINGS[s][0], "teams": _SEATINGS[s][1]}
            for s in PRESETS[name].seatings if s in _SEATINGS]


def _observers(game: Any) -> list[Any]:
    """The observers of the other kinds: the public views (of the observation and of the
    information state) and the factored private parts."""
    kinds = [pyspiel.IIGObservationType(perfect_recall=recall, public_info=public,
                                        private_info=info)
             for recall in (False, True)
             for public, info in ((True, pyspiel.PrivateInfoType.NONE),
                                  (False, pyspiel.PrivateInfoType.SINGLE_PLAYER))]
    return [game.make_py_observer(kind) for kind in kinds]


def _tensors(state: Any, players: int, observers: list[Any]) -> list[bytes]:
    """Every player's observation and information state tensors, and the other observers'
    tensors, as bytes (bit for bit)."""
    out = []
    for p in range(players):
        for t in (state.observation_tensor(p), state.information_state_tensor(p)):
            assert type(t) is list and all(type(x) is float for x in t[:5])
            out.append(np.asarray(t, np.float32).tobytes())
        for observer in observers:
            observer.set_from(state, p)
            out.append(observer.tensor.tobytes())
    return out


def _walk(params: dict[str, Any], seed: int, every: float, monkeypatch: pytest.MonkeyPatch) -> int:
    """Play one random game on a kernel state and an engine state side by side, comparing
    every player's tensors at random decisions; how many were compared."""
    game = pyspiel.load_game("chkobba", params)
    players = game.num_players()
    rng = random.Random(seed)
    observers = _observers(game)
    fast = game.new_initial_state()
    monkeypatch.setattr(osp, "FAST", False)
    pure = game.new_initial_state()
    monkeypatch.setattr(osp, "FAST", True)
    assert fast.fast and not pure.fast
    compared = 0
    while not pure.is_terminal():
        legal = pure.legal_actions()
        cut = KEEP in legal  # the cutter sees the top card: always compared
        if not pure.is_chance_node() and (cut or rng.random() < every):
            # The other views at some decisions only (the engine's are slow to write).
            others = observers if cut or rng.random() < 0.2 else []
            assert _tensors(fast, players, others) == _tensors(pure, players, others)
            compared += 1
            if rng.random() < 0.1:
                fast = fast.clone()  # the kernel's history goes with its round
        action = rng.choice(legal)
        fast.apply_action(action)
        pure.apply_action(action)
    assert fast.is_terminal()
    assert _tensors(fast, players, observers) == _tensors(pure, players, observers)
    return compared + 1


@needs_kernel
@pytest.mark.parametrize("name", sorted(PRESETS))
def test_the_kernels_tensors_are_the_engines_at_every_table(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """At every table of every preset, along random games (void deals and the cut
    included where they come), the kernel writes every player's observation and
    information state tensors, and their public views, exactly as the engine's round does."""
    compared = 0
    for i, params in enumerate(_tables(name)):
        for seed in range(2):
            compared += _walk(params, 100 * i + 10 * seed + len(name), 0.4, monkeypatch)
    assert compared > 20 * len(_tables(name))


@needs_kernel
@pytest.mark.parametrize("name", ["chkobba", "scopa", "cirulla", "scopone"])
def test_the_kernels_match_wide_information_state_is_the_engines(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With ``infostate="match"`` the earlier rounds' rows too (their histories and the
    cut card each showed its cutter, void deals left out), round after round."""
    params: dict[str, Any] = {**_tables(name)[-1], "episode": "match", "max_rounds": 3,
                              "infostate": "match"}
    _walk(params, 7, 0.2, monkeypatch)


@needs_kernel
def test_the_c_route_and_the_observer_give_the_same_tensor() -> None:
    """OpenSpiel's own route (its C++ ``ObservationTensor`` through the game's observer)
    and an observer made by ``make_observation`` read the same floats as the state's
    ``observation_tensor``, which answers in Python."""
    from open_spiel.python.observation import make_observation

    game = pyspiel.load_game("chkobba", {"preset": "scopa", "players": 3})
    infostate = make_observation(game, pyspiel.IIGObservationType(perfect_recall=True))
    state = game.new_initial_state()
    rng = random.Random(3)
    checked = 0
    while not state.is_terminal():
        if not state.is_chance_node():
            for p in range(3):
                own = state.observation_tensor(p)
                assert pyspiel.State.observation_tensor(state, p) == own
                full = state.information_state_tensor(p)
                assert pyspiel.State.information_state_tensor(state, p) == full
                infostate.set_from(state, p)
                assert infostate.tensor.tolist() == full
                assert full[:OBS_SIZE] == own
            checked += 1
        state.apply_action(rng.choice(state.legal_actions()))
    assert checked > 30


def test_a_tensor_is_a_players() -> None:
    """The player is checked as OpenSpiel checks it; without one, the player to move's."""
    game = pyspiel.load_game("chkobba")
    state = game.new_initial_state()
    assert state.observation_tensor(1) == [0.0] * OBS_SIZE  # nothing dealt yet
    for bad in (-1, 2):
        with pytest.raises(pyspiel.SpielError, match="not among 0 to 1"):
            state.observation_tensor(bad)
        with pytest.raises(pyspiel.SpielError, match="not among 0 to 1"):
            state.information_state_tensor(bad)
    with pytest.raises(pyspiel.SpielError):  # a chance node: nobody to move
        state.observation_tensor()
    rng = random.Random(1)
    while state.is_chance_node():
        state.apply_action(rng.choice(state.legal_actions()))
    p = state.current_player()
    assert state.observation_tensor() == state.observation_tensor(p)
    assert state.information_state_tensor() == state.information_state_tensor(p)
    assert state.observation_tensor() != state.observation_tensor(1 - p)


@needs_kernel
def test_float_list_is_tolist() -> None:
    """The kernel's list of a float32 tensor is ``tolist()``'s, bit for bit (0.0 and -0.0
    told apart); anything but a contiguous float32 buffer is refused."""
    rng = np.random.default_rng(5)
    values = np.array([0.0, -0.0, 1.0, -1.0, 0.1, 0.3, 1e-30, 4.0, np.inf], np.float32)
    for n in (0, 1, 868, 3172):
        t = rng.choice(values, n).astype(np.float32)
        got = osp._fastcore.float_list(t)
        want = t.tolist()
        assert [x.hex() for x in got] == [x.hex() for x in want]
    with pytest.raises(TypeError, match="float32"):
        osp._fastcore.float_list(np.zeros(4, np.float64))
    with pytest.raises((TypeError, ValueError, BufferError)):
        osp._fastcore.float_list(np.zeros(8, np.float32)[::2])
    assert osp.float_list is osp._fastcore.float_list


@needs_kernel
def test_the_kernels_writers_refuse_what_does_not_fit() -> None:
    """``observe`` takes exactly the vector's 868 floats, ``history`` whole rows, enough
    for the round's history, and a seat of the table."""
    game = pyspiel.load_game("chkobba")
    state = game.new_initial_state()
    rng = random.Random(2)
    while state.is_chance_node() or len(state.history()) < 60:
        state.apply_action(rng.choice(state.legal_actions()))
    core = state.data.deals[-1].core
    with pytest.raises(ValueError, match="868"):
        core.observe(np.zeros(OBS_SIZE - 1, np.float32), 0, [0, 0], 21)
    with pytest.raises(ValueError, match="seat"):
        core.observe(np.zeros(OBS_SIZE, np.float32), 2, [0, 0], 21)
    with pytest.raises(ValueError, match="totals"):
        core.observe(np.zeros(OBS_SIZE, np.float32), 0, [0], 21)
    with pytest.raises(ValueError, match="whole rows"):
        core.history(np.zeros(HISTORY_ENTRY + 1, np.float32), 0)
    with pytest.raises(ValueError, match="at least"):
        core.history(np.zeros(HISTORY_ENTRY, np.float32), 0)  # a history of several entries
    with pytest.raises(ValueError, match="seat"):
        core.history(np.zeros(40 * HISTORY_ENTRY, np.float32), -1)
    rows = np.full((40, HISTORY_ENTRY), 7.0, np.float32)
    core.history(rows, 0)
    played = len(state.round.history)  # the engine's round, caught up: its turns
    assert played > 1 and rows[played:].sum() == 0 and rows[:played].any(axis=1).all()


_FINGERPRINT = """
import hashlib, random, sys
import numpy as np, pyspiel
from chkobba.rl import openspiel as osp
game = pyspiel.load_game("chkobba", {"preset": sys.argv[1], "players": int(sys.argv[2]),
                                     "episode": "match", "max_rounds": 2, "infostate": "match"})
rng = random.Random(11)
state = game.new_initial_state()
h = hashlib.sha256()
while not state.is_terminal():
    if not state.is_chance_node() and rng.random() < 0.3:
        for p in range(game.num_players()):
            h.update(np.asarray(state.observation_tensor(p), np.float32).tobytes())
            h.update(np.asarray(state.information_state_tensor(p), np.float32).tobytes())
    state.apply_action(rng.choice(state.legal_actions()))
print(state.data.fast, osp.float_list is osp._tolist, h.hexdigest())
"""


@needs_kernel
def test_the_pure_fallback_writes_the_same_tensors() -> None:
    """With ``CHKOBBA_PURE=1`` (as where the kernel is not built) the game plays and its
    tensors are written by the engine, the same floats as the kernel's along the same game."""
    runs = {}
    for pure in (False, True):
        env = {k: v for k, v in os.environ.items() if k != "CHKOBBA_PURE"}
        if pure:
            env["CHKOBBA_PURE"] = "1"
        out = subprocess.run([sys.executable, "-c", _FINGERPRINT, "chkobba", "2"], env=env,
                             capture_output=True, text=True, check=True, timeout=120)
        runs[pure] = out.stdout.split()
    assert runs[False][:2] == ["True", "False"]  # the kernel's rounds and float_list
    assert runs[True][:2] == ["False", "True"]  # the engine's rounds, numpy's tolist
    assert runs[False][2] == runs[True][2]
