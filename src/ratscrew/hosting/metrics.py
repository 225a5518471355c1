"""The worker's figures in Prometheus's text format, read from the plain counters (``web/tally.py``) and the
rooms at the moment of the scrape, so that nothing on a room's path calls into the metrics library.

Each worker answers for itself on its own port (``/metrics``); Prometheus scrapes every worker, and the
``worker`` label tells them apart. A worker restarted after a crash starts its counters again from zero,
which Prometheus's ``rate()`` takes in its stride.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from prometheus_client import CONTENT_TYPE_LATEST, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, HistogramMetricFamily, Metric
from prometheus_client.registry import Collector, CollectorRegistry

from ratscrew.rooms.runner import Rooms
from ratscrew.web.tally import Histogram, Tally

CONTENT_TYPE = CONTENT_TYPE_LATEST


class WorkerCollector(Collector):
    def __init__(
        self,
        worker: int,
        tally: Tally,
        rooms: Callable[[], Rooms | None],
        journal_backlog: Callable[[], int],
        redis_away: Callable[[], bool] | None = None,  # None: no Redis to be away
    ) -> None:
        self.worker = str(worker)
        self.tally = tally
        self.rooms = rooms
        self.journal_backlog = journal_backlog
        self.redis_away = redis_away

    def collect(self) -> Iterator[Metric]:
        tally, labels = self.tally, [self.worker]
        rooms = self.rooms()
        yield _gauge("ratscrew_rooms", "Rooms in this worker's memory", labels, len(rooms.rooms) if rooms else 0)
        yield _gauge("ratscrew_sockets", "Room websockets open on this worker", labels, tally.sockets)
        yield _gauge(
            "ratscrew_journal_backlog",
            "Journal writes handed over and not yet committed",
            labels,
            self.journal_backlog(),
        )
        if self.redis_away is not None:
            yield _gauge(
                "ratscrew_redis_away",
                "1 while this worker cannot reach Redis and counts its share of each limit alone",
                labels,
                int(self.redis_away()),
            )
        received = CounterMetricFamily("ratscrew_messages_received", "Websocket messages from pages", labels=["worker"])
        received.add_metric(labels, tally.messages_in)
        yield received
        sent = CounterMetricFamily("ratscrew_messages_sent", "Websocket messages to pages", labels=["worker"])
        sent.add_metric(labels, tally.messages_out)
        yield sent
        refused = CounterMetricFamily(
            "ratscrew_refusals", "Requests and messages refused, by reason", labels=["worker", "reason"]
        )
        for reason, count in sorted(tally.refusals.items()):
            refused.add_metric([self.worker, reason], count)
        yield refused
        yield _histogram(
            "ratscrew_slap_verdict_seconds",
            "From a slap's arrival to its published verdict (the decision window included)",
            labels,
            tally.verdict_ms,
        )
        yield _histogram(
            "ratscrew_decision_window_seconds",
            "The decision window of the room each judged slap was in",
            labels,
            tally.window_ms,
        )


def _gauge(name: str, doc: str, labels: list[str], value: float) -> GaugeMetricFamily:
    family = GaugeMetricFamily(name, doc, labels=["worker"])
    family.add_metric(labels, value)
    return family


def _histogram(name: str, doc: str, labels: list[str], histogram: Histogram) -> HistogramMetricFamily:
    family = HistogramMetricFamily(name, doc, labels=["worker"])
    buckets, running = [], 0
    for bound, count in zip((*histogram.bounds, float("inf")), histogram.counts, strict=True):
        running += count
        buckets.append(("+Inf" if bound == float("inf") else repr(bound / 1000), float(running)))
    family.add_metric(labels, buckets, histogram.total / 1000)
    return family


def registry(collector: WorkerCollector) -> CollectorRegistry:
    found = CollectorRegistry(auto_describe=False)
    found.register(collector)
    return found


def exposition(found: CollectorRegistry) -> bytes:
    return generate_latest(found)
