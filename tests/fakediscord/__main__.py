"""Standalone fake: `python -m tests.fakediscord --port 0 --guilds 2 --shards 2`.

Prints one JSON line on stdout (port, base URLs, app id, guilds with their shards and channels,
players) and serves until SIGINT/SIGTERM. Point a bot process at it with
DISCORD_API_BASE=<api_base> DISCORD_GATEWAY_URL=<gateway_url>, and drive players with
`tests.fakediscord.ControlClient(base_url)`. Exits 3 if Discord rules were violated.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import signal
import sys

from . import limits
from .control import info_json
from .models import DEFAULT_PLAYERS
from .server import FakeDiscord


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m tests.fakediscord", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=0, help="0 picks a free port")
    parser.add_argument("--guilds", type=int, default=1)
    parser.add_argument("--shards", type=int, default=1)
    parser.add_argument("--players", default=",".join(DEFAULT_PLAYERS), help="comma-separated names")
    parser.add_argument("--managers", default="", help="players with Manage Server, comma-separated")
    parser.add_argument("--ack-deadline", type=float, default=limits.ACK_DEADLINE)
    parser.add_argument("--token-ttl", type=float, default=limits.TOKEN_TTL)
    parser.add_argument("--rate-time-scale", type=float, default=1.0,
                        help="rate limit windows times this (1 = Discord's, 0 = no limits)")
    return parser.parse_args(argv)


async def serve(args: argparse.Namespace) -> int:
    fake = FakeDiscord(guilds=args.guilds, shards=args.shards, ack_deadline=args.ack_deadline,
                       token_ttl=args.token_ttl, rate_time_scale=args.rate_time_scale)
    managers = {m for m in args.managers.split(",") if m}
    for name in [p for p in args.players.split(",") if p]:
        fake.user(name, manage_guild=name in managers)
    await fake.start(port=args.port, host=args.host)
    print(json.dumps(info_json(fake)), flush=True)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError):
            loop.add_signal_handler(sig, stop.set)
    await stop.wait()
    await fake.stop()
    bad = fake.unexpected_violations()
    for v in bad:
        print(f"fakediscord violation: {v}", file=sys.stderr)
    return 3 if bad else 0


def main(argv: list[str] | None = None) -> int:
    return asyncio.run(serve(parse_args(argv)))


if __name__ == "__main__":
    sys.exit(main())
