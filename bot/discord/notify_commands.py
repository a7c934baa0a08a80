"""`/game notify`: how a player hears of their turns, for this match or all their matches on
the server (bot/service/notify.py holds the rules). Bound into ``GameCommands`` (commands.py) by
name, as table_commands.py's are."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

import discord
from discord import app_commands

from bot.discord import texts
from bot.discord.mentions import plain_name
from bot.discord.prompt_ui import timestamp
from bot.discord.table_commands import CommandBase
from bot.service import quiet_hours
from bot.service.notify import DM, THREAD
from bot.service.types import Place

if TYPE_CHECKING:
    from bot.service.notify import NotifyPrefs

ANNOUNCE_CHOICES = [app_commands.Choice(name="DM (default)", value=DM),
                    app_commands.Choice(name="a mention in the match thread", value=THREAD)]
MAX_QUIET = 20
"""Characters of the quiet option ("23:00-08:00" needs 11)."""
MAX_ZONE = 64


def prefs_lines(prefs: NotifyPrefs, now: datetime) -> list[str]:
    """A player's settings in effect, one line each, the ones set for the match marked."""

    def own(name: str) -> str:
        return texts.NOTIFY_OWN if name in prefs.per_match else ""

    lines = [(texts.NOTIFY_REMINDERS_ON if prefs.reminders else texts.NOTIFY_REMINDERS_OFF) + own("reminders")]
    if prefs.quiet is None:
        lines.append(texts.NOTIFY_NO_QUIET + own("quiet"))
    else:
        until = prefs.quiet_until(now)
        quiet_now = texts.NOTIFY_QUIET_NOW.format(until=timestamp(until)) if until is not None else ""
        lines.append(texts.NOTIFY_QUIET.format(quiet=prefs.quiet.text, now=quiet_now) + own("quiet"))
    lines.append((texts.NOTIFY_IN_THREAD if prefs.announce == THREAD else texts.NOTIFY_BY_DM) + own("announce"))
    lines.append((texts.NOTIFY_HEADS_UP_ON if prefs.heads_up else texts.NOTIFY_HEADS_UP_OFF) + own("heads_up"))
    return [f"- {line}" for line in lines]


class NotifyCommands(CommandBase, app_commands.Group):
    """Holder of the command; never instantiated. A Group, as the ``self`` it runs with is."""

    @app_commands.command(name="notify", description="How you hear of your turns: reminders, quiet hours, DMs or thread")
    @app_commands.describe(
        everywhere="all your matches on this server (default: this match only)",
        reminders="reminders at half and 90% of a decision's time",
        quiet="quiet hours, like 23:00-08:00, or off",
        zone="your time zone for quiet hours, like Europe/Berlin",
        announce="where your turn is announced",
        heads_up="a heads-up when the seat before yours starts its turn",
    )
    @app_commands.choices(announce=ANNOUNCE_CHOICES)
    async def notify(self, interaction: discord.Interaction, everywhere: bool = False, reminders: bool | None = None,
                     quiet: app_commands.Range[str, 1, MAX_QUIET] | None = None,
                     zone: app_commands.Range[str, 1, MAX_ZONE] | None = None,
                     announce: str | None = None, heads_up: bool | None = None) -> None:
        await self._private(interaction)
        assert interaction.guild_id is not None and interaction.channel_id is not None  # the group is guild-only
        change = await self.service.set_notify(
            Place(interaction.channel_id, interaction.user.id), interaction.guild_id, everywhere=everywhere,
            reminders=reminders, quiet=quiet, time_zone=zone, announce=announce, heads_up=heads_up)
        now = self.service.clock()
        if not change.changed:
            lines = [texts.NOTIFY_NOTHING_GIVEN]
        elif change.everywhere:
            lines = [texts.NOTIFY_SAVED_EVERYWHERE]
        else:
            lines = [texts.NOTIFY_SAVED_MATCH.format(title=plain_name(change.match_title or ""))]
        lines += prefs_lines(change.prefs, now)
        if quiet is not None and zone is None and change.prefs.quiet is not None \
                and change.prefs.time_zone == quiet_hours.DEFAULT_ZONE:
            lines.append(texts.NOTIFY_NEEDS_ZONE)
        await self._done(interaction, "\n".join(lines))

    @notify.autocomplete("zone")
    async def zone_autocomplete(self, interaction: discord.Interaction,
                                current: str) -> list[app_commands.Choice[str]]:
        return [app_commands.Choice(name=name, value=name) for name in quiet_hours.zone_matches(current)]
