"""Playing a duel's pairs on a Ray cluster (``--ray ADDRESS``), an optional extra.

Ray replaces the process pool and nothing else: the same chunks of pair
indices go to :func:`~chkobba.duel.play.play_pairs`, now as Ray tasks, and the
outcomes are sorted back into pair order, so a duel gives the same result on a
cluster as on one core. Ray is imported only when asked for; install it with
``pip install 'chkobba[ray]'``.

An address is one of:

- ``local``: start a Ray instance in this process (its workers share this
  Python environment), and stop it at the end;
- ``auto``: the cluster started on this machine with ``ray start --head``;
- ``HOST:PORT``: a cluster's head node (its GCS port, 6379 by default);
- ``ray://HOST:PORT``: a cluster through the Ray Client (port 10001 by default).

On a cluster the workers run the driver's own copy of :mod:`chkobba`, shipped
with the job (``runtime_env={"py_modules": [<chkobba's directory>]}``); the nodes need only
Python 3.11 and Ray. If the process is already connected to Ray (it called
``ray.init``), that connection is used whatever the address, and left open.
"""

from __future__ import annotations

import importlib
import logging
import socket
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType
from typing import Any

import chkobba
from chkobba.duel.play import DuelSpec, PairOutcome, play_pairs

LOCAL = "local"
"""The address that starts a Ray instance in this process."""

AUTO = "auto"
"""The address of the cluster started on this machine by ``ray start --head``."""

INSTALL_HINT = "pip install 'chkobba[ray]' (in a checkout: pip install -e '.[ray]')"
"""How to install the optional Ray extra."""

CONNECT_TIMEOUT = 5.0
"""Seconds to wait for a cluster's port to answer before calling it unreachable."""


class RayError(RuntimeError):
    """Ray is not installed, its cluster cannot be reached, or a Ray worker was lost."""


def import_ray() -> ModuleType:
    """The ``ray`` module, or a :class:`RayError` telling how to install it."""
    try:
        return importlib.import_module("ray")
    except ImportError:
        raise RayError(f"--ray needs Ray, which is not installed: {INSTALL_HINT}") from None


def head_of(address: str) -> tuple[str, int] | None:
    """The host and port to reach for ``address`` (``None`` for ``local`` and ``auto``).

    Raises :class:`RayError` for anything that is not a Ray address.
    """
    if address in (LOCAL, AUTO):
        return None
    rest = address.removeprefix("ray://")
    host, colon, port = rest.rpartition(":")
    host = host.strip("[]")  # an IPv6 host is written [::1]:6379
    if not colon or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise RayError(
            f"not a Ray address: {address!r} (use local, auto, HOST:PORT or ray://HOST:PORT)"
        )
    return host, int(port)


def check_reachable(address: str) -> None:
    """Raise :class:`RayError` unless ``address``'s head node answers on its port.

    ``ray.init`` itself waits 30 seconds (Ray Client) or two minutes and then
    exits the process (a GCS address) when nothing answers, so the port is
    tried first.
    """
    head = head_of(address)
    if head is None:
        return
    try:
        with socket.create_connection(head, timeout=CONNECT_TIMEOUT):
            pass
    except OSError as e:
        raise RayError(f"cannot reach the Ray cluster at {address}: {e}") from None


@contextmanager
def ray_session(address: str, cpus: int | None = None) -> Iterator[ModuleType]:
    """Connected to Ray at ``address`` (see the module's note) for the ``with`` block.

    ``cpus`` is how many the ``local`` instance gets (default: every core). The
    connection made here is closed at the end; one made before is reused.
    """
    ray = import_ray()
    if ray.is_initialized():
        yield ray
        return
    check_reachable(address)
    options: dict[str, Any] = {"logging_level": logging.WARNING}
    if address == LOCAL:
        # address="local": a new instance even when a cluster runs on this machine.
        options |= {"address": LOCAL, "num_cpus": cpus, "include_dashboard": False}
    else:
        # A cluster's nodes run the driver's own copy of the engine and players.
        # A directory, not the module: the Ray Client pickles the runtime_env.
        package = str(Path(chkobba.__file__).parent)
        options |= {"address": address, "runtime_env": {"py_modules": [package]}}
    try:
        ray.init(**options)
    except (ConnectionError, ValueError, RuntimeError, TimeoutError, SystemExit) as e:
        # SystemExit: ray.init exits the process when a GCS address never answers.
        hint = {
            LOCAL: "",
            AUTO: " (start one with `ray start --head`, or use local)",
        }.get(
            address,
            " (a cluster that requires a token needs RAY_AUTH_MODE=token "
            "and RAY_AUTH_TOKEN set here)",
        )
        raise RayError(f"cannot connect to Ray at {address}: {e}{hint}") from None
    try:
        yield ray
    finally:
        ray.shutdown()


def cluster_cpus() -> int:
    """How many CPUs the connected Ray cluster has (at least 1)."""
    ray = import_ray()
    return max(1, int(ray.cluster_resources().get("CPU", 1)))


def play_on_ray(
    spec: DuelSpec,
    chunks: Sequence[Sequence[int]],
    progress: Callable[[int], None] | None = None,
) -> list[PairOutcome]:
    """Play each chunk of pair indices as a Ray task; the outcomes in pair order.

    Needs a connection (:func:`ray_session`). ``progress`` is told each chunk's
    size as it finishes. A player's error in a task is raised here as itself
    (an :class:`~chkobba.duel.play.AgentMoveError`, say); a lost worker or node
    is a :class:`RayError`.
    """
    ray = import_ray()
    task = ray.remote(play_pairs)
    spec_ref = ray.put(spec)
    pending: dict[Any, int] = {task.remote(spec_ref, list(c)): len(c) for c in chunks}
    results: list[PairOutcome] = []
    # On an error the other tasks are left to finish and their results dropped, not
    # cancelled: in Ray (seen with 2.60) a cancel that races with a task's
    # completion fails a check inside Ray and aborts this whole process
    # ("Tried to complete task that was not pending", ray-project/ray#54846).
    try:
        while pending:
            done, _ = ray.wait(list(pending), num_returns=1)
            for ref in done:
                results.extend(ray.get(ref))
                n = pending.pop(ref)
                if progress is not None:
                    progress(n)
    except ray.exceptions.RayTaskError as e:
        cause = getattr(e, "cause", None)
        if isinstance(cause, Exception):
            raise cause from None
        raise RayError(f"a Ray task failed: {e}") from None
    except ray.exceptions.RayError as e:
        raise RayError(f"Ray lost a task: {e}") from None
    results.sort(key=lambda p: p.index)
    return results
