"""`python -m bot play GAME`: a match at the terminal against AI seats."""

from __future__ import annotations

import argparse
import asyncio
from pathlib import Path

from bot.cli._options import add_option_args, match_options

NAME = "play"
HELP = "play a match in this terminal against AI seats (same service and store as the bot)"


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game", nargs="?", default="tinybigwars", help="game key (default tinybigwars)")
    parser.add_argument("--seats", type=int, default=3, help="number of seats, yours included")
    parser.add_argument("--seed", type=int, default=None, help="seed for a reproducible match")
    parser.add_argument("--db", default="sqlite+aiosqlite:///warhost-local.db", help="database URL")
    parser.add_argument("--maps", default="maps", help="folder for the map of each phase")
    parser.add_argument("--resume", action="store_true", help="continue the interrupted local match")
    parser.add_argument("--name", default="You", help="your name on the map")
    add_option_args(parser)


def run(args: argparse.Namespace) -> int:
    from bot.local.table import play_local

    try:
        options = match_options(args)
    except ValueError as exc:
        print(f"play: {exc}")
        return 2
    try:
        return asyncio.run(
            play_local(args.db, args.game, args.seats, args.seed, Path(args.maps), resume=args.resume, name=args.name,
                       options=options)
        )
    except KeyboardInterrupt:
        print("\nInterrupted. Your match is saved: continue with  python -m bot play --resume")
        return 130
