"""Whole matches played the way issue 25 tried them: at every quiet moment each player clicks the
newest live component of their own DMs. What a test checks meanwhile: that every enabled
component a player sees belongs to a decision that player still has open, and what each DM and
ephemeral answer said."""

from __future__ import annotations

import asyncio
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from sqlmodel import select

from bot.discord import ids
from db.models import Notice
from tests.e2e.defenders_play import DefendersTable
from tests.e2e.harness import AutoPlayer, ephemeral_reply
from tests.fakediscord.models import Message
from tests.fakediscord.players import Player

OVER = ("The match is over", "The match was aborted")
STALE = re.compile(r"no longer open|closed now|answered first", re.IGNORECASE)
"""What an answer to a dead component says (texts.NOT_OPEN, RETIRED, play.CLOSED_SHARED, lost_shared)."""


def live_components(msg: Message) -> list[ids.PromptId]:
    """The enabled decision components of a message (prompt buttons and selects, [Change] included)."""
    found = []
    for component in [*msg.buttons, *msg.selects]:
        parsed = ids.parse(component.custom_id or "")
        if isinstance(parsed, ids.PromptId) and not component.disabled:
            found.append(parsed)
    return found


def live_dms(player: Player) -> list[Message]:
    return [m for m in player.dm.messages if not m.deleted and live_components(m)]


async def quiet(fake: Any, bot: Any, timeout: float = 60.0) -> None:
    """Wait until the bot has nothing left to say about the current moment: every notice
    delivered, no delivery worker, board edit or interaction handler running, no request in flight."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    calm = 0
    while calm < 3:  # three looks in a row, a little apart: a wake-up between two is caught
        assert loop.time() < end, f"the bot never went quiet within {timeout} s"
        await asyncio.sleep(0.03)
        async with bot.svc.store.read() as session:
            pending = (await session.exec(select(Notice.id).where(
                Notice.delivered_at.is_(None), Notice.parked_reason.is_(None)))).first()
        delivery = bot.game.delivery
        busy = [t for t in (*delivery.workers.values(), *delivery.boards.tasks.values()) if not t.done()]
        handlers = [t for t in asyncio.all_tasks() if not t.done()
                    and t.get_name() in ("discord.py: on_interaction", "CommandTree-invoker")]
        calm = calm + 1 if pending is None and not busy and not handlers and fake.in_flight == 0 else 0


async def owed_now(bot: Any, match_id: int, seat: int) -> int | None:
    """The prompt version the seat has open now (None: nothing), as the match says."""
    turn = await bot.svc.seat_turn(match_id, seat)
    return None if turn is None or turn.ai_driven or turn.status not in ("active", "paused") else turn.version


@dataclass
class TurnDmTable:
    """Two (or more) players answering their newest live DM component, one click per quiet moment."""

    fake: Any
    bot: Any
    players: list[Player]
    chooser: Callable[[Player, Message], Any] | None = None
    """How to answer a message (default: the e2e AutoPlayer's careless but honest choice)."""
    clicks: int = 0
    dead: list[str] = field(default_factory=list)
    """Enabled components seen at a quiet moment that belong to no decision the player has open."""
    dms_per_round: dict[str, Counter[str]] = field(default_factory=dict)
    round: str = "0"

    def __post_init__(self) -> None:
        self.autos = {p.user.id: AutoPlayer(p) for p in self.players}
        create = self.fake.create_message
        names = {p.user.id: p.name for p in self.players}

        def counted(channel: Any, body: dict, files: list, **kwargs: Any) -> Message:
            msg = create(channel, body, files, **kwargs)
            if msg.channel.recipient is not None and msg.channel.recipient.id in names:
                self.dms_per_round.setdefault(self.round, Counter())[names[msg.channel.recipient.id]] += 1
            return msg

        self.fake.create_message = counted

    def over(self) -> bool:
        return any(m.content.startswith(f"**{o}") or o in m.content for o in OVER
                   for m in self.fake.messages.values()
                   if m.channel.recipient is None and m.ephemeral_to is None and m.author.id == self.fake.bot_user.id)

    async def check_live(self, match_id: int) -> None:
        """Every enabled component a player sees is on a decision that player has open now."""
        info = await self.bot.svc.get_match(match_id)
        for player in self.players:
            seat = info.seat_of(player.user.id)
            owed = None if seat is None else await owed_now(self.bot, match_id, seat)
            for msg in live_dms(player):
                for cid in live_components(msg):
                    if cid.match_id != match_id or cid.seat != seat or cid.version != owed:
                        self.dead.append(f"{player.name}: {msg.content[:160]!r} (version {cid.version}, open {owed})")

    async def play(self, match_id: int, timeout: float = 900.0) -> None:
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        idle = 0
        while not self.over():
            assert loop.time() < end, f"the match did not finish in {timeout} s"
            await quiet(self.fake, self.bot)
            view = await self.bot.svc.public_view(match_id)
            self.round = str(view.get("round", "0"))
            await self.check_live(match_id)
            acted = False
            for player in self.players:
                newest = live_dms(player)
                if not newest:
                    continue
                await self.click(player, newest[-1])
                acted = True
                await quiet(self.fake, self.bot)
                if self.over():
                    break
            idle = 0 if acted else idle + 1
            if not acted:
                assert idle < 400, "nobody had anything to answer and the match did not go on"
                await asyncio.sleep(0.05)
        await quiet(self.fake, self.bot)

    async def click(self, player: Player, msg: Message) -> None:
        self.clicks += 1
        if self.chooser is not None:
            await self.chooser(player, msg)
            return
        auto = self.autos[player.user.id]
        reply = await auto.answer(msg)
        if reply.modal is None and not reply.followups:
            return
        if any(f.ephemeral_to is not None for f in reply.followups):
            await ephemeral_reply(reply)

    def stale_answers(self) -> list[str]:
        """Every ephemeral answer a player got that says their component was dead."""
        return [m.content for m in self.fake.messages.values()
                if m.ephemeral_to is not None and STALE.search(m.content)]


def defenders_chooser(table: DefendersTable) -> Callable[[Player, Message], Any]:
    """The e2e Defenders table's choices (it knows how to end a Turn), one click at a time."""
    from tests.e2e.defenders_play import labels, pick

    async def choose(player: Player, msg: Message) -> None:
        label = table.choose(msg)
        table.seen.append((player.name, msg.content, labels(msg)))
        await pick(player, msg, label)

    return choose
