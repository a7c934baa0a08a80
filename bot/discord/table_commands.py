"""`/game mine`, `/game undo` and `/game away`: a player's matches, taking choices back, time away.

The commands live in a plain holder class and are bound into ``GameCommands`` (commands.py) by
name, so ``self`` is the `/game` group there; ``CommandBase`` holds what both classes use
(``self.service``, ``self._private`` and the rest), so either reads as it runs.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

import discord
from discord import app_commands

from bot.discord import texts
from bot.discord.mentions import plain_name
from bot.discord.permissions import is_manager
from bot.discord.prompt_ui import timestamp
from bot.discord.replies import answer, clip
from bot.discord.wiring import Wiring
from bot.service.away import AWAY_HOURS
from bot.service.notify import THREAD
from bot.service.types import Place
from bot.service.undo import MAX_BACK
from bot.service.wording import counted

if TYPE_CHECKING:
    from datetime import datetime

    from bot.service import MatchService
    from bot.service.mine import MyMatch
    from bot.service.notify import NotifyPrefs

log = logging.getLogger(__name__)


def mine_line(found: MyMatch, user_id: int) -> str:
    """One match of `/game mine`: where, the phase, what it waits for, the deadline."""
    where = f"**{plain_name(found.title)}** in <#{found.channel_id}>"
    if found.status == "lobby":
        return f"- {where}: lobby, not started yet"
    parts = [plain_name(found.phase)]
    if found.away_until is not None:
        parts.append(f"you are away until {timestamp(found.away_until)}")
    if found.owe is not None:
        parts.append(f"**your turn**: {plain_name(found.owe)}")
    if found.waiting_for:
        parts.append("waiting for " + ", ".join(plain_name(n) for n in found.waiting_for))
    elif found.owe is None:
        parts.append("nobody owes a choice now")
    if found.status == "paused":
        parts.append("paused")
    elif found.deadline is not None:
        parts.append(f"deadline {timestamp(found.deadline)}")
    return f"- {where}: " + "; ".join(parts)


def channel_of(interaction: discord.Interaction) -> int:
    """The channel a `/game` command was typed in: the group is guild-only, and Discord gives
    the channel of every guild interaction."""
    assert interaction.channel_id is not None
    return interaction.channel_id


class CommandBase:
    """What every `/game` command uses: the service, a private "thinking" acknowledgement, the
    answer that wakes the delivery, and Manage Server judged against the match's own guild."""

    wiring: Wiring

    @property
    def service(self) -> MatchService:
        return self.wiring.service

    async def _private(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)

    async def _once(self, interaction: discord.Interaction, signature: str,
                    apply: Callable[[], Awaitable[str]], *, unless_moved: bool = False) -> None:
        """A host command applied once (bot/service/command_log.py): the same interaction, or
        the same command repeated within a minute, answers what was done instead of doing it again.
        ``unless_moved``: a repeat after the match moved (an undo refused meanwhile) is a new command."""
        user_id = interaction.user.id
        place = Place(channel_of(interaction), user_id)
        info = await self.service.find_match(place)
        if info is None:
            await self._done(interaction, await apply())
            return
        done = await self.service.command_done_before(info.id, user_id, str(interaction.id), signature,
                                                      version=info.version if unless_moved else None)
        if done is not None:
            await self._done(interaction, texts.ALREADY_DONE.format(when=timestamp(done.at), text=done.text))
            return
        text = await apply()
        after = await self.service.find_match(place) if unless_moved else None
        await self.service.note_command(info.id, user_id, str(interaction.id), signature, text,
                                        version=after.version if after is not None else None)
        await self._done(interaction, text, match_id=info.id)

    async def _manager(self, interaction: discord.Interaction) -> bool:
        """Manage Server counts for the channel's match only if it is held in that match's guild."""
        info = await self.service.find_match(Place(channel_of(interaction), interaction.user.id))
        return info is not None and is_manager(interaction, info.guild_id)

    async def _done(self, interaction: discord.Interaction, text: str, match_id: int | None = None) -> None:
        """Answer; a confirmation Discord refuses (an expired token) of a command that changed
        ``match_id`` is kept and told with the person's next command there."""
        info = await self.service.find_match(Place(channel_of(interaction), interaction.user.id))
        if info is not None:  # what an earlier command of theirs did, when Discord refused to tell them then
            earlier = [texts.EARLIER_OUTCOME.format(text=said)
                       for said in await self.service.take_unheard(info.id, interaction.user.id)]
            text = "\n\n".join([*earlier, text])
        try:
            await answer(interaction, text)
        except discord.HTTPException as exc:
            if match_id is None or not 400 <= exc.status < 500 or exc.status == 429:
                raise
            await self.service.note_unheard(match_id, interaction.user.id, str(interaction.id), text)
            log.info("Discord refused the confirmation of a command (%s); it is told with the next one", exc)
        finally:
            self.wiring.wake_delivery()


