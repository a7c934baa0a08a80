"""`python -m bot run` (the default command): start the Discord bot."""

from __future__ import annotations

import argparse
import asyncio
import gc
import sys
import textwrap

import engine
from bot.discord.permissions import INVITE_PERMISSIONS, INVITE_SCOPES, permission_names
from bot.settings import Settings

NAME = "run"
HELP = "start the Discord bot (reads DISCORD_TOKEN, DATABASE_URL, ... from the environment or .env)"

_PERMISSIONS = textwrap.fill(f"and the permissions {permission_names()} (permissions integer {INVITE_PERMISSIONS}):",
                             width=92, initial_indent="     ", subsequent_indent="     ")
_GAME = engine.default_key()
NO_TOKEN = f"""\
warhost needs a Discord bot token to run on Discord, and none is set.

How to get one (5 minutes):
  1. Open https://discord.com/developers/applications and press "New Application".
  2. In "Bot", press "Reset Token" and copy the token. No privileged intents are needed.
  3. Put it in a file named .env next to this project:   DISCORD_TOKEN=your-token
     (copy .env.example to .env to start from the documented settings).
  4. Invite the bot to your server with the scopes `bot` and `applications.commands`
{_PERMISSIONS}
       https://discord.com/oauth2/authorize?client_id=YOUR_APPLICATION_ID&scope={INVITE_SCOPES}&permissions={INVITE_PERMISSIONS}
  5. Optional while developing: DEV_GUILD_ID=your-server-id syncs the slash commands to
     that server at once (global commands can take up to an hour to appear).
  Check the setup:  python -m bot doctor --channel CHANNEL_ID
  Then run again:  python -m bot

No Discord? Play in this terminal against the AI instead:
  python -m bot play {_GAME} --seats 3
or watch the AI play a whole match and write its map images:
  python -m bot simulate {_GAME} --seats 3 --seed 7 --out out/
"""


YOUNG_OBJECTS = 50_000
"""Objects allocated (less those freed) before the collector's young pass (CPython's default 700;
10,000 took 0.30-0.32 ms of CPU an interaction at 200 matches, 50,000 0.20: fewer passes, each
over about as many survivors)."""


def tune_the_collector() -> None:
    """Freeze what is loaded so far (modules, content: it lives as long as the process, and each
    full pass would walk it again) and let the young generation grow before a pass: at 200
    matches the collector took 1.3-1.6 ms of CPU an interaction, 0.75 frozen, 0.21 frozen with
    this threshold (no full pass in the run; peak RSS +10-30 MiB: cyclic garbage waits longer).
    docs/benchmarks.md has the runs."""
    gc.set_threshold(YOUNG_OBJECTS, *gc.get_threshold()[1:])
    gc.freeze()


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--db", help="database URL (default: DATABASE_URL or a SQLite file warhost.db)")


def run(args: argparse.Namespace) -> int:
    settings = Settings()
    if args.db:
        settings.database_url = args.db
    if settings.discord_token is None:
        print(NO_TOKEN, file=sys.stderr)
        return 2
    from db.health import DatabaseUnusable, check_database

    try:
        asyncio.run(check_database(settings.database_url))
    except DatabaseUnusable as exc:
        print(f"warhost: {exc}", file=sys.stderr)
        return 2
    from bot.discord.app import run_bot
    from bot.discord.health import HealthPortUnusable
    from bot.logs import setup_logging
    from bot.service.instance import InstanceInUse

    setup_logging(settings.log_level, settings.log_format)  # after the imports: every logger of ours exists, and is redacted
    tune_the_collector()

    try:
        asyncio.run(run_bot(settings))
    except KeyboardInterrupt:
        return 0
    except (InstanceInUse, HealthPortUnusable) as exc:
        print(f"warhost: {exc}", file=sys.stderr)
        return 2
    return 0
