"""`python -m bot export MATCH_ID --db URL`: one stored match as a JSON document on stdout.

The document (bot/service/transfer.py) holds the game, options, seed, seats with their Discord
ids and names, the choice log and the result: `python -m bot import` recreates the match from it
on another database."""

from __future__ import annotations

import argparse
import asyncio
import sys

from bot.cli._db import add_db_option
from bot.service.transfer import MatchDocument, TransferError, export_match
from db import Store

NAME = "export"
HELP = "write one match (game, options, seed, seats, choice log, result) as JSON to stdout"


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("match_id", type=int)
    add_db_option(parser)


async def _export(url: str, match_id: int) -> MatchDocument:
    store = await Store.open(url, migrate=False)
    try:
        return await export_match(store, match_id)
    finally:
        await store.close()


def run(args: argparse.Namespace) -> int:
    try:
        document = asyncio.run(_export(args.db, args.match_id))
    except TransferError as exc:
        print(f"warhost: {exc}", file=sys.stderr)
        return 1
    print(document.model_dump_json(indent=1))
    return 0
