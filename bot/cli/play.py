"""`python -m bot play GAME`: a match at the terminal against AI seats."""

from __future__ import annotations

import argparse
import asyncio
from pathlib import Path

import engine
from bot.cli._options import add_option_args, match_options

NAME = "play"
HELP = "play a match in this terminal against AI seats (same service and store as the bot)"


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game", nargs="?", default=engine.default_key(), help=f"game key (default {engine.default_key()})")
    parser.add_argument("--seats", type=int, default=3, help="number of seats, yours included")
    parser.add_argument("--seed", type=int, default=None, help="seed for a reproducible match")
    parser.add_argument("--db", default=None,
                        help="database URL (default: local.db in the data directory; --resume reuses the last one)")
    parser.add_argument("--maps", default=None,
                        help="folder for the map of each phase (default: maps/match-N in the data directory)")
    parser.add_argument("--resume", action="store_true", help="continue the interrupted local match")
    parser.add_argument("--new", action="store_true", help="close an unfinished local match and start a new one")
    parser.add_argument("--name", default=None, help="your name in the story and on the map (third person: \"Sam activates ...\"); "
                        "your login name by default")
    add_option_args(parser)


def run(args: argparse.Namespace) -> int:
    from bot.local.table import STOPPED, play_local

    try:
        options = match_options(args)
    except ValueError as exc:
        print(f"play: {exc}")
        return 2
    maps = Path(args.maps) if args.maps else None
    try:
        return asyncio.run(
            play_local(args.db, args.game, args.seats, args.seed, maps, resume=args.resume, name=args.name,
                       options=options, new=args.new)
        )
    except KeyboardInterrupt:  # before the table took over Ctrl-C (opening the store)
        print(STOPPED)
        return 130
