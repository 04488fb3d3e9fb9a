"""Duels on Ray (``--ray ADDRESS``): the same results as on local processes, clear errors.

The tests that need Ray share one local instance (2 CPUs), started when the
first of them runs and shut down at the end of the module; those that check a
connection's start or failure run while no instance is connected.
"""

from __future__ import annotations

import importlib.util
import json
import logging
import socket
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from chkobba.agents import AgentError
from chkobba.cli import main
from chkobba.duel import run_duel, run_tournament
from chkobba.duel.play import DuelSpec
from chkobba.duel.ray_backend import RayError, head_of, play_on_ray, ray_session
from chkobba.fishing.rules import CHKOBBA, PRESETS

HAS_RAY = importlib.util.find_spec("ray") is not None
needs_ray = pytest.mark.skipif(
    not HAS_RAY, reason="Ray is not installed (the optional extra: pip install -e '.[ray]')"
)


def without_timing(result: dict[str, Any]) -> dict[str, Any]:
    """A duel's JSON less the only part that changes between runs."""
    return {k: v for k, v in result.items() if k != "timing_ms"}


def closed_port() -> int:
    """A local port that nothing listens on (it was free a moment ago)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
    return port


@pytest.fixture(scope="module")
def _ray_module() -> Iterator[None]:
    yield
    if HAS_RAY:
        import ray

        ray.shutdown()


@pytest.fixture
def local_ray(_ray_module: None) -> None:
    """The module's local Ray instance, started on first use."""
    import ray

    if not ray.is_initialized():
        ray.init(
            address="local", num_cpus=2, include_dashboard=False, logging_level=logging.WARNING
        )


@pytest.fixture
def disconnected() -> None:
    """No Ray connection in this process, so the code under test makes its own."""
    import ray

    ray.shutdown()


# -- addresses and errors -----------------------------------------------------------


@pytest.mark.parametrize(
    ("address", "head"),
    [
        ("local", None),
        ("auto", None),
        ("head.example:6379", ("head.example", 6379)),
        ("ray://10.0.0.5:10001", ("10.0.0.5", 10001)),
        ("[::1]:6379", ("::1", 6379)),
    ],
)
def test_head_of_an_address(address: str, head: tuple[str, int] | None) -> None:
    assert head_of(address) == head


@pytest.mark.parametrize("address", ["nonsense", "ray://:5", "host:", "host:port", "h:70000"])
def test_head_of_a_bad_address_is_a_clear_error(address: str) -> None:
    with pytest.raises(RayError, match=r"not a Ray address.*use local, auto, HOST:PORT"):
        head_of(address)


