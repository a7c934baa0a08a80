"""The framework's floor: a discord.py bot with no warhost code answers paced clicks against the
fake with the callback and the posts and edits it was told, and the benchmark prints its CPU per
click; discord_load hands it what its own run sent per interaction."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from benchmarks.framework_floor import pacing, run_writes

ROOT = Path(__file__).resolve().parents[2]


def test_the_floor_bot_answers_every_click_with_the_writes_asked_and_a_sane_cpu_figure() -> None:
    out = subprocess.run([sys.executable, "benchmarks/framework_floor.py", "--seconds", "2", "--posts", "0.5",
                          "--edits", "1", "--rate", "12"], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    found = re.search(r"framework floor: ([0-9.]+) ms CPU per click over ([0-9]+) clicks .*: ([0-9.]+) callbacks \+ "
                      r"([0-9.]+) posts \+ ([0-9.]+) edits a click, ([0-9]+) 429s", out.stdout)
    assert found, out.stdout
    cpu_ms, clicks, callbacks, posts, edits, refused = (float(value) for value in found.groups())
    assert clicks >= 18, "2 s at 12 clicks a second"
    assert callbacks == 1.0, "one UPDATE_MESSAGE callback a click, never a defer"
    assert abs(posts - 0.5) <= 0.1 and abs(edits - 1.0) <= 0.05, "the writes per click it was asked for"
    assert refused == 0, "paced under every bucket: no 429 and no retry in the figure"
    assert 0.05 < cpu_ms < 50, f"a discord.py bot's CPU per click, not {cpu_ms} ms"


def test_the_runs_requests_besides_the_callbacks_become_posts_and_edits() -> None:
    calls = [("POST", "/interactions/1/tok/callback"), ("POST", "/interactions/2/tok/callback"),
             ("POST", "/channels/5/messages"), ("PATCH", "/channels/5/messages/9"),
             ("PATCH", "/webhooks/7/tok/messages/@original"), ("POST", "/webhooks/7/tok")]
    assert run_writes(calls, 2) == (1.0, 1.0), "a follow-up posts, a deferred reply's webhook edit edits"
    assert run_writes([], 0) == (0.0, 0.0)


def test_the_pacing_keeps_each_channel_and_the_global_limit_under_their_buckets() -> None:
    clicks, players = pacing(0.4, 1.1, rate=None)
    assert clicks * 1.5 <= 30, "writes a second well under the global limit's 50"
    assert clicks / players * 2 <= 0.5, "each channel's edits (1 or 2 a click) at half its bucket (5 per 5 s)"
    assert pacing(0.4, 1.1, rate=10)[0] == 10, "a slower run's own rate"
