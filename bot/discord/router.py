"""Every component click and modal submit of the bot lands here, parsed from its custom_id
and judged by the service: no in-memory view is needed, so buttons survive restarts and
work on whichever process receives them (DM clicks reach shard 0 only)."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import discord

from bot.discord import ack_window, ids, nudges, seat_posts, texts
from bot.discord.board_clicks import board_click
from bot.discord.click_origin import clicked_here
from bot.discord.dm_replies import Answered, answered_form, next_decision_in_dm, reply_in_dm
from bot.discord.errors import on_component_error
from bot.discord.mentions import plain_name, plain_names
from bot.discord.permissions import is_manager
from bot.discord.prompt_ui import (
    NumbersModal,
    prompt_text,
    prompt_view,
    quick_field,
)
from bot.discord.replies import answer
from bot.discord.texts import NOT_HERE, NOT_OPEN, NOT_OURS, NOT_YOURS, RETIRED
from bot.discord.undo_ui import undo_click
from bot.discord.vote_ui import concede_click, vote_click
from bot.naming import ShownPrompt, named_prompt, shown_prompt
from bot.service import NoMatch, NotSeated
from bot.service.play import NotPending
from bot.service.types import PendingPrompt, Place

if TYPE_CHECKING:
    from bot.discord.wiring import Wiring
    from bot.service import MatchService

log = logging.getLogger(__name__)


async def refuse(interaction: discord.Interaction, text: str) -> None:
    """An ephemeral refusal, whether or not the interaction was already acknowledged."""
    await answer(interaction, text)


class Router:
    """Judges each click and modal through the wiring's service; every failure goes to errors.py."""

    def __init__(self, wiring: Wiring, reply_wait: float = ack_window.REPLY_WAIT) -> None:
        self.wiring = wiring
        self.reply_wait = ack_window.Pace(reply_wait)
        """How long from a click's creation its reply may ride in the callback: learned from recent
        clicks, never above ``reply_wait`` seconds (ack_window.py)."""

    @property
    def service(self) -> MatchService:
        return self.wiring.service

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        if interaction.type not in (discord.InteractionType.component, discord.InteractionType.modal_submit):
            return
        data: dict[str, Any] = dict(interaction.data or {})
        parsed = ids.parse(str(data.get("custom_id", "")))
        try:
            if parsed is None:
                await refuse(interaction, NOT_OURS)
            elif isinstance(parsed, ids.LobbyId):
                await self.lobby(interaction, parsed)
            elif isinstance(parsed, ids.BoardId):
                await board_click(self.service, interaction, parsed)
            elif isinstance(parsed, ids.PromptId):
                await self.prompt(interaction, parsed, data)
            elif isinstance(parsed, ids.UndoId):
                await undo_click(self.service, interaction, parsed)
            elif isinstance(parsed, ids.VoteId):
                await vote_click(self.service, interaction, parsed)
            elif isinstance(parsed, ids.ConcedeId):
                await concede_click(self.service, interaction, parsed)
            elif isinstance(parsed, ids.SeatId):
                await seat_posts.take_click(self.service, interaction, parsed)
            else:
                await self.modal(interaction, parsed, data)
        except Exception as exc:  # a refusal, a database error, a bug: the player hears back in plain words
            await on_component_error(interaction, exc)
        finally:
            self.wiring.wake_delivery(None if parsed is None else parsed.match_id)

    async def lobby(self, interaction: discord.Interaction, cid: ids.LobbyId) -> None:
        async with ack_window.window(interaction, self.reply_wait,
                                     lambda: interaction.response.defer(ephemeral=True, thinking=True)):
            await self._lobby(interaction, cid)  # its answer (private) rides in the callback

    async def _lobby(self, interaction: discord.Interaction, cid: ids.LobbyId) -> None:
        try:
            info = await self.service.get_match(cid.match_id)
        except NoMatch:
            info = None
        if info is None or not clicked_here(interaction, info, lobby=True):
            await refuse(interaction, NOT_HERE)
            return
        if info.status != "lobby" and cid.action != "start":
            await refuse(interaction, texts.LOBBY_CLOSED)
            return
        user = interaction.user
        here = Place(info.channel_id, user.id, match_id=info.id)
        if cid.action == "join":
            await self.service.join(here, user.id, user.display_name)
            text = texts.JOINED.format(title=info.title)
        elif cid.action == "leave":
            await self.service.leave(here, user.id)
            text = texts.LEFT
        elif cid.action == "ai":
            info = await self.service.add_ai(here, user.id)
            text = texts.AI_SEATED.format(name=plain_name(info.newest_ai()), how="")
        else:
            if info.status != "lobby":
                await refuse(interaction, texts.ALREADY_STARTED)
                return
            await self.service.start(here, user.id, is_manager=is_manager(interaction, info.guild_id))
            text = texts.STARTED
        await answer(interaction, text)

    async def _pending(self, interaction: discord.Interaction,
                       cid: ids.PromptId | ids.ModalId) -> tuple[PendingPrompt, ShownPrompt] | None:
        """The open prompt this component belongs to, parsed once, with its names filled in; None
        (after refusing) when it is not this user's or no longer open.

        In a DM the seat decides (the user must hold the id's seat); in a guild (`/game act`'s
        prompt) the match must also be the channel's own. The common case (one's own open prompt
        in a DM) costs one read: this runs before a modal opens, on the acknowledgement's clock."""
        try:
            elsewhere = interaction.guild_id is not None and not clicked_here(
                interaction, await self.service.get_match(cid.match_id))
            if elsewhere:
                await refuse(interaction, NOT_HERE)
                return None
            pending = await self.service.pending_prompt(cid.match_id, interaction.user.id)
        except NotSeated:
            await refuse(interaction, await self._not_yours(cid, interaction.user.id))
            return None
        except NoMatch:
            await refuse(interaction, NOT_OURS)
            return None
        if pending is not None and pending.seat == cid.seat and pending.version == cid.version:
            if (pending.undo_mark is not None and interaction.message is not None
                    and await self.service.prompt_retired(cid.match_id, interaction.message.id)):
                await refuse(interaction, RETIRED)  # sent before an undo: its newer copy is live
                return None
            return pending, shown_prompt(pending.prompt)
        info = await self.service.get_match(cid.match_id)
        if info.seat_user(cid.seat) != interaction.user.id:
            await refuse(interaction, await self._not_yours(cid, interaction.user.id))
            return None
        # A shared choice someone else took first says so; anything else simply moved on.
        await refuse(interaction, await self.service.stale_reason(cid.match_id, cid.seat, cid.version) or NOT_OPEN)
        return None

    async def _not_yours(self, cid: ids.PromptId | ids.ModalId, user_id: int) -> str:
        """Why a seat's component is not this user's: they left the seat (it passed on), or it
        was never theirs."""
        why = await self.service.passed_on(cid.match_id, cid.seat, user_id)
        return NOT_YOURS if why is None else texts.SEAT_PASSED_ON.format(why=why)

    async def prompt(self, interaction: discord.Interaction, cid: ids.PromptId, data: dict[str, Any]) -> None:
        if cid.op == "n":
            # A modal must be the first response: read, check, open; nothing slow before it.
            found = await self._pending(interaction, cid)
            if found is None:
                return
            pending, shown = found
            prompt = named_prompt(shown, pending.names)
            if not prompt.fields:  # nothing to enter (Discord refuses an empty form): answered as it stands
                async with ack_window.window(interaction, self.reply_wait):
                    await self._submit(interaction, cid.match_id, cid.seat, cid.version,
                                       named_prompt(shown, plain_names(pending.names)), dict(prompt.default))
                return
            await interaction.response.send_modal(NumbersModal(cid.match_id, cid.seat, cid.version, prompt))
            return
        async with ack_window.window(interaction, self.reply_wait):  # the reply rides in the callback
            await self._clicked(interaction, cid, data)

    async def _clicked(self, interaction: discord.Interaction, cid: ids.PromptId, data: dict[str, Any]) -> None:
        if cid.op != "c" and await self._judged_in_submit(interaction, cid, lambda p, s: _clicked_choice(cid, p, s, data)):
            return
        found = await self._pending(interaction, cid)
        if found is None:
            return
        pending, shown = found
        if cid.op == "c":
            prompt = named_prompt(shown, pending.names)
            written = named_prompt(shown, plain_names(pending.names))
            await ack_window.update(
                interaction,
                content=prompt_text(written, pending.deadline, texts.CHANGE_CHOICE),
                view=prompt_view(cid.match_id, cid.seat, cid.version, prompt),
            )
            return
        made = _clicked_choice(cid, pending, shown, data)
        if isinstance(made, str):
            await refuse(interaction, made)
            return
        await self._submit(interaction, cid.match_id, cid.seat, cid.version, *made)

    async def modal(self, interaction: discord.Interaction, cid: ids.ModalId, data: dict[str, Any]) -> None:
        values: dict[str, str] = {}
        for row in data.get("components", []):
            inner = row.get("components") or ([row["component"]] if "component" in row else [])
            for comp in inner:
                values[str(comp.get("custom_id"))] = str(comp.get("value", ""))
        if interaction.message is None:  # a form opened by a command: no message for the callback to update
            await interaction.response.defer()
            await self._submitted(interaction, cid, values)
            return
        async with ack_window.window(interaction, self.reply_wait):  # the reply rides in the callback
            await self._submitted(interaction, cid, values)

    async def _submitted(self, interaction: discord.Interaction, cid: ids.ModalId, values: dict[str, str]) -> None:
        if await self._judged_in_submit(interaction, cid, lambda p, s: _form_choice(p, s, values)):
            return
        found = await self._pending(interaction, cid)
        if found is None:
            return
        made = _form_choice(*found, values)
        if isinstance(made, str):
            await refuse(interaction, made)
            return
        await self._submit(interaction, cid.match_id, cid.seat, cid.version, *made)

    async def _judged_in_submit(self, interaction: discord.Interaction, cid: ids.PromptId | ids.ModalId,
                                make: Callable[[PendingPrompt, ShownPrompt], Made | str]) -> bool:
        """A click in a DM judged and applied in one transaction (no read of the prompt before
        it): False when it is not on the user's open prompt as that transaction found it (then
        nothing was written, and the caller judges it by the reads of ``_pending``)."""
        if interaction.guild_id is not None:
            return False  # `/game act` in a channel: the match must also be the channel's own
        made: list[Made] = []

        def choose(pending: PendingPrompt) -> dict[str, Any]:
            if pending.seat != cid.seat:
                raise NotPending
            found = make(pending, shown_prompt(pending.prompt))
            if isinstance(found, str):
                raise Refused(found)
            made.append(found)
            return found[1]

        try:
            return await self._submit(interaction, cid.match_id, cid.seat, cid.version, None, {}, choose, made)
        except Refused as refusal:
            await refuse(interaction, refusal.text)
            return True

    async def _submit(
        self,
        interaction: discord.Interaction,
        match_id: int,
        seat: int,
        version: int,
        prompt: ShownPrompt | None,
        choice: dict[str, Any],
        choose: Callable[[PendingPrompt], dict[str, Any]] | None = None,
        made: list[Made] | None = None,
    ) -> bool:
        """Apply the choice; ``prompt`` has its names written as text (they are echoed back). In a
        DM the reply renders the seat's turn DM as the match stands after the choice (turn_dm.py),
        holding the seat's turn from the submit to its edit, as delivery does (dm_replies.py).
        With ``choose`` (``_judged_in_submit``), the prompt and choice are made in the submit's
        transaction (into ``made``); False when it found the click not on the open prompt.

        A click whose next decision is sealed with the seat's private map (``drawn_next``) sends
        no read for it: ``next_decision_in_dm`` would write nothing. It shows only the seat's
        newest prompt notice of ``result.version``, and never one that is sealed and carries a
        view. The notice of that version is the one the submit's transaction wrote, sealed with
        the view (``drawn_next``): a later transaction writes a prompt notice for the seat only
        when it gives the seat a new version, a later step's, except an undo's, which cuts the log
        back and may give a version again. Whatever the read would have found, writing nothing
        is right: it is what the read decides on any doubt, delivery then writes the DM, and no
        stale prompt can be shown by an answer that shows nothing."""
        in_dm = interaction.guild_id is None
        async with self.wiring.seat_turns.hold(match_id, seat) if in_dm else contextlib.nullcontext():
            try:
                result = await self.service.submit(
                    match_id, interaction.user.id, choice, version=version, interaction_id=str(interaction.id),
                    in_guild=not in_dm, message_id=interaction.message.id if in_dm and interaction.message else None,
                    choose=choose,
                )
            except (NotPending, NotSeated, NoMatch):
                if choose is None:
                    raise
                return False  # nothing written: judged by the reads
            if in_dm and interaction.message is not None:  # delivery's next edits of this DM go through this click
                self.wiring.seat_turns.clicks.clicked(interaction.message.id, interaction)
            if choose is not None:
                if not made:
                    return False  # this interaction's choice was made already (its answer again): judged by the reads
                prompt, choice = made[-1]
            assert prompt is not None
            if in_dm and result.claimed is not None and result.locked and result.version != version:
                # the decision this DM showed is closed, and its notice's delivery not marked: it has nothing to write
                self.wiring.seat_turns.closed_by_click(result.claimed)
            try:
                if in_dm and result.locked and result.version not in (None, version):
                    # the seat's next decision, in this very message (one DM per turn): the answer
                    # shows it when its notice says so plainly, else delivery writes it; a sealed
                    # one with the seat's private map (``drawn_next``) it never shows: no read
                    if not result.drawn_next:
                        await next_decision_in_dm(self.wiring, interaction, match_id, seat, result.version)
                    else:  # delivery's edit of this DM may still ride in this click's callback (clicked_dms.py)
                        ack_window.leave_open(interaction)
                elif in_dm:  # delivery may write the seat's turn DM from another process: its fence orders them
                    await reply_in_dm(self.wiring, interaction, Answered(match_id, seat, version, prompt, choice,
                                                                         result.private))
                else:
                    content, view = answered_form(Answered(match_id, seat, version, prompt, choice, result.private))
                    await ack_window.update(interaction, content=content, view=view, attachments=[])
            finally:
                if result.reminders or result.pings:  # after the answer: it does not wait for them
                    info = await self.service.get_match(match_id)
                    await nudges.answered(interaction, result.reminders, plain_name(info.title))
                    await nudges.turn_done(self.wiring.messenger, info.channel_id, result.pings,
                                           plain_name(interaction.user.display_name))
            return True


