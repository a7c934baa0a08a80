"""Exactly once, as players see it: the delivery is killed again and again between a post reaching
Discord and the notice being marked delivered, and some posts lose their response to a 5xx after
Discord created them; every notice still becomes exactly one message."""

from __future__ import annotations

import asyncio
from typing import Any

from sqlmodel import select

from bot.discord.delivery import Delivery
from db.models import Notice
from tests.e2e.harness import AutoPlayer, factory, play_until, settings_for

KILLS = 24
INJECTIONS = 8
PHASE_WINDOW = 0.3


class Killer:
    """Replaces the service's writes of delivered marks (``delivered_all``, and the reads that write
    the waiting marks first: the round's, a batch's, the turn reads): every other one, the whole
    delivery (its loop and every match worker) is cancelled after the sends and before their
    marks, and a fresh Delivery with no memory of them takes over, as after a crash and restart
    (the old one writes nothing more)."""

    WITH_READ = ("delivery_round", "next_batch", "seat_turn", "seat_turns")

    def __init__(self, bot: Any, kills: int, on_kill: Any) -> None:
        self.bot = bot
        self.left = kills
        self.kills = 0
        self.calls = 0
        self.on_kill = on_kill
        self.marked = 0
        self.real = bot.svc.delivered_all
        bot.svc.delivered_all = self.delivered_all
        for name in self.WITH_READ:
            setattr(bot.svc, name, self._with_read(getattr(bot.svc, name)))

    def _loop_index(self) -> int:
        return next(i for i, t in enumerate(self.bot.game._tasks) if "run_forever" in t.get_coro().__qualname__)

    async def _write(self, count: int) -> None:
        """A write of ``count`` marks is about to be made: every other one kills the delivery first."""
        self.calls += 1
        if self.left and self.calls % 2 == 0:
            self.left -= 1
            self.kills += 1
            self.on_kill()
            index = self._loop_index()
            game = self.bot.game
            old, old_loop = game.delivery, game._tasks[index]

            async def crashed() -> None:
                return None  # a crashed process writes no marks at its end

            old.write_idle_marks = crashed
            game.delivery = Delivery(self.bot)
            game._tasks[index] = asyncio.create_task(game.delivery.run_forever(0.05, game.stopping))
            for task in [old_loop, *old.workers.values()]:
                task.cancel()  # this very worker (or loop) too: the cancellation lands at the next await
            await asyncio.sleep(0)
            raise AssertionError("a cancelled worker went on")
        self.marked = max(self.marked, count)

    def _with_read(self, real: Any) -> Any:
        async def read(*args: Any, marks: Any = None, **kwargs: Any) -> Any:
            if marks is not None and marks.marks:
                await self._write(len(marks.marks))
            return await real(*args, marks=marks, **kwargs)

        return read

    async def delivered_all(self, marks: list[Any], fence: Any = None) -> int:
        await self._write(len(marks))
        return int(await self.real(marks, fence))


async def test_kills_between_send_and_mark_and_lost_responses_never_duplicate(
    fake, start_bot, alice, bob, carol, tmp_path
) -> None:
    # phase posts gather their lines (PHASE_WINDOW): lines put off are in flight across kills too
    bot = await start_bot(factory(settings_for(fake, tmp_path / "w.db", phase_edit_seconds=PHASE_WINDOW)))
    targets = [fake.channel, *(fake.dm_channel(p.user) for p in (alice, bob, carol))]
    injected = 0

    def inject() -> None:
        """A lost response (5xx after the message was created) on the next post of some target."""
        nonlocal injected
        if injected < INJECTIONS:
            target = targets[injected % len(targets)]
            target.fail_after_post.append(500 if injected % 2 else 502)
            injected += 1

    killer = Killer(bot, KILLS, inject)
    await alice.slash("game new", game="tinybigwars", round_limit=3)
    lobby = await alice.wait_for(lambda m: m.button("Join") is not None)
    await bob.click("Join", message=lobby)
    await carol.click("Join", message=lobby)
    await alice.wait_for(lambda m: m.id == lobby.id and "carol joined" in m.content)
    await alice.click("Start", message=lobby)
    autos = [AutoPlayer(alice), AutoPlayer(bob), AutoPlayer(carol)]
    await play_until(fake, autos, lambda: any("The match is over" in m.content for m in fake.channel.messages),
                     timeout=180)
    for _ in range(200):
        if not await bot.svc.outbox(limit=10) and all(not t.fail_after_post for t in targets):
            break
        await asyncio.sleep(0.05)
    await fake.quiesce()

    async with bot.store.read() as session:
        notices = list((await session.exec(select(Notice).order_by(Notice.id))).all())
    assert all(n.delivered_at is not None for n in notices)
    refs = {n.delivery_ref for n in notices if (n.delivery_ref or "").isdigit()}
    board = await bot.svc.board_message(notices[0].match_id)
    refs |= {str(board)}  # the status board: one message, edited in place
    posted = [m for t in targets for m in t.log if m.interaction_id is None and m.author is fake.bot_user]
    duplicates = len(posted) - len(refs)
    lost = [n for n in notices if (n.delivery_ref or "").isdigit() and int(n.delivery_ref) not in fake.messages]
    print(f"exactly once: {killer.kills} kills, {injected} lost responses, {len(notices)} notices, "
          f"{len(posted)} messages, {duplicates} duplicates, up to {killer.marked} marks a write")
    assert killer.kills >= 20 and injected == INJECTIONS
    assert killer.marked > 1, "some writes marked several notices: a kill lost several marks at once"
    assert duplicates == 0 and not lost
    assert {str(m.id) for m in posted} == refs, "every message is some notice's, each notice's message exists"
    shown = [(n.id, line) for n in notices if n.kind == "events" and (n.delivery_ref or "").isdigit()
             for line in n.payload["events"] if line not in fake.messages[int(n.delivery_ref)].text]
    assert not shown, "every move's line is in the phase post its notice names"
    lobby_messages = [m for m in fake.channel.messages if any("carol joined" in t for t in m.texts)]
    assert len(lobby_messages) == 1, "the lobby is one message, edited in place"
    retried = [c for c in fake.calls if c.method == "POST" and c.path.endswith("/messages") and c.status >= 500]
    assert len(retried) == INJECTIONS
