"""The bot draws its maps in its drawing pool (bot/service/drawing.py): `/game map` shows the map
`render.draw` draws in-process, the private panels arrive, and closing the bot ends every worker."""

from __future__ import annotations

import multiprocessing
from typing import Any

from sqlmodel import select

import render
from bot.service import drawing
from db.models import Match
from tests.e2e.harness import factory, settings_for
from tests.fakediscord import FakeDiscord, Player
from tests.service.test_drawing import alive


async def test_the_bot_draws_in_worker_processes_and_its_close_ends_them(
        fake: FakeDiscord, start_bot: Any, alice: Player, bob: Player, tmp_path: Any) -> None:
    before = {child.pid for child in multiprocessing.active_children()}
    bot = await start_bot(factory(settings_for(fake, tmp_path / "w.db", draw_workers=1)))
    await alice.slash("game new", game="tinybigwars", round_limit=3)
    await alice.wait_for(lambda m: m.button("Join") is not None)
    await bob.click("Join")
    await alice.wait_for(lambda m: "bob joined" in m.content and m.button("Start"))
    start = await alice.click("Start")
    assert "has started" in start.content
    dm = await alice.dm.wait_for(lambda m: m.selects)
    assert dm.files.get("you.png"), "the sealed prompt's private panel came from a worker"

    shown = await alice.slash("game map")
    maps = [m.files["map.png"] for m in shown.messages if m.files.get("map.png")]
    assert len(maps) == 1
    async with bot.svc.store.read() as session:
        match = (await session.exec(select(Match))).one()
    info = await bot.svc.get_match(match.id)
    view = await bot.svc.public_view(match.id)
    assert maps[0] == render.draw("tinybigwars", view, names=info.names())

    pool = drawing.pool()
    assert pool.workers == 1 and pool.where["pool"] >= 2 and pool.where["thread"] == 0
    workers = {child.pid for child in multiprocessing.active_children()} - before
    assert len(workers) == 1 and all(pid is not None and alive(pid) for pid in workers)

    await start_bot.stop(bot)
    assert {child.pid for child in multiprocessing.active_children()} == before
    assert not any(pid is not None and alive(pid) for pid in workers)
    assert drawing.pool().workers == 0, "after the bot's close the process draws in a thread"