Made = tuple[ShownPrompt, dict[str, Any]]
"""A click's choice, with its prompt's names written as text (echoed back in the reply)."""


class Refused(Exception):  # noqa: N818 (a verdict, not a failure)
    """A click's choice refused while its transaction was open: nothing was written."""

    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.text = text


def _clicked_choice(cid: ids.PromptId, pending: PendingPrompt, shown: ShownPrompt, data: dict[str, Any]) -> Made | str:
    """The choice a select or button click makes on its prompt, or why it is refused."""
    prompt = named_prompt(shown, pending.names)
    written = named_prompt(shown, plain_names(pending.names))
    if cid.op == "q":
        field = quick_field(prompt)
        raw = str((data.get("values") or [""])[0])
        if field is None:
            return NOT_OPEN
        if not raw.lstrip("-").isdigit() or not field.min <= int(raw) <= field.max:
            return texts.QUICK_OUT_OF_RANGE.format(label=field.label, raw=raw[:20], low=field.min, high=field.max)
        return written, {field.name: int(raw)}
    if cid.op == "m":
        return written, {prompt.field: [str(v) for v in data.get("values", [])]}
    value = cid.value
    if value is None and data.get("values"):
        value = str(data["values"][0])
    option = next((option for option in prompt.options if option.value == value), None)
    if option is None:
        return NOT_OPEN
    return written, option.choice


def _form_choice(pending: PendingPrompt, shown: ShownPrompt, values: dict[str, str]) -> Made | str:
    """The choice a numbers form makes on its prompt, or why it is refused."""
    prompt = named_prompt(shown, plain_names(pending.names))
    fields = prompt.fields
    if not fields or set(values) != {field.name for field in fields}:  # forged, or another prompt's form
        asks = ", ".join(field.label for field in fields) if fields else "it is not a form of numbers"
        return texts.FORM_MISMATCH.format(asks=asks)
    choice: dict[str, Any] = {}
    for field in fields:
        raw = values.get(field.name, "").strip()
        try:
            choice[field.name] = int(raw)
        except ValueError:
            return texts.NOT_A_NUMBER.format(label=field.label, raw=raw)
        if not field.min <= choice[field.name] <= field.max:
            return texts.OUT_OF_RANGE.format(label=field.label, raw=raw, low=field.min, high=field.max)
    return prompt, choice
