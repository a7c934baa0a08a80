"""The load benchmark's probe runs inside the bot process: its own CPU must be counted and left
out of the bot's CPU per interaction (issue 32's figure), or the figure measures the instrument."""

from __future__ import annotations

import time
from pathlib import Path

from benchmarks.bot_probe import Probe
from benchmarks.load_figures import without_probe


def test_the_probe_counts_the_cpu_of_its_notes(tmp_path: Path) -> None:
    probe = Probe(tmp_path / "probe.json")
    assert probe.snapshot()["probe_cpu_seconds"] == 0.0
    started = time.thread_time()
    for n in range(20_000):
        probe.note("a stage", n / 1000)
    spent = time.thread_time() - started
    counted = probe.snapshot()["probe_cpu_seconds"]
    assert 0.0 < counted <= spent
    assert len(probe.snapshot()["click_stages"]["a stage"]) == 20_000


def test_the_bots_cpu_leaves_the_probes_out() -> None:
    assert without_probe(12.0, {"probe_cpu_seconds": 1.5}) == (10.5, 1.5)
    assert without_probe(12.0, None) == (12.0, 0.0)
    assert without_probe(12.0, {}) == (12.0, 0.0)  # a probe from before the count
