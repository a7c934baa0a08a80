"""Votes to end a match and conceding, on Discord: the vote DM with Yes / No, its clicks, the
confirmation click of `/game concede`, and closing vote DMs that can no longer be answered.

Votes go to DMs for the reasons undo consent does (undo_ui.py): each player asked gets the
question where their prompts go, the buttons survive restarts like every routed button, and the
answer edits the same message. The channel hears of the vote and its end from the service.
"""

from __future__ import annotations

import asyncio
import logging
from datetime import datetime
from typing import TYPE_CHECKING, Protocol

import discord

from bot.discord import ids, texts
from bot.discord.mentions import NOBODY, plain_name
from bot.discord.prompt_ui import PlainView, timestamp
from bot.discord.replies import answer, clip
from bot.discord.sending import seat_of, user_of
from bot.discord.texts import NOT_HERE
from bot.service import NoMatch
from bot.service.votes import ANSWERED

if TYPE_CHECKING:
    from bot.service import MatchService, Notice

log = logging.getLogger(__name__)


def vote_text(notice: Notice) -> str:
    """The vote DM: who proposes what, and until when."""
    payload = notice.payload
    due = datetime.fromisoformat(str(payload["due"]))
    return clip(texts.VOTE_DM.format(channel_id=notice.channel_id, who=plain_name(str(payload["who"])),
                                     what=texts.VOTE_WHAT[str(payload["kind"])], due=timestamp(due)), 2000)


def closed_vote_text(notice: Notice, why: str) -> str:
    """A vote DM once it can no longer be answered: what it was, and why it closed."""
    payload = notice.payload
    return clip(texts.VOTE_DM_CLOSED.format(channel_id=notice.channel_id, who=plain_name(str(payload["who"])),
                                            what=texts.VOTE_WHAT[str(payload["kind"])],
                                            why=discord.utils.escape_mentions(why)), 2000)


def vote_view(notice: Notice) -> PlainView:
    view = PlainView()
    vote_id = int(notice.payload["vote_id"])
    for answer_, label, style in (("yes", "Yes", discord.ButtonStyle.success),
                                  ("no", "No", discord.ButtonStyle.danger)):
        view.add_item(discord.ui.Button(label=label, style=style,
                                        custom_id=ids.VoteId(notice.match_id, vote_id, answer_).encode()))
    return view


def concede_view(match_id: int, seat: int) -> PlainView:
    view = PlainView()
    view.add_item(discord.ui.Button(label=texts.CONCEDE_BUTTON, style=discord.ButtonStyle.danger,
                                    custom_id=ids.ConcedeId(match_id, seat).encode()))
    return view


async def vote_click(service: MatchService, interaction: discord.Interaction, cid: ids.VoteId) -> None:
    """Yes or no; the DM is edited to say what became of the vote (no buttons left)."""
    if interaction.guild_id is not None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        await answer(interaction, texts.VOTE_ONLY_IN_DMS)
        return
    await interaction.response.defer()
    outcome = await service.answer_vote(cid.match_id, cid.vote_id, interaction.user.id, cid.answer == "yes")
    text = texts.VOTE_ANSWERED.get(outcome.status, texts.VOTE_ANSWERED["void"]).format(due=timestamp(outcome.due_at))
    await interaction.edit_original_response(content=text, view=None)


async def concede_click(service: MatchService, interaction: discord.Interaction, cid: ids.ConcedeId) -> None:
    """The confirmation of `/game concede`, on its private reply: concede, and say so there."""
    await interaction.response.defer()
    try:
        info = await service.get_match(cid.match_id)
    except NoMatch:
        info = None
    if info is None or interaction.guild_id != info.guild_id or interaction.channel_id not in (
            info.channel_id, info.lobby_channel_id):  # where `/game concede` may have been typed
        await answer(interaction, NOT_HERE)
        return
    outcome = await service.concede(cid.match_id, interaction.user.id, cid.seat)
    text = texts.CONCEDED_ENDED if outcome.ended else texts.CONCEDED.format(ai=plain_name(outcome.ai_name))
    await interaction.edit_original_response(content=text, view=None)


class VoteDmService(Protocol):
    """The service call closing vote DMs makes."""

    async def vote_closed(self, match_id: int, vote_id: int, seat: int) -> str | None: ...


class VoteDms(Protocol):
    """What closing vote DMs needs of the delivery (dm_delivery.py)."""

    votes: dict[int, dict[int, Notice]]
    gate: asyncio.Semaphore

    @property
    def svc(self) -> VoteDmService: ...

    async def dm_channel_for(self, match_id: int, seat: int | None,
                             user_id: int) -> discord.PartialMessageable | discord.DMChannel: ...


async def close_votes(delivery: VoteDms, match_id: int) -> None:
    """Vote DMs this process sent whose vote can no longer be answered (it passed, someone said
    no, time ran out, the match ended) lose their Yes/No buttons and say why."""
    sent = delivery.votes.get(match_id)
    if sent is None:
        return
    for ref, notice in list(sent.items()):
        why = await delivery.svc.vote_closed(match_id, int(notice.payload["vote_id"]), seat_of(notice))
        if why is None:
            continue
        del sent[ref]
        if why == ANSWERED:
            continue
        try:
            dm = await delivery.dm_channel_for(match_id, seat_of(notice), user_of(notice))
            async with delivery.gate:
                await dm.get_partial_message(ref).edit(content=closed_vote_text(notice, why), view=None,
                                                       allowed_mentions=NOBODY)
        except discord.HTTPException as exc:
            log.info("could not close vote DM %s of match %s: %s", ref, match_id, exc)
    if not sent:
        delivery.votes.pop(match_id, None)
