"""A phase post's heading is the phase its lines happened in, and its map is titled with it,
however many phases one transaction crosses (an all-AI match plays out in its start)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from bot.service import MatchService
from db import Store
from engine.text import fill
from tests.games import KEYS, short, table_of

HOST = 1


async def posts_of(tmp_path: Any, key: str) -> list[tuple[str, dict[str, Any]]]:
    store = await Store.open(f"sqlite+aiosqlite:///{tmp_path / 'h.db'}", migrate=True)
    try:
        svc = MatchService(store, holder="test")
        seats, options = table_of(key), short(key, rounds=2)
        await svc.create(None, 77, HOST, "host", key, options, max_seats=seats, seed=5, host_plays=False)
        for _ in range(seats):
            await svc.add_ai(77, HOST)
        await svc.start(77, HOST)
        return [(n.kind, n.payload) for n in await svc.outbox(100_000) if n.kind in ("phase", "events")]
    finally:
        await store.close()


@pytest.mark.parametrize("key", KEYS)
async def test_every_map_is_titled_with_the_heading_of_its_post(tmp_path: Any, key: str) -> None:
    posts = await posts_of(tmp_path, key)
    closed = [payload for kind, payload in posts if kind == "phase" and payload.get("names")]
    assert len(closed) > 4
    for payload in closed:
        assert fill(payload["view"]["phase_label"], payload["names"]) == payload["label"], payload["label"]


async def test_an_ai_war_turn_is_headed_wage_war(tmp_path: Any) -> None:
    posts = await posts_of(tmp_path, "samurai")
    war = [payload["label"] for _kind, payload in posts if any("declares attacks on" in x for x in payload["events"])]
    assert war and all("Wage War" in label for label in war), war


async def test_the_lines_of_a_new_round_are_headed_by_that_round(tmp_path: Any) -> None:
    posts = await posts_of(tmp_path, "defenders")
    current = None
    checked = 0
    for _kind, payload in posts:
        if current is not None and payload["events"]:
            assert f"Round {current}" in payload["label"], (current, payload["label"], payload["events"][:2])
            checked += 1
        begun = [re.search(r"round (\d+) begins", line) for line in payload["events"]]
        current = next((int(m[1]) for m in reversed(begun) if m), current)
    assert checked > 3
