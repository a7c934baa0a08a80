"""A scripted Tiny Epic Defenders table for the end-to-end tests: every player answers their
DMs as a cautious person would (keep the first skill, walk out of the Capital once, end the
Turn, pass on shared AP, let attacks through, skip optional skills) until the DM a test wants
shows up. Every choice is a click on a real DM (a button, or the select for long lists)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from tests.e2e.harness import open_prompt
from tests.fakediscord.models import Message
from tests.fakediscord.players import Player

TURN = "Your Turn (Defender card)"
ALL = "All Defenders card:"
DEFEND = "If nobody defends"
SKILL = "Choose the first skill"
REACT = "is taking a Turn. You may use a skill now"


def labels(msg: Message) -> list[str]:
    """What a DM offers: its button labels, or the options of its select."""
    if msg.selects:
        return [o["label"] for o in msg.selects[0].options]
    return [b.label for b in msg.buttons if b.label != "Change"]


async def pick(player: Player, msg: Message, label: str) -> Any:
    """Choose the option labelled `label` on a DM, whether it shows buttons or a select."""
    if msg.selects:
        value = next(o["value"] for o in msg.selects[0].options if o["label"] == label)
        return await player.dm.select(None, [value], message=msg)
    return await player.dm.click(label, message=msg)


@dataclass
class DefendersTable:
    players: list[Player]
    walk: bool = True
    """On a Turn, move a Defender still in the Capital City out to a region first."""
    seen: list[tuple[str, str, list[str]]] = field(default_factory=list)
    """(player, content, options) of every prompt answered, in order."""
    done: set[tuple[int, str]] = field(default_factory=set)

    def newest(self, player: Player) -> Message | None:
        msgs = [m for m in player.dm.messages if open_prompt(m)]
        return msgs[-1] if msgs else None

    def choose(self, msg: Message) -> str:
        offered = labels(msg)
        text = msg.content
        if SKILL in text:
            return offered[0]
        if TURN in text:
            walk = [o for o in offered if ": move to " in o and "escorting" not in o]
            if self.walk and "in Aldmere" in text.split("**")[-2] and walk and "3 AP left" in text:
                return walk[0]
            return "End the Turn"
        if ALL in text:
            return next(o for o in offered if o.startswith("Pass"))
        if DEFEND in text:
            return "Let it through"
        if REACT in text:
            return "Not now"
        for fallback in ("Ready for the next battle", "Back"):
            if fallback in offered:
                return fallback
        return offered[-1]  # an artifact offer: keep what you have

    async def finish(self, done: Callable[[], bool], timeout: float = 120.0) -> None:
        """Answer everybody's DMs until `done()` holds."""
        await self.until(lambda p, m: False, timeout=timeout, done=done)

    async def until(self, want: Callable[[Player, Message], bool], timeout: float = 120.0,
                    done: Callable[[], bool] | None = None) -> tuple[Player, Message]:
        """Answer everybody's DMs until one of them shows a prompt `want` accepts (left unanswered)."""
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while True:
            if done is not None and done():
                return self.players[0], self.players[0].dm.messages[-1]
            assert loop.time() < end, f"no wanted prompt in {timeout}s; answered {[s[1][-120:] for s in self.seen[-4:]]}"
            acted = False
            for player in self.players:
                msg = self.newest(player)
                if msg is None:
                    continue
                if want(player, msg):
                    return player, msg
                key = (msg.id, str(msg.components))
                if key in self.done:
                    continue
                self.done.add(key)
                label = self.choose(msg)
                self.seen.append((player.name, msg.content, labels(msg)))
                await pick(player, msg, label)
                acted = True
            if not acted:
                await asyncio.sleep(0.05)