def prefs_summary(prefs: NotifyPrefs, now: datetime) -> str:
    """The settings in one line, for `/game mine`."""
    parts = ["reminders on" if prefs.reminders else "reminders off"]
    if prefs.quiet is not None:
        until = prefs.quiet_until(now)
        parts.append(f"quiet {prefs.quiet.text}" + (f" (quiet now, until {timestamp(until)})" if until else ""))
    parts.append("turns in the thread" if prefs.announce == THREAD else "turns by DM")
    if prefs.heads_up:
        parts.append("heads-up on")
    return texts.MINE_NOTIFY.format(summary=", ".join(parts))


class TableCommands(CommandBase, app_commands.Group):
    """Holder of the commands; never instantiated. A Group, as the ``self`` they run with is."""

    @app_commands.command(name="mine", description="Your open matches: whose turn it is and your deadlines")
    @app_commands.describe(everywhere="also your matches on other servers with this bot")
    async def mine(self, interaction: discord.Interaction, everywhere: bool = False) -> None:
        await self._private(interaction)
        found = await self.service.my_matches(interaction.user.id, None if everywhere else interaction.guild_id)
        if everywhere:  # only servers the bot is still on: a channel elsewhere is no link at all
            found = [m for m in found if m.guild_id is None or self.wiring.messenger.get_guild(m.guild_id) is not None]
        if not found:
            where = texts.ON_ANY_SERVER if everywhere else texts.ON_THIS_SERVER
            await self._done(interaction, texts.NO_SEAT_ANYWHERE.format(where=where))
            return
        now = self.service.clock()
        lines = []
        for each in found:  # with the player's notification settings for that match (`/game notify`)
            prefs = await self.service.notify_prefs(each.match_id, interaction.user.id)
            lines.append(f"{mine_line(each, interaction.user.id)}; {prefs_summary(prefs, now)}")
        await self._done(interaction, clip("\n".join([texts.MY_MATCHES, *lines])))

    @app_commands.command(name="undo", description="Take the last choices back (host; the players affected agree)")
    @app_commands.describe(back="how many choices to take back, newest first (default 1)")
    async def undo(self, interaction: discord.Interaction,
                   back: app_commands.Range[int, 1, MAX_BACK] = 1) -> None:
        await self._private(interaction)

        async def apply() -> str:
            manager = await self._manager(interaction)
            outcome = await self.service.request_undo(channel_of(interaction), interaction.user.id, back,
                                                      is_manager=manager)
            if outcome.status == "done":
                return texts.UNDONE.format(summary=outcome.summary, why=outcome.why)
            asked = ", ".join(plain_name(n) for n in outcome.asked)
            return texts.UNDO_ASKED.format(asked=asked, summary=outcome.summary, why=outcome.why,
                                           due=timestamp(outcome.due_at))

        # a retried or double-sent undo must not take back a second choice
        await self._once(interaction, f"undo:{back}", apply, unless_moved=True)

    @app_commands.command(name="away", description="Be away for some hours: the AI plays for you, or your deadlines wait")
    @app_commands.describe(hours="how long you will be away",
                           everywhere="in every match you play on this server, not only here")
    async def away(self, interaction: discord.Interaction,
                   hours: app_commands.Range[float, AWAY_HOURS[0], AWAY_HOURS[1]], everywhere: bool = False) -> None:
        await self._private(interaction)
        if everywhere:
            covered = await self.service.go_away_everywhere(interaction.guild_id, interaction.user.id, hours)
            matches = [texts.AWAY_EVERYWHERE_MATCH.format(
                title=plain_name(one.title), match_id=one.match_id, channel_id=one.channel_id,
                meanwhile=texts.AWAY_AI_PLAYS_SHORT if one.outcome.mode == "ai" else texts.AWAY_DEADLINES_WAIT_SHORT)
                for one in covered]
            text = clip(texts.AWAY_EVERYWHERE.format(until=timestamp(covered[0].outcome.until),
                                                     count=counted(len(covered), "match", "matches"),
                                                     matches=", ".join(matches)))
            try:  # not `_done`: it looks for the one match here, and a channel may run several
                await answer(interaction, text)
            finally:
                self.wiring.wake_delivery()
            return
        outcome = await self.service.go_away(channel_of(interaction), interaction.user.id, hours)
        meanwhile = texts.AWAY_AI_PLAYS if outcome.mode == "ai" else texts.AWAY_DEADLINES_WAIT
        await self._done(interaction, texts.AWAY.format(until=timestamp(outcome.until), meanwhile=meanwhile))
