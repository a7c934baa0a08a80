"""The checks behind `python -m bot doctor`: what a server admin gets wrong when setting the bot
up (a stale token, an endpoint URL that steals the commands, a refused command upload, a channel
that takes a permission away), each told in plain words with what to do about it.

Only REST calls: no gateway connection, no database. The command upload is the bot's own
(`WarhostBot.sync_commands` of the game cog's /game group), so a definition Discord refuses
shows here before a start-up.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import aiohttp
import discord
from discord import app_commands

from bot.discord.app import WarhostBot, point_discord_at
from bot.discord.cog import GameCog
from bot.discord.permissions import (
    ADMINISTRATOR,
    CREATE_PUBLIC_THREADS,
    NEEDS,
    NEEDS_SEND_MESSAGES,
    SEND_MESSAGES,
    SEND_MESSAGES_IN_THREADS,
    TIMED_OUT_KEEPS,
    base_permissions,
    channel_permissions,
    held_by_slowmode,
    invite_url,
)
from bot.settings import Settings

REFUSED_TOKEN = ("Discord refused the token: reset it under Bot in the developer portal and put it in .env "
                 "as DISCORD_TOKEN=... (https://discord.com/developers/applications)")
TEXT_CHANNELS = {0: "text channel", 5: "announcement channel"}
THREADS = {10, 11, 12}
CHANNEL_SETTINGS = "Edit Channel → Permissions → the bot's role"


@dataclass(frozen=True)
class Finding:
    """One line of the report: passed (✓), failed (✗) or a plain note (·); `details` go below it."""

    ok: bool | None
    text: str
    required: bool = True
    indent: int = 0
    details: tuple[str, ...] = ()

    def lines(self) -> list[str]:
        mark = {True: "✓", False: "✗", None: "·"}[self.ok]
        pad = "  " * self.indent
        return [f"{pad}{mark} {self.text}", *(f"{pad}    {line}" for line in self.details)]


@dataclass
class Report:
    """Hands each finding on as soon as it is known, remembering whether a required one failed."""

    emit: Callable[[Finding], None]
    failed: bool = False

    def add(self, finding: Finding) -> None:
        if finding.ok is False and finding.required:
            self.failed = True
        self.emit(finding)


class CheckBot(WarhostBot):
    """The bot as the checks need it: `login` reads the token and the application over REST,
    and nothing is started (no database, no gateway, no loops): the game cog is built for its
    /game group only, never loaded."""

    async def setup_hook(self) -> None:
        self.tree.add_command(GameCog(self).group)


async def check_setup(settings: Settings, token: str, *, channel_id: int | None = None,
                      guild_id: int | None = None, emit: Callable[[Finding], None]) -> bool:
    """Run every check in order, stopping where the next one cannot run; True when all required pass."""
    report = Report(emit)
    point_discord_at(settings)
    bot = CheckBot(settings)
    try:
        if await _login(bot, token, report):
            await _commands(bot, report)
            if channel_id is not None or guild_id is not None:
                await _placement(bot, report, channel_id, guild_id)
            else:
                report.add(Finding(None, "add --channel CHANNEL_ID to check the bot's permissions "
                                         "in the channel where you will play"))
    finally:
        await bot.close()
    return not report.failed


async def _login(bot: CheckBot, token: str, report: Report) -> bool:
    """The token (GET /users/@me) and the application (GET /oauth2/applications/@me)."""
    try:
        await bot.login(token)
    except discord.LoginFailure:
        report.add(Finding(False, REFUSED_TOKEN))
        return False
    except discord.HTTPException as exc:
        if bot.user is not None:
            report.add(Finding(True, f"the token works: logged in as {bot.user} (id {bot.user.id})"))
        what = "check the token" if bot.user is None else "read the application"
        report.add(Finding(False, f"could not {what}: Discord answered {_said(exc)}"))
        return False
    except (aiohttp.ClientError, OSError, TimeoutError) as exc:
        report.add(Finding(False, f"could not reach Discord at {discord.http.Route.BASE} ({str(exc) or type(exc).__name__}): "
                                  "check the network connection, or DISCORD_API_BASE if you set it"))
        return False
    assert bot.user is not None
    report.add(Finding(True, f"the token works: logged in as {bot.user} (id {bot.user.id})"))
    app = bot.application
    assert app is not None
    report.add(Finding(True, f"the application is {app.name} (id {app.id}); invite the bot with "
                             f"{invite_url(app.id)}"))
    if app.interactions_endpoint_url:
        report.add(Finding(False, f"the application has an Interactions Endpoint URL "
                                  f"({app.interactions_endpoint_url}), so Discord sends /game there and "
                                  "never to this bot: clear it under General Information in the developer portal"))
    return True


async def _commands(bot: CheckBot, report: Report) -> None:
    """The /game upload, exactly as the bot does it at start-up."""
    dev_guild = bot.settings.dev_guild_id
    try:
        synced = await bot.sync_commands()
    except app_commands.CommandSyncFailure as exc:
        lines = str(exc).splitlines()
        report.add(Finding(False, f"Discord refused the /game commands ({_said(exc)}); the bot's command "
                                  "definitions (bot/discord/commands.py) need fixing where it says:",
                           details=tuple(line.strip() for line in lines[1:])))
        return
    except discord.Forbidden as exc:
        report.add(Finding(False, f"Discord refused the commands for server {dev_guild} ({_said(exc)}): the bot "
                                  "is not on that server, or was invited without the applications.commands "
                                  "scope; invite it with the link above (or fix DEV_GUILD_ID)"))
        return
    except discord.HTTPException as exc:
        report.add(Finding(False, f"uploading the commands failed: Discord answered {_said(exc)}"))
        return
    group = next((c for c in synced if c.name == "game"), None)
    count = len(group.options) if group is not None else 0
    where = (f"to server {dev_guild} (DEV_GUILD_ID), where they show at once" if dev_guild else
             "globally (changes can take a while to show; set DEV_GUILD_ID to see them on one server at once)")
    report.add(Finding(True, f"uploaded /game with {count} subcommands {where}"))


async def _placement(bot: CheckBot, report: Report, channel_id: int | None, guild_id: int | None) -> None:
    """The channel (when given) and the bot's member and roles on its server, then the permissions."""
    channel: dict[str, Any] | None = None
    if channel_id is not None:
        channel = await _channel(bot, report, channel_id, guild_id)
        if channel is None:
            return
        guild_id = int(channel["guild_id"])
    assert guild_id is not None and bot.user is not None
    try:
        guild = await bot.http.get_guild(guild_id)
        roles = await bot.http.get_roles(guild_id)
        member = await bot.http.get_member(guild_id, bot.user.id)
    except (discord.NotFound, discord.Forbidden) as exc:
        report.add(Finding(False, f"the bot is not on server {guild_id} ({_said(exc)}): invite it with the link above"))
        return
    except discord.HTTPException as exc:
        report.add(Finding(False, f"could not read server {guild_id}: Discord answered {_said(exc)}"))
        return
    report.add(Finding(True, f"the bot is on the server {guild['name']} (id {guild_id})"))
    base = base_permissions(guild, roles, member, bot.user.id)
    until = discord.utils.parse_time(member.get("communication_disabled_until"))
    timed_out = until is not None and until > discord.utils.utcnow() and not base & ADMINISTRATOR
    if timed_out:
        report.add(Finding(False, f"the bot is timed out on {guild['name']} until {until:%Y-%m-%d %H:%M} UTC: "
                                  "remove the timeout (right-click the bot in the member list)"))
    if channel is not None:
        have = channel_permissions(base, channel, member, bot.user.id, timed_out=timed_out)
        _permissions(report, have, server=guild["name"], channel=str(channel.get("name", channel_id)))
        seconds = int(channel.get("rate_limit_per_user") or 0)
        if held_by_slowmode(seconds, have):
            report.add(Finding(False, f"#{channel.get('name', channel_id)} has slowmode ({seconds} s between posts) "
                                      f"and the bot may not bypass it: a match's posts there come {seconds} s apart "
                                      "at best; give the bot's role Bypass Slowmode or Manage Messages there "
                                      f"({CHANNEL_SETTINGS}), or turn slowmode off", required=False))
    else:
        _permissions(report, base & TIMED_OUT_KEEPS if timed_out else base, server=guild["name"], channel=None)