@pytest.mark.parametrize("command", ["duel", "tournament"])
def test_missing_ray_tells_how_to_install_it(command: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray now raises ImportError
    args = [command, "greedy", "random", "--pairs", "2", "--ray", "local"]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 1, result.output
    assert isinstance(result.exception, SystemExit)  # a click error, not a traceback
    assert "Ray, which is not installed" in result.output
    assert "pip install 'chkobba[ray]'" in result.output


@needs_ray
@pytest.mark.parametrize("scheme", ["", "ray://"])
@pytest.mark.parametrize("command", ["duel", "tournament"])
def test_unreachable_cluster_is_a_clear_error(
    scheme: str, command: str, disconnected: None
) -> None:
    address = f"{scheme}127.0.0.1:{closed_port()}"
    result = CliRunner().invoke(main, [command, "greedy", "random", "--ray", address])
    assert result.exit_code == 1, result.output
    assert isinstance(result.exception, SystemExit)
    assert f"cannot reach the Ray cluster at {address}" in result.output


@needs_ray
def test_bad_address_is_a_clear_error(disconnected: None) -> None:
    result = CliRunner().invoke(main, ["duel", "greedy", "random", "--ray", "nowhere"])
    assert result.exit_code == 1
    assert "not a Ray address: 'nowhere'" in result.output


@needs_ray
def test_cli_ray_local_starts_and_stops_an_instance(disconnected: None) -> None:
    import ray

    args = ["duel", "greedy", "random", "--pairs", "12", "--seed", "5", "--json"]
    on_ray = CliRunner().invoke(main, [*args, "--ray", "local", "--jobs", "2"])
    assert on_ray.exit_code == 0, on_ray.output
    assert not ray.is_initialized()  # the instance it started is gone
    here = CliRunner().invoke(main, [*args, "--jobs", "1"])
    assert without_timing(json.loads(on_ray.stdout)) == without_timing(json.loads(here.stdout))


# -- the same results as local processes -------------------------------------------------


@needs_ray
def test_duel_on_ray_is_the_duel_on_processes(local_ray: None) -> None:
    done: list[int] = []
    on_ray = run_duel("greedy", "random", 20, seed=3, ray="local", progress=done.append)
    # Not a local process pool beside it: forking workers from a process whose Ray
    # threads run can leave a worker deadlocked on a lock it inherited held (it hung a
    # CI run once). tests/test_duel.py checks that the pool plays what one process plays.
    alone = run_duel("greedy", "random", 20, seed=3, jobs=1)
    assert without_timing(on_ray.to_json()) == without_timing(alone.to_json())
    assert on_ray.pair_margins == alone.pair_margins
    # 2 CPUs: chunks of ceil(20 / 8) = 3 pairs, reported as each one finishes.
    assert sorted(done) == [2, 3, 3, 3, 3, 3, 3]
    assert on_ray.a_timing.moves == alone.a_timing.moves


@needs_ray
def test_team_matches_on_ray(local_ray: None) -> None:
    kw: dict[str, Any] = {"seed": 8, "players": 4, "unit": "match", "target": 11}
    on_ray = run_duel("random", "greedy", 4, ray="local", **kw)
    alone = run_duel("random", "greedy", 4, jobs=1, **kw)
    assert without_timing(on_ray.to_json()) == without_timing(alone.to_json())
    assert on_ray.rounds > 8


@needs_ray
@pytest.mark.parametrize(
    "kw",
    [
        {"game_name": "touti"},
        {"rules": PRESETS["scopone"]},
        {"players": 3, "rules": PRESETS["escoba"]},
    ],
)
def test_touti_and_presets_on_ray(local_ray: None, kw: dict[str, Any]) -> None:
    a, b = ("technique", "random") if kw.get("game_name") == "touti" else ("greedy", "random")
    on_ray = run_duel(a, b, 4, seed=6, ray="local", **kw)
    alone = run_duel(a, b, 4, seed=6, jobs=1, **kw)
    assert without_timing(on_ray.to_json()) == without_timing(alone.to_json())


@needs_ray
def test_saved_games_on_ray(local_ray: None, tmp_path: Path) -> None:
    run_duel("greedy", "random", 3, seed=2, ray="local", save_dir=tmp_path / "ray")
    run_duel("greedy", "random", 3, seed=2, jobs=1, save_dir=tmp_path / "here")
    names = sorted(p.name for p in (tmp_path / "here").iterdir())
    assert len(names) == 6
    assert sorted(p.name for p in (tmp_path / "ray").iterdir()) == names
    for name in names:
        assert (tmp_path / "ray" / name).read_text() == (tmp_path / "here" / name).read_text()


@needs_ray
def test_tournament_on_ray_via_the_cli(local_ray: None) -> None:
    args = ["tournament", "random", "greedy", "heuristic", "--pairs", "6", "--json"]
    on_ray = CliRunner().invoke(main, [*args, "--ray", "local"])
    assert on_ray.exit_code == 0, on_ray.output
    here = run_tournament(["random", "greedy", "heuristic"], 6, jobs=1).to_json()
    got = json.loads(on_ray.stdout)
    assert got["table"] == here["table"]
    assert [without_timing(d) for d in got["duels"]] == [without_timing(d) for d in here["duels"]]


@needs_ray
def test_a_task_error_is_raised_as_itself(local_ray: None) -> None:
    # The player's name is checked in the worker, which raises AgentError there.
    spec = DuelSpec("nobody", "random", 2, "round", 0, CHKOBBA)
    with pytest.raises(AgentError, match="nobody"):
        play_on_ray(spec, [[0], [1]])


@needs_ray
def test_an_open_connection_is_reused_and_left_open(local_ray: None) -> None:
    import ray

    with ray_session("ray://unused.invalid:1") as r:
        assert r is ray
    assert ray.is_initialized()
