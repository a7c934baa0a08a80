"""One channel post per phase: the phase's lines gather in one message, edited in place as they
happen, and the phase end closes it with the map attached. A server scrolls one message per
phase instead of one per move, and Discord's 5-posts-per-5-s channel limit is never near.

The open post is rebuilt from the outbox (the ``events``/``progress`` notices delivered to it),
so a restarted bot goes on editing the same message. Consecutive phase notices waiting in the
queue are delivered as one request: a burst of AI moves costs one edit, not one per move, and
new lines wait a few seconds to be gathered so (phase_pace.py).
"""

from __future__ import annotations

import io
from typing import TYPE_CHECKING, Any, Protocol

import discord

from bot.discord import table_links
from bot.discord.error_codes import UNKNOWN_MESSAGE
from bot.discord.mentions import NOBODY, ROUTINE
from bot.discord.phase_pace import standalone
from bot.discord.phase_post_memory import Before, PostMemory
from bot.discord.sending import channel_of, inert, nonce_of
from bot.service import drawing, replay_frames
from bot.service.outbox import GATHERING
from bot.service.phase_notices import post_text

if TYPE_CHECKING:
    from bot.discord.wiring import Messenger
    from bot.service import MatchInfo, Notice
    from bot.service.types import OpenPost


class PhasePostService(Protocol):
    """The service calls the phase posts make."""

    async def get_match(self, match_id: int) -> MatchInfo: ...

    async def open_phase_post(self, match_id: int, before_id: int) -> OpenPost | None: ...


class PhasePoster(Protocol):
    """What the phase posts use of the delivery: the messenger, the service and the lease check."""

    @property
    def bot(self) -> Messenger: ...

    @property
    def svc(self) -> PhasePostService: ...

    async def ensure_lease(self) -> None: ...


LIMIT = 1900
"""Characters of a phase post's content (Discord allows 2,000)."""
MORE = 4000
"""Characters a phase post carries on with in an embed below its content (Discord allows 4,096),
before its phase goes on in a new post: a busy phase is still one post."""
CONTINUED = " (continued)"


def _lines(notice: Notice) -> list[str]:
    payload = notice.payload
    if notice.kind == "result":
        return [str(payload.get("text", ""))]
    if "events" in payload:
        return [str(line) for line in payload["events"]]
    return [str(payload["text"])] if payload.get("text") else []


def _label(group: list[Notice], heading: str) -> str:
    """A post keeps the heading it opened with (the phase its lines belong to: a phase end
    closes it); a new post takes the label of its first notice that has one."""
    if heading:
        return heading
    labels = [str(n.payload.get("label") or "") for n in group if n.kind in GATHERING or n is group[0]]
    return next((x for x in labels if x), "")


def _shown(lines: list[tuple[str, bool]], closing: bool) -> list[str]:
    """The post's lines: who the table still waits for only while the post is open, and then
    only the newest such line; a closed post tells what happened, not who was awaited."""
    progress = [n for n, (_, waiting) in enumerate(lines) if waiting]
    keep = set() if closing else set(progress[-1:])
    return [line for n, (line, waiting) in enumerate(lines) if not waiting or n in keep]


async def deliver_group(delivery: PhasePoster, group: list[Notice], fresh: bool = False) -> str:
    """Post or edit the phase post for these notices (oldest first); returns the message id.
    ``fresh``: Discord refused the edit of the open post (refused.py), so the phase so far is
    posted again as a new message, which the phase's next lines then edit. A delivery with a
    ``phase_memory`` (phase_post_memory.py) finds the open post there when it knows it."""
    memory: PostMemory | None = getattr(delivery, "phase_memory", None)
    if memory is None:
        return (await _deliver(delivery, group, fresh, None))[0]
    ref, before = await _deliver(delivery, group, fresh, memory.sending(group))
    memory.sent(group, ref, before, plain=not fresh and not standalone(group[0]))
    return ref