async def _channel(bot: CheckBot, report: Report, channel_id: int, guild_id: int | None) -> dict[str, Any] | None:
    """The channel's payload (with its permission overwrites), or None after saying what is wrong."""
    try:
        channel: dict[str, Any] = dict(await bot.http.get_channel(channel_id))
    except discord.NotFound:
        report.add(Finding(False, f"there is no channel {channel_id}: with Developer Mode on (User Settings → "
                                  "Advanced), right-click the channel and Copy Channel ID"))
        return None
    except discord.Forbidden as exc:
        report.add(Finding(False, f"the bot cannot see channel {channel_id} ({_said(exc)}): allow View Channel "
                                  f"for the bot's role there ({CHANNEL_SETTINGS}), or invite the bot to that "
                                  "server with the link above"))
        return None
    except discord.HTTPException as exc:
        report.add(Finding(False, f"could not read channel {channel_id}: Discord answered {_said(exc)}"))
        return None
    name = f"#{channel.get('name', channel_id)}"
    kind = int(channel.get("type", 0))
    if "guild_id" not in channel:
        problem = "is not on a server (a direct message?): give a server's text channel"
    elif kind in THREADS:
        problem = "is a thread: give the channel it belongs to"
    elif kind not in TEXT_CHANNELS:
        problem = "is not a text channel: matches are played in a text channel"
    elif guild_id is not None and int(channel["guild_id"]) != guild_id:
        problem = f"is on server {channel['guild_id']}, not on server {guild_id} given with --guild"
    else:
        report.add(Finding(True, f"the bot can see {name} ({TEXT_CHANNELS[kind]}, id {channel_id})"))
        return channel
    report.add(Finding(False, f"channel {name} ({channel_id}) {problem}"))
    return None


