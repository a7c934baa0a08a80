"""The bot's Prometheus metrics, in one registry that `GET /metrics` (bot/discord/health.py) serves.

A leaf module (it imports only prometheus-client), so every layer may count into it with one
call: the delivery and tick loops, the drawing pool, the Discord instrumentation. Labels take
only bounded values (interaction types, route templates, game keys), never an id or a name."""

from __future__ import annotations

import time

from prometheus_client import (
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    gc_collector,
    generate_latest,
    platform_collector,
    process_collector,
)

REGISTRY = CollectorRegistry()
process_collector.ProcessCollector(registry=REGISTRY)
platform_collector.PlatformCollector(registry=REGISTRY)
gc_collector.GCCollector(registry=REGISTRY)

INTERACTIONS = Counter("warhost_interactions", "Interactions received, by kind and how they were answered",
                       ["kind", "outcome"], registry=REGISTRY)
ACK_SECONDS = Histogram("warhost_interaction_ack_seconds",
                        "From an interaction's creation (its id's timestamp) to the bot's acknowledgement",
                        ["kind"], buckets=(0.05, 0.1, 0.25, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 5.0, 10.0),
                        registry=REGISTRY)
REST_REQUESTS = Counter("warhost_rest_requests", "Requests to Discord's REST API by method, route and status",
                        ["method", "route", "status"], registry=REGISTRY)
RATE_LIMITED = Counter("warhost_rest_rate_limited", "Responses 429 (rate limited) from Discord's REST API, by route",
                       ["method", "route"], registry=REGISTRY)
TICK_SECONDS = Histogram("warhost_tick_seconds", "Duration of a deadline tick round (short when another process holds the tick lease)",
                         buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0), registry=REGISTRY)
DRAW_SECONDS = Histogram("warhost_draw_seconds", "Wall time of a drawing (map, private panel, replay GIF) by kind",
                         ["kind"], buckets=(0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0),
                         registry=REGISTRY)
THINK_BUDGET_SECONDS = Histogram("warhost_think_budget_seconds", "CPU budget given to a search AI decision (less "
                                 "than WARHOST_SEARCH_MS while many wait for the thinking workers)",
                                 buckets=(0.1, 0.15, 0.25, 0.5, 0.75, 1.0, 2.0, 5.0), registry=REGISTRY)
THINK_HEURISTIC = Counter("warhost_think_heuristic", "Search AI decisions the heuristic answered because too many "
                          "waited for the thinking workers", registry=REGISTRY)
OUTBOX_BACKLOG = Gauge("warhost_outbox_backlog", "Notices written and not yet delivered (parked ones included)",
                       registry=REGISTRY)
OUTBOX_OLDEST = Gauge("warhost_outbox_oldest_seconds", "Age of the oldest undelivered notice (0: none)",
                      registry=REGISTRY)
PARKED_TARGETS = Gauge("warhost_parked_targets", "Channels and DMs that refused a match's posts for good and are "
                       "being probed", registry=REGISTRY)
OPEN_MATCHES = Gauge("warhost_open_matches", "Matches in a lobby, running or paused, by game", ["game"],
                     registry=REGISTRY)
DATABASE_UP = Gauge("warhost_database_up", "1 when the database answered the last scrape's queries", registry=REGISTRY)
GATEWAY_LATENCY = Gauge("warhost_gateway_latency_seconds", "Discord gateway heartbeat latency (mean over shards)",
                        registry=REGISTRY)
LOOP_LAST_RUN = Gauge("warhost_loop_last_run_timestamp_seconds", "When each of the bot's loops last completed a round",
                      ["loop"], registry=REGISTRY)

_last_runs: dict[str, float] = {}
"""Loop name -> monotonic time of its last completed round (for /readyz)."""


def loop_ran(name: str) -> None:
    """A loop (``tick``, ``deliver``) completed a round."""
    _last_runs[name] = time.monotonic()
    LOOP_LAST_RUN.labels(name).set(time.time())


def since_last_run(name: str) -> float | None:
    """Seconds since the loop last completed a round (None: never in this process)."""
    last = _last_runs.get(name)
    return None if last is None else time.monotonic() - last


def exposition() -> bytes:
    """Every metric in Prometheus' text format."""
    return generate_latest(REGISTRY)
