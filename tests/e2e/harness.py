"""The warhost bot on the fake Discord: settings, a bot factory, and an automatic player
that answers whatever the bot asks in DMs (or through /game act), as a person would."""

from __future__ import annotations

import asyncio
import atexit
import functools
import json
import random
import re
import shutil
import sqlite3
import tempfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sqlmodel import select

from bot.discord.app import make_bot
from bot.settings import Settings
from db.models import Notice
from tests.fakediscord.models import Message
from tests.fakediscord.players import SETTLE_TIMEOUT, Player, Response, modal_text_inputs
from tests.pgfixture import sqlite_copy, sqlite_migrated_template

TIMEOUT = 30.0


@functools.cache
def _migrated_template() -> Path:
    """A SQLite database at the newest revision, made once per process (in a thread of its own:
    the caller may be inside a running event loop)."""
    directory = Path(tempfile.mkdtemp(prefix="warhost-e2e-template-"))
    atexit.register(shutil.rmtree, directory, True)
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(sqlite_migrated_template, directory).result()


def settings_for(fake: Any, db_path: Path, **extra: Any) -> Settings:
    """The bot's settings on the fake Discord. A database file not made yet starts as a copy of
    one already migrated: the bot still migrates it at start, finding nothing left to do, instead
    of paying Alembic's migrations in every test."""
    if not db_path.exists():
        sqlite_copy(_migrated_template(), db_path)
    return Settings(
        _env_file=None,
        discord_token="fake-token",
        database_url=f"sqlite+aiosqlite:///{db_path}",
        dev_guild_id=fake.guilds[0].id,
        tick_seconds=0.2,
        deliver_seconds=0.05,
        **{"phase_edit_seconds": 0.0, "board_edit_seconds": 2.0, "board_wait_seconds": 0.0, **extra},  # the paces' tests set their own
    )


async def set_deadline_hours(db_path: Path, hours: float) -> None:
    """Shorten every match's stored deadline (`/game new` allows 3 minutes at least). The UPDATE runs
    in a thread: a blocking write on the event loop the bot shares could wait forever on a write
    transaction the bot cannot finish while the loop is blocked ("database is locked")."""

    def update() -> None:
        with sqlite3.connect(db_path, timeout=60) as conn:
            conn.execute("UPDATE matches SET deadline_hours = ?", (hours,))
        conn.close()

    await asyncio.to_thread(update)


async def wait_recorded(bot: Any, message: Message, timeout: float = SETTLE_TIMEOUT) -> None:
    """Wait until the bot recorded `message` as the delivery of its notice. A player sees a DM or
    mention the moment it is sent, but the bot writes its reference a moment later; only then can
    an answer take it back (the ref names it: "123", or "dm:<user>:123;..." for reminder DMs)."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    wanted = re.compile(rf"(^|[:;]){message.id}($|;)")
    while True:
        async with bot.svc.store.read() as session:
            refs = (await session.exec(select(Notice.delivery_ref).where(Notice.delivery_ref.is_not(None)))).all()
        if any(wanted.search(ref) for ref in refs):
            return
        if loop.time() > end:
            raise AssertionError(f"the bot never recorded message {message.id} as delivered within {timeout} s")
        await asyncio.sleep(0.05)


async def wait_public_delivered(bot: Any, timeout: float = SETTLE_TIMEOUT) -> None:
    """Wait until the bot has delivered every notice for the channel (posts, turn mentions) it
    has written so far, and no delivery or status-board edit is under way: what the table is
    going to see of the current moment is out."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while True:
        async with bot.svc.store.read() as session:
            pending = (await session.exec(select(Notice.id).where(
                Notice.user_id.is_(None), Notice.delivered_at.is_(None)))).first()
        delivery = bot.game.delivery
        busy = [task for task in (*delivery.workers.values(), *delivery.boards.tasks.values()) if not task.done()]
        if pending is None and not busy:
            return
        if loop.time() > end:
            raise AssertionError(f"the bot was still delivering channel notices after {timeout} s")
        await asyncio.sleep(0.05)


def factory(settings: Settings, **kwargs: Any) -> Any:
    return lambda: make_bot(settings, **kwargs)


def open_prompt(msg: Message) -> bool:
    """A DM or ephemeral message still asking for a choice (not a sealed summary)."""
    if msg.selects:
        return True
    return any(b.label != "Change" and b.custom_id and b.custom_id.startswith("wh:p:") for b in msg.buttons)