async def _deliver(delivery: PhasePoster, group: list[Notice], fresh: bool,
                   known: Before | None) -> tuple[str, Before | None]:
    """``deliver_group``; ``known``: the open post before the group, from memory (None: read it).
    Returns the message id and the open post the group found (None for a standalone notice)."""
    first, last = group[0], group[-1]
    channel = delivery.bot.get_partial_messageable(channel_of(first))
    new_lines = [(inert(line), notice.kind == "progress") for notice in group for line in _lines(notice)]
    closing = last.kind in ("phase", "result")
    lines = _shown(new_lines, closing)
    files = await _map(delivery, last) if closing else []
    found = None if standalone(first) else (
        known or Before(await delivery.svc.open_phase_post(first.match_id, first.id), remembered=False))
    if files or (found is not None and not found.remembered):
        await delivery.ensure_lease()  # a process paused while it drew (or read) sends nothing
    if standalone(first):
        table = table_links.table_view(delivery.bot, first.match_id) if first.kind == "result" else None
        link: dict[str, Any] = {"view": table} if table is not None else {}
        msg = await channel.send(inert(str(first.payload.get("text", "")))[:2000], files=files,
                                 nonce=nonce_of(first), allowed_mentions=NOBODY, silent=ROUTINE, **link)
        return str(msg.id), None
    assert found is not None
    open_post = found.post
    if open_post is not None:
        heading = _label(group, open_post.label)
        if open_post.continued and heading:
            heading += CONTINUED
        before = [(inert(x), n in open_post.progress) for n, x in enumerate(open_post.lines)]
        text = post_text(heading, _shown([*before, *new_lines], closing), limit=100_000)
        if fresh and len(text) <= LIMIT + MORE:
            content, embeds = split(text)
            msg = await channel.send(content, embeds=embeds, files=files, nonce=nonce_of(first, "again"),
                                     allowed_mentions=NOBODY, silent=ROUTINE)
            return str(msg.id), found
        if len(text) <= LIMIT + MORE and not files and text == post_text(heading, _shown(before, False), limit=100_000):
            return str(open_post.ref), found  # the post shows these lines already (a waiting line said again)
        if len(text) <= LIMIT + MORE:
            content, embeds = split(text)
            message = channel.get_partial_message(open_post.ref)
            try:
                if files:
                    await message.edit(content=content, embeds=embeds, attachments=files, allowed_mentions=NOBODY)
                else:
                    await message.edit(content=content, embeds=embeds, allowed_mentions=NOBODY)
                return str(open_post.ref), found
            except discord.NotFound as exc:
                if exc.code != UNKNOWN_MESSAGE:  # only a deleted post is posted again; a lost channel parks
                    raise
        label = heading if not heading or heading.endswith(CONTINUED) else heading + CONTINUED
    else:
        label = _label(group, str(first.payload.get("label") or ""))
    content, embeds = split(post_text(label, lines, limit=LIMIT + MORE))
    msg = await channel.send(content, embeds=embeds, files=files, nonce=nonce_of(first), allowed_mentions=NOBODY,
                             silent=ROUTINE)
    return str(msg.id), found


async def post_phase(delivery: PhasePoster, notice: Notice) -> str:
    """A phase notice on its own (a probe of its parked channel, or the only one waiting)."""
    return await deliver_group(delivery, [notice])


def split(text: str) -> tuple[str, list[discord.Embed]]:
    """A post's text as its content and, past LIMIT, an embed carrying on (cut at a line end)."""
    if len(text) <= LIMIT:
        return text, []
    cut = text.rfind("\n", 0, LIMIT)
    cut = cut if cut > 0 else LIMIT
    return text[:cut], [discord.Embed(description=text[cut:].lstrip("\n")[:MORE])]


async def _map(delivery: PhasePoster, notice: Notice) -> list[discord.File]:
    """The map of the public view a closing notice carries (none for a phase closed mid-step)."""
    payload: dict[str, Any] = notice.payload
    if not payload.get("view"):
        return []
    names = payload.get("names")
    if names is None:
        names = (await delivery.svc.get_match(notice.match_id)).names()
    png = await drawing.draw_phase_map(payload["game"], payload["view"], names, replay_frames.frame_view(payload))
    return [discord.File(io.BytesIO(png), "map.png")]
