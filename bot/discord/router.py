"""Every component click and modal submit of the bot lands here, parsed from its custom_id
and judged by the service: no in-memory view is needed, so buttons survive restarts and
work on whichever process receives them (DM clicks reach shard 0 only)."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

import discord

from bot.discord import ids, nudges
from bot.discord.board_clicks import board_click
from bot.discord.errors import report
from bot.discord.mentions import plain_name, plain_names
from bot.discord.prompt_ui import (
    NumbersModal,
    changed_view,
    option_label,
    prompt_text,
    prompt_view,
    quick_field,
)
from bot.discord.replies import answer, clip
from bot.discord.undo_ui import RETIRED, undo_click
from bot.naming import named_prompt
from bot.service import MatchInfo, NoMatch, NotSeated, ServiceError
from bot.service.types import Place

if TYPE_CHECKING:
    from bot.discord.app import WarhostBot

log = logging.getLogger(__name__)

NOT_OURS = "This button is not part of an open warhost match, so nothing was done."
NOT_HERE = "This button is not part of an open warhost match here, so nothing was done."
NOT_OPEN = "This choice is no longer open: the game has moved on. Use `/game act` to see what is open now."
NOT_YOURS = "This choice belongs to another player, so nothing was done."


async def refuse(interaction: discord.Interaction, text: str) -> None:
    """An ephemeral refusal, whether or not the interaction was already acknowledged."""
    await answer(interaction, text)


def clicked_here(interaction: discord.Interaction, info: MatchInfo, *, lobby: bool = False) -> bool:
    """Whether the interaction comes from the match's own guild and channel (or thread; for the
    lobby's buttons, the channel the lobby was posted in): a custom_id copied onto a message
    elsewhere must not act on (or lend Manage Server to) a match it is not in."""
    places = {info.channel_id, info.lobby_channel_id} if lobby else {info.channel_id}
    return interaction.guild_id == info.guild_id and interaction.channel_id in places


class Router:
    def __init__(self, bot: WarhostBot) -> None:
        self.bot = bot

    @property
    def svc(self) -> Any:
        return self.bot.svc

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        if interaction.type not in (discord.InteractionType.component, discord.InteractionType.modal_submit):
            return
        data: dict[str, Any] = interaction.data or {}  # type: ignore[assignment]
        parsed = ids.parse(str(data.get("custom_id", "")))
        try:
            if parsed is None:
                await refuse(interaction, NOT_OURS)
            elif isinstance(parsed, ids.LobbyId):
                await self.lobby(interaction, parsed)
            elif isinstance(parsed, ids.BoardId):
                await board_click(self.bot, interaction, parsed)
            elif isinstance(parsed, ids.PromptId):
                await self.prompt(interaction, parsed, data)
            elif isinstance(parsed, ids.UndoId):
                await undo_click(self.bot, interaction, parsed)
            else:
                await self.modal(interaction, parsed, data)
        except ServiceError as exc:
            await refuse(interaction, str(exc))
        except discord.HTTPException:
            log.exception("Discord refused a reply to interaction %s", interaction.id)
        except Exception as exc:  # a database error, a bug: the player still hears back, in plain words
            await report(interaction, exc)
        finally:
            self.bot.wake_delivery()

    async def lobby(self, interaction: discord.Interaction, cid: ids.LobbyId) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            info = await self.svc.get_match(cid.match_id)
        except NoMatch:
            info = None
        if info is None or not clicked_here(interaction, info, lobby=True):
            await refuse(interaction, NOT_HERE)
            return
        if info.status != "lobby" and cid.action != "start":
            await refuse(interaction, "This lobby is closed: the match has started or ended.")
            return
        user = interaction.user
        here = Place(info.channel_id, user.id, match_id=info.id)
        if cid.action == "join":
            await self.svc.join(here, user.id, user.display_name)
            text = f"You joined the {info.title} match."
        elif cid.action == "leave":
            await self.svc.leave(here, user.id)
            text = "You left the lobby."
        elif cid.action == "ai":
            await self.svc.add_ai(here, user.id)
            text = "An AI player took a seat."
        else:
            if info.status != "lobby":
                await refuse(interaction, "This match has already started.")
                return
            await self.svc.start(here, user.id, is_manager=self.bot.is_manager(interaction, info.guild_id))
            text = "The match has started. Your choices come to you by DM."
        await answer(interaction, text)

    async def _pending(self, interaction: discord.Interaction,
                       cid: ids.PromptId | ids.ModalId) -> tuple[Any, dict[str, Any]] | None:
        """The open prompt this component belongs to, with its names filled in; None
        (after refusing) when it is not this user's or no longer open.

        In a DM the seat decides (the user must hold the id's seat); in a guild (`/game act`'s
        prompt) the match must also be the channel's own. The common case (one's own open prompt
        in a DM) costs one read: this runs before a modal opens, on the acknowledgement's clock."""
        try:
            elsewhere = interaction.guild_id is not None and not clicked_here(
                interaction, await self.svc.get_match(cid.match_id))
            if elsewhere:
                await refuse(interaction, NOT_HERE)
                return None
            pending = await self.svc.pending_prompt(cid.match_id, interaction.user.id)
        except NotSeated:
            await refuse(interaction, NOT_YOURS)
            return None
        except NoMatch:
            await refuse(interaction, NOT_OURS)
            return None
        if pending is not None and pending.seat == cid.seat and pending.version == cid.version:
            if (pending.undo_mark is not None and interaction.message is not None
                    and await self.svc.prompt_retired(cid.match_id, interaction.message.id)):
                await refuse(interaction, RETIRED)  # sent before an undo: its newer copy is live
                return None
            return pending, named_prompt(pending.prompt.model_dump(), pending.names)
        info = await self.svc.get_match(cid.match_id)
        if info.seat_user(cid.seat) != interaction.user.id:
            await refuse(interaction, NOT_YOURS)
            return None
        # A shared choice someone else took first says so; anything else simply moved on.
        await refuse(interaction, await self.svc.stale_reason(cid.match_id, cid.seat, cid.version) or NOT_OPEN)
        return None

    async def prompt(self, interaction: discord.Interaction, cid: ids.PromptId, data: dict[str, Any]) -> None:
        if cid.op == "n":
            # A modal must be the first response: read, check, open; nothing slow before it.
            found = await self._pending(interaction, cid)
            if found is None:
                return
            _, prompt = found
            await interaction.response.send_modal(NumbersModal(cid.match_id, cid.seat, cid.version, prompt))
            return
        await interaction.response.defer()
        found = await self._pending(interaction, cid)
        if found is None:
            return
        pending, prompt = found
        written = named_prompt(pending.prompt.model_dump(), plain_names(pending.names))
        if cid.op == "c":
            await interaction.edit_original_response(
                content=prompt_text(written, pending.deadline, "Change your choice:"),
                view=prompt_view(cid.match_id, cid.seat, cid.version, prompt),
            )
            return
        if cid.op == "q":
            field = quick_field(prompt)
            raw = str((data.get("values") or [""])[0])
            if field is None:
                await refuse(interaction, NOT_OPEN)
                return
            if not raw.lstrip("-").isdigit() or not field["min"] <= int(raw) <= field["max"]:
                await refuse(interaction, f"{field['label']}: '{raw[:20]}' is not from {field['min']} to "
                                          f"{field['max']}. Nothing was changed.")
                return
            choice: dict[str, Any] = {field["name"]: int(raw)}
        elif cid.op == "m":
            values = [str(v) for v in data.get("values", [])]
            choice = {prompt.get("field", "picks"): values}
        else:
            value = cid.value
            if value is None and data.get("values"):
                value = str(data["values"][0])
            option = next((o for o in prompt.get("options", []) if o["value"] == value), None)
            if option is None:
                await refuse(interaction, NOT_OPEN)
                return
            choice = option["choice"]
        await self._submit(interaction, cid.match_id, cid.seat, cid.version, written, choice)

    async def modal(self, interaction: discord.Interaction, cid: ids.ModalId, data: dict[str, Any]) -> None:
        values: dict[str, str] = {}
        for row in data.get("components", []):
            inner = row.get("components") or ([row["component"]] if "component" in row else [])
            for comp in inner:
                values[str(comp.get("custom_id"))] = str(comp.get("value", ""))
        await interaction.response.defer()
        found = await self._pending(interaction, cid)
        if found is None:
            return
        pending, _prompt = found
        prompt = named_prompt(pending.prompt.model_dump(), plain_names(pending.names))
        choice: dict[str, Any] = {}
        for field in prompt.get("fields", []):
            raw = values.get(field["name"], "").strip()
            try:
                choice[field["name"]] = int(raw)
            except ValueError:
                await refuse(interaction, f"{field['label']}: '{raw}' is not a whole number. Nothing was changed.")
                return
            if not field["min"] <= choice[field["name"]] <= field["max"]:
                await refuse(interaction, f"{field['label']}: {raw} is not from {field['min']} to {field['max']}. "
                                          "Nothing was changed.")
                return
        await self._submit(interaction, cid.match_id, cid.seat, cid.version, prompt, choice)

    async def _submit(
        self,
        interaction: discord.Interaction,
        match_id: int,
        seat: int,
        version: int,
        prompt: dict[str, Any],
        choice: dict[str, Any],
    ) -> None:
        """Apply the choice; ``prompt`` has its names written as text (they are echoed back)."""
        result = await self.svc.submit(
            match_id, interaction.user.id, choice, version=version, interaction_id=str(interaction.id),
            in_guild=interaction.guild_id is not None,
        )
        if result.reminders or result.pings:
            info = await self.svc.get_match(match_id)
            await nudges.answered(interaction, result.reminders, plain_name(info.title))
            await nudges.turn_done(self.bot, info.channel_id, result.pings, plain_name(interaction.user.display_name))
        if interaction.guild_id is None and result.locked and result.version not in (None, version):
            return  # the seat's next decision: delivery turns this very message into it (one DM per turn)
        label = option_label(prompt, choice)
        if prompt.get("secret"):
            content = (
                f"Your choice for **{prompt.get('text')}**: {label}.\n"
                "It stays sealed until everyone has chosen; you can change it until then."
            )
            if result.private:
                content = clip("\n".join([content, *(discord.utils.escape_mentions(line) for line in result.private)]))
            view: discord.ui.View = changed_view(match_id, seat, version)
        else:
            content = f"Done: {str(prompt.get('text'))[:1800]}\nYou chose: **{label.rstrip('.')}**."
            view = discord.ui.View()
        await interaction.edit_original_response(content=content, view=view, attachments=[])