def _permissions(report: Report, have: int, *, server: str, channel: str | None) -> None:
    """A summary line, then one line per permission the bot asks for: present or missing, and what for."""
    place = f"in #{channel} on {server}" if channel is not None else f"server-wide on {server}"
    missing = [need for need in NEEDS if need.required and not need.granted(have)]
    if missing:
        report.add(Finding(False, f"the bot cannot play {place}: it lacks {', '.join(n.name for n in missing)}"))
    else:
        report.add(Finding(True, f"the bot has what it needs to play {place}"))
    fix = (f"allow it for the bot's role in #{channel} ({CHANNEL_SETTINGS})" if channel is not None else
           "allow it for the bot's role (Server Settings → Roles), or invite the bot again with the link above")
    for need in NEEDS:
        label = f"{need.name} ({'required' if need.required else 'optional'})"
        if need.granted(have):
            report.add(Finding(True, f"{label}: to {need.purpose}", indent=1))
            continue
        withheld = not have & SEND_MESSAGES and any(bit & NEEDS_SEND_MESSAGES for bit in need.bits)
        remedy = "Discord withholds it while Send Messages is missing" if withheld else fix
        if need.required:
            text = f"{label} is missing: the bot needs it to {need.purpose}; {remedy}"
        else:
            text = f"{label} is missing: without it the bot cannot {need.purpose}" + ("; " + remedy) * withheld
        report.add(Finding(False, text, required=need.required, indent=1))
    threads = CREATE_PUBLIC_THREADS | SEND_MESSAGES_IN_THREADS
    if channel is not None and have & threads != threads:
        report.add(Finding(None, f"without both thread permissions, matches opened in #{channel} run in the "
                                 "channel itself, one match at a time, instead of one thread per match"))
    if channel is None:
        report.add(Finding(None, "a channel's own permission settings can still take these away: "
                                 "add --channel CHANNEL_ID to check the channel where you will play"))


def _said(exc: discord.HTTPException) -> str:
    """Discord's answer in one phrase: the status, the code and its message."""
    first = (exc.text or "").splitlines()[0] if exc.text else getattr(exc.response, "reason", "") or ""
    code = f" code {exc.code}" if exc.code else ""
    return f"{exc.status}{code}: {first}".rstrip(": ")