@dataclass
class AutoPlayer:
    """Answers open prompts as a careless but honest player: a few first options (or random
    ones with `rng`), the modal's suggested numbers; a refused answer is tried again."""

    player: Player
    via_act: bool = False
    rng: random.Random | None = None
    answered: list[str] = field(default_factory=list)
    tries: dict[tuple[int, str], int] = field(default_factory=dict)

    def _candidates(self) -> list[Message]:
        place = self.player if self.via_act else self.player.dm
        return [m for m in place.messages if open_prompt(m) and self.tries.get((m.id, _components_key(m)), 0) < 3]

    async def step(self) -> bool:
        """Answer the newest open prompt; False if there is none."""
        if self.via_act:
            r = await self.player.slash("game act")
            msgs = [m for m in r.messages if open_prompt(m)]
            if not msgs:
                return False
            msg = msgs[-1]
        else:
            found = self._candidates()
            if not found:
                return False
            msg = found[-1]
        key = (msg.id, _components_key(msg))
        self.tries[key] = self.tries.get(key, 0) + 1
        reply = await self.answer(msg, careful=self.tries[key] > 1)
        await self._settled(msg, key[1], reply)
        return True

    @staticmethod
    async def _settled(msg: Message, before: str, reply: Response, timeout: float = 10.0) -> None:
        """Wait, as a person would, until the message shows what the answer did (the bot edits it
        into the answer or the next decision) or the bot replied (a refusal): clicking the same
        buttons again before that is a double click, not a second answer."""
        end = asyncio.get_running_loop().time() + timeout
        while _components_key(msg) == before and not reply.followups and not msg.deleted:
            if asyncio.get_running_loop().time() > end:
                return
            await asyncio.sleep(0.02)

    async def answer(self, msg: Message, careful: bool = False) -> Response:
        place = self.player if self.via_act else self.player.dm
        rng = None if careful else self.rng
        if msg.selects:
            sel = msg.selects[0]
            want = max(1, sel.min_values) if careful else max(sel.min_values, min(2, sel.max_values))
            options = list(sel.options)
            suggested = [o for o in options if o.get("description") == "suggested"]
            if rng is not None and sel.max_values == 1:
                options = [rng.choice(options)]
            elif suggested:  # a number from the quick select: the suggestion, as the modal's default was
                options = suggested
            pick = [o["value"] for o in options[:want]]
            self.answered.append(f"select {pick}")
            return await place.select(None, pick, message=msg)
        buttons = [b for b in msg.buttons if b.label != "Change"]
        button = rng.choice(buttons) if rng is not None else buttons[0]
        self.answered.append(f"click {button.label}")
        r = await place.click(button.label, message=msg)
        if r.modal is not None:
            values = {}
            for comp in modal_text_inputs(r.modal):
                values[comp["custom_id"]] = comp.get("value") or "0"
                bounds = re.search(r"\((-?\d+)-(-?\d+)\)", comp["label"])
                if rng is not None and bounds:
                    values[comp["custom_id"]] = str(rng.randint(int(bounds[1]), int(bounds[2])))
            self.answered.append(f"modal {json.dumps(values, sort_keys=True)}")
            return await self.player.submit_modal(values)
        return r


def _components_key(msg: Message) -> str:
    return json.dumps(msg.components, sort_keys=True)


async def play_until(fake: Any, players: list[AutoPlayer], done: Any, timeout: float = 600.0) -> None:
    """Let the auto players answer until `done()` holds."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not done():
        if loop.time() > end:
            raise AssertionError(f"match did not finish in {timeout}s; channel: {fake.channel_messages(fake.channel)[-5:]}")
        acted = False
        for auto in players:
            acted = await auto.step() or acted
        if not acted:
            await asyncio.sleep(0.05)


async def ephemeral_reply(r: Response) -> str:
    """The text of the ephemeral answer to an interaction (a refusal, a confirmation); waits
    for the follow-up when the bot acknowledged first."""
    for _ in range(2):
        for msg in reversed([*r.followups, *([r.message] if r.message else [])]):
            if msg.ephemeral_to is not None:
                return msg.content
        await r.wait_followup()
    raise AssertionError(f"no ephemeral reply in {r!r}")
