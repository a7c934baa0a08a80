"""`python -m bot doctor [--channel ID] [--guild ID]`: check the Discord setup before (or instead
of) starting the bot, one plain line per check with what to do when it fails.

Exit code 0 when every required check passes, 1 otherwise, so a deploy script can gate on it.
"""

from __future__ import annotations

import argparse
import asyncio
from collections.abc import Callable
from typing import TYPE_CHECKING

from bot.cli.run import NO_TOKEN
from bot.settings import Settings

if TYPE_CHECKING:
    from bot.discord.setup_check import Finding

NAME = "doctor"
HELP = ("check the token, the application and invite link, the /game command upload (the same one "
        "the bot does at start-up) and, with --channel, the bot's permissions there")


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--channel", type=int, metavar="CHANNEL_ID",
                        help="the channel where matches will be played: check the bot's permissions there")
    parser.add_argument("--guild", type=int, metavar="GUILD_ID",
                        help="the server: check that the bot is on it and its server-wide permissions")


async def doctor(settings: Settings, *, channel_id: int | None = None, guild_id: int | None = None,
                 write: Callable[[str], None] = print) -> int:
    """Run the checks, writing each line as it is known; the exit code."""
    if settings.discord_token is None:
        write("✗ no bot token: DISCORD_TOKEN is not set in the environment or in .env")
        write("")
        write(NO_TOKEN)
        return 1
    from bot.discord.setup_check import check_setup  # loads discord.py only for this command

    def emit(finding: Finding) -> None:
        for line in finding.lines():
            write(line)

    passed = await check_setup(settings, settings.discord_token.get_secret_value(), channel_id=channel_id,
                               guild_id=guild_id, emit=emit)
    write("✓ ready: start the bot with  python -m bot" if passed else
          "✗ not ready: fix what the ✗ lines above say, then run  python -m bot doctor  again")
    return 0 if passed else 1


def run(args: argparse.Namespace) -> int:
    return asyncio.run(doctor(Settings(), channel_id=args.channel, guild_id=args.guild))
