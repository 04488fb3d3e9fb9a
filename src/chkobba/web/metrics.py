"""``/metrics``: what a server is doing, in Prometheus' text format (docs/deploy.md).

Each application has a registry of its own (tests run many in one process). The
gauges are read from the hub when scraped; the counters and the histogram are fed
by the journal (every stored move) and the WebSocket (each person's move, from the
message's arrival to its acknowledgement).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any, Final

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.core import CounterMetricFamily, Metric
from prometheus_client.exposition import CONTENT_TYPE_LATEST
from prometheus_client.registry import Collector

from chkobba.store import Finish, MoveRow
from chkobba.web.hub import Hub

LATENCY_BUCKETS: Final = (
    0.001,
    0.0025,
    0.005,
    0.01,
    0.025,
    0.05,
    0.1,
    0.25,
    0.5,
    1.0,
    2.5,
    5.0,
    10.0,
)
"""Seconds: a move is acknowledged in a few milliseconds, unless something is wrong."""


class LeaseRenewals(Collector):
    """A cluster worker's lease renewals, counted by its ownership (web/cluster.py): read
    when scraped."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub

    def collect(self) -> Iterable[Metric]:
        """The renewals done and failed so far (counters: they only grow)."""
        cluster = self.hub.cluster
        if cluster is None:
            return
        yield CounterMetricFamily(
            "chkobba_lease_renewals", "Lease renewals done (one statement for every game held)",
            value=cluster.renewals,
        )  # fmt: skip
        yield CounterMetricFamily(
            "chkobba_lease_renewal_failures", "Lease renewals that failed",
            value=cluster.renewal_failures,
        )  # fmt: skip


class Metrics:
    """The server's metrics, for one hub."""

    content_type: Final = CONTENT_TYPE_LATEST

    def __init__(self, hub: Hub, worker: str) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        r = self.registry
        labels = {"worker": worker}
        info = Gauge("chkobba_worker", "This worker (always 1), by name", ["worker"], registry=r)
        info.labels(**labels).set(1)
        Gauge("chkobba_games", "Games held in memory", registry=r).set_function(
            lambda: len(hub.rooms)
        )
        Gauge(
            "chkobba_games_owned", "Unfinished games this worker holds the lease of", registry=r
        ).set_function(lambda: len(hub.cluster.owned) if hub.cluster is not None else 0)
        Gauge("chkobba_connections", "Open WebSocket connections", registry=r).set_function(
            lambda: sum(len(room.conns) for room in hub.rooms.values())
        )
        # A counter: it only grows, so rate() over it survives a scrape missed.
        self.adopted = Counter(
            "chkobba_games_adopted",
            "Games taken over (loaded on demand, their lock taken) since the worker started",
            registry=r,
        )
        hub.on_adopted.append(self.adopted.inc)
        r.register(LeaseRenewals(hub))
        self.moves = Counter(
            "chkobba_moves", "Moves stored (people's and the computer's)", registry=r
        )
        self.finished = Counter("chkobba_games_finished", "Games ended", registry=r)
        self.latency = Histogram(
            "chkobba_move_latency_seconds",
            "From a person's move arriving to its acknowledgement (stored)",
            buckets=LATENCY_BUCKETS,
            registry=r,
        )

    def count_writes(
        self, write: Callable[..., None]
    ) -> Callable[[Sequence[MoveRow], Sequence[Finish]], None]:
        """``write`` (the journal's), counting what it stored."""

        def counted(rows: Sequence[MoveRow], finishes: Sequence[Finish] = ()) -> None:
            write(rows, finishes)
            self.moves.inc(len(rows))
            self.finished.inc(len(finishes))

        return counted

    def timer(self) -> Any:
        """A context manager observing how long a move took."""
        return self.latency.time()

    def render(self) -> bytes:
        """The text exposition of every metric."""
        return generate_latest(self.registry)
