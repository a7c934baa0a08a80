"""The load benchmark's probe runs inside the bot process, so its CPU is the bot's CPU per
interaction (issue 32's figure) unless it stays out of the way: its hooks only append, everything
is counted at exit, and the CPU it does count (its sampling thread) is left out of the figure."""

from __future__ import annotations

import time
from pathlib import Path

from benchmarks.bot_probe import COMMIT, ROLLBACK, Probe, statement_counts
from benchmarks.load_figures import without_probe


def test_a_note_is_a_bare_append(tmp_path: Path) -> None:
    """A note on the bot's loop costs about what a list append costs: no lock, no clock read
    (uncounted: the probe's CPU would be the bot's)."""
    probe = Probe(tmp_path / "probe.json")
    kept: list[float] = []
    rounds = 50_000
    started = time.thread_time()
    for n in range(rounds):
        kept.append(n / 1000)
    append_cpu = time.thread_time() - started
    started = time.thread_time()
    for n in range(rounds):
        probe.note("a stage", n / 1000)
    note_cpu = time.thread_time() - started
    assert probe.snapshot()["click_stages"]["a stage"] == kept
    assert note_cpu < 8 * append_cpu + 0.01  # a lock and two clock reads a note cost ~10x an append


def test_statements_are_counted_and_grouped_at_the_end() -> None:
    raw = [
        (1, "BEGIN", "Client._run_event"),
        (1, "SELECT id FROM matches WHERE id = ?", "Client._run_event"),
        (1, 'UPDATE "notices" SET delivered_at = ?', "Client._run_event"),
        (2, "SELECT x FROM choices", "Delivery._work"),
        (1, COMMIT, ""),
        (1, "UPDATE notices SET delivered_at = ?", "Delivery._work"),  # after the commit: a statement of its own
        (3, "BEGIN", "PacedRefresh._run"),
        (3, "SELECT 1 FROM seats", "PacedRefresh._run"),
        (3, ROLLBACK, ""),
    ]
    counts = statement_counts(raw)
    assert counts["statements"] == {"BEGIN": 2, "SELECT": 3, "UPDATE": 2}
    assert counts["commits"] == 1
    assert counts["statements_by_table"] == {"BEGIN": 2, "SELECT matches": 1, "UPDATE notices": 2,
                                             "SELECT choices": 1, "SELECT seats": 1}
    assert counts["statements_by_task"]["Delivery._work"] == 2
    assert counts["transactions"] == {
        "Client._run_event | SELECT matches | UPDATE notices": 1,
        "Delivery._work (no BEGIN) SELECT choices": 1,
        "Delivery._work (no BEGIN) UPDATE notices": 1,
        "PacedRefresh._run | SELECT seats": 1,
    }


def test_the_bots_cpu_leaves_the_probes_out() -> None:
    assert without_probe(12.0, {"probe_cpu_seconds": 1.5}) == (10.5, 1.5)
    assert without_probe(12.0, None) == (12.0, 0.0)
    assert without_probe(12.0, {}) == (12.0, 0.0)  # a probe from before the count


async def test_the_probes_window_hooks_fit_the_window_they_wrap(tmp_path: Path) -> None:
    """The probe wraps the acknowledgement window's timer: a window opened under it still defers
    at its end, and the probe notes how old the interaction was (a wrapper out of step with
    ack_window.py breaks every click of a benchmark run)."""
    from discord.state import ConnectionState
    from discord.webhook.async_ import AsyncWebhookAdapter

    from bot.discord import ack_window
    from tests.bot.test_ack_window import Interaction

    patched = [(ConnectionState, "parse_interaction_create"), (AsyncWebhookAdapter, "create_interaction_response"),
               (ack_window.Window, "__init__"), (ack_window.Window, "_defer_after")]
    saved = [(owner, name, owner.__dict__[name]) for owner, name in patched]
    probe = Probe(tmp_path / "probe.json")
    try:
        probe.watch_the_loop()
        click = Interaction()
        async with ack_window.window(click, 0.0):  # type: ignore[arg-type]
            await click.response.deferring.wait()
    finally:
        for owner, name, value in saved:
            setattr(owner, name, value)
    assert click.sent == ["defer"]
    stages = probe.snapshot()["click_stages"]
    assert len(stages["window: the interaction's age when the timer defers"]) == 1
    assert len(stages["window: the interaction's age when its window opens"]) == 1


def test_the_probe_times_the_garbage_collector(tmp_path: Path) -> None:
    """The collector's CPU in the bot is one figure of the run (a collection is counted by its
    generation, and its time is that collection's)."""
    import gc

    probe = Probe(tmp_path / "probe.json")
    callbacks = gc.callbacks[:]
    try:
        probe.watch_the_collector()
        garbage = [[n] for n in range(200_000)]
        del garbage
        gc.collect()
    finally:
        gc.callbacks[:] = callbacks
    collector = probe.snapshot()["gc"]
    assert collector["collections"][2] >= 1 and collector["cpu_seconds"][2] > 0
