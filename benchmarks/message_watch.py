"""The load benchmark's watch on the fake's messages: wakes the virtual players when a channel
changes, and counts every edit by what it edited and what it changed (discord_load.py prints
them: an edit that changed nothing, or came within a second of the last write, is a request
the bot could have spared)."""

from __future__ import annotations

import asyncio
import contextvars
import json
import re
import time
from collections import Counter
from collections.abc import Callable
from typing import Any

from tests.fakediscord.models import Channel, Message
from tests.fakediscord.server import FakeDiscord

_BY_REPLY: contextvars.ContextVar[bool] = contextvars.ContextVar("by_reply", default=False)
"""Set while the fake handles an interaction's webhook edit: the click's reply is writing."""
IN_CALLBACK: contextvars.ContextVar[bool] = contextvars.ContextVar("in_callback", default=False)
"""Set while the fake handles an interaction callback: an UPDATE_MESSAGE edit is no request of its own."""


class Watch:
    """Wakes waiters when a message is created or edited in a channel (the fake's own
    `wait_until` re-checks every waiter every 20 ms, too costly for hundreds of players)."""

    def __init__(self, fake: FakeDiscord) -> None:
        self._events: dict[int, asyncio.Event] = {}
        self.edits: Counter[str] = Counter()
        """Message edits by what they edited (a turn DM, a reminder, the board, ...) and whether
        the message looked the same afterwards (``unchanged``)."""
        self.examples: list[tuple[str, str, str]] = []
        """Some edits that came within a second of the message's last write: (kind, before, after)."""
        create, edit = fake.create_message, fake.edit_message

        def create_message(channel: Channel, body: dict, files: list, **kwargs: Any) -> Message:
            msg = create(channel, body, files, **kwargs)
            self._fire(channel.id)
            return msg

        last_edit: dict[int, float] = {}
        by_reply: set[int] = set()
        """DMs last written by a click's reply (the interaction's webhook), not by delivery."""

        def edit_message(msg: Message, body: dict, files: list) -> Message:
            before, had = _looks(msg), _edited(msg)
            if msg.channel.is_dm:
                had += " [the reply's]" if msg.id in by_reply else ""
                (by_reply.add if _BY_REPLY.get() or IN_CALLBACK.get() else by_reply.discard)(msg.id)
            out = edit(msg, body, files)
            now = time.monotonic()
            again = now - last_edit.get(msg.id, msg.created) < 1.0
            last_edit[msg.id] = now
            after = _looks(out)
            same = (" unchanged" if after == before else " timestamps only" if _untimed(after) == _untimed(before)
                    else " latest line only" if _unlatest(after) == _unlatest(before) else "")
            via = " (in the click's callback)" if IN_CALLBACK.get() else ""
            kind = f"{had} -> {_edited(msg)}{same}{via}{' (<1 s after the last write)' if again else ''}"
            self.edits[kind] += 1
            if again and len(self.examples) < 400:
                self.examples.append((kind, before, after))
            self._fire(msg.channel.id)
            return out

        fake.create_message = create_message  # type: ignore[method-assign]
        fake.edit_message = edit_message  # type: ignore[method-assign]
        webhook = fake._webhook_message

        async def by_reply_handler(*args: Any, **kwargs: Any) -> Any:
            _BY_REPLY.set(True)  # this request's own context (aiohttp runs each in a task)
            return await webhook(*args, **kwargs)

        fake._routes = [(method, pattern, by_reply_handler if handler == webhook else handler)
                        for method, pattern, handler in fake._routes]

    def _fire(self, channel_id: int) -> None:
        event = self._events.pop(channel_id, None)
        if event is not None:
            event.set()

    async def until(self, channel_ids: tuple[int, ...], check: Callable[[], Any], timeout: float,
                    idle: bool = False) -> Any:
        """`check()` once it is truthy, re-checked whenever one of the channels changes; past
        ``timeout`` seconds, or with ``idle`` past ``timeout`` seconds in which none of the
        channels changed (a player waiting while the others take turn after turn is not stalled
        while the match's channel still moves), TimeoutError."""
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while True:
            found = check()
            if found:
                return found
            remaining = end - loop.time()
            if remaining <= 0:
                raise TimeoutError(f"condition not met within {timeout} s"
                                   + (" of the channels' last change" if idle else ""))
            waits = [asyncio.ensure_future(self._events.setdefault(c, asyncio.Event()).wait()) for c in channel_ids]
            try:
                done, _pending = await asyncio.wait(waits, timeout=remaining, return_when=asyncio.FIRST_COMPLETED)
            finally:
                for w in waits:
                    w.cancel()
            if idle and done:
                end = loop.time() + timeout


def _looks(msg: Message) -> str:
    """What a player sees of a message (its text, components and attachment names)."""
    return json.dumps([msg.content, msg.components, [a.filename for a in msg.attachments]], sort_keys=True)


def _untimed(looks: str) -> str:
    """What a message shows with its Discord timestamps (``<t:...>``) left out."""
    return re.sub(r"<t:[0-9]+(:[a-zA-Z])?>", "<t>", looks)


def _unlatest(looks: str) -> str:
    """What a status board shows without its "Latest:" line (the phase post shows that line too)."""
    return re.sub(r"\\nLatest: [^\\]*", "", looks)


def _edited(msg: Message) -> str:
    """What kind of message an edit went to, told from what it shows."""
    ids = re.findall(r'"custom_id": "([^"]+)"', json.dumps(msg.components))
    if msg.channel.is_dm:
        if msg.content.startswith("Reminder"):
            return "reminder DM"
        return "turn DM (asks)" if ids else "DM, no components"
    if any(i.startswith("wh:b:") for i in ids):
        return "status board"
    if msg.button("Join") is not None or "joined" in msg.content or "lobby" in msg.content.lower():
        return "lobby"
    return "channel post"
