"""A drawing worker reuses the memory of one map for the next (bot/service/drawing.py
``reuse_freed_memory``): without it, most of a map's big buffers got fresh pages from the kernel,
~3,500 page faults a Tiny Big Wars map, about half its CPU."""

from __future__ import annotations

import copy
import platform
import resource
import sys

import pytest

import render
from bot.service import drawing
from tests.render import views

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux") or platform.libc_ver()[0] != "glibc",
                                reason="malloc's thresholds are glibc's")

MATCHES = 40
FEW_FAULTS = 300
"""Page faults a map may cost once the worker is warm (1.2 MB of fresh pages; it was ~3,500)."""


def _matches() -> list[dict]:
    """One mid-game view per match, each match's city with names of its own (as seeded names are)."""
    out = []
    for match in range(MATCHES):
        view = copy.deepcopy(views.three_seat_mid())
        for location in view["locations"]:
            location["name"] = f"{location['name'][:14]} {match}"
        out.append(view)
    return out


def _faults_a_map() -> float:
    """In whatever process runs it: page faults a map once every match has drawn one, drawing
    the 40 matches' maps in turn twice (as a worker draws running matches' phase ends)."""
    matches = _matches()
    for view in matches:
        render.draw("tinybigwars", view, views.NAMES_4[:3])
    before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    for view in matches * 2:
        render.draw("tinybigwars", view, views.NAMES_4[:3])
    return (resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before) / (2 * MATCHES)


async def test_a_worker_draws_maps_in_turn_on_memory_it_already_has() -> None:
    pool = drawing.DrawingPool(1)
    try:
        faults = await pool.run("draw", _faults_a_map)
    finally:
        await pool.close()
    assert pool.where == {"pool": 1, "thread": 0}
    assert faults < FEW_FAULTS


def test_reuse_applies_on_glibc() -> None:
    assert drawing.reuse_freed_memory()
