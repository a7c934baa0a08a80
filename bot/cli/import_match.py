"""`python -m bot import FILE --db URL [--channel ID]`: recreate an exported match under a new id.

The log is replayed before anything is written; a document the replay does not reproduce (its
result, its log digest), or a malformed one, is refused with the reason and changes nothing. An
unfinished match sends its open decisions again when the bot next delivers (its players get new
prompts); `--channel` moves it to another channel or thread (FILE `-` reads stdin)."""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path

from bot.cli._db import add_db_option
from bot.discord.mentions import plain_name
from bot.service import MatchService
from bot.service.transfer import TransferError, import_match, parse_document
from db import Store

NAME = "import"
HELP = "recreate a match from an exported JSON document (a new id; replayed and checked first)"


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", help="the document written by `python -m bot export` (- for stdin)")
    add_db_option(parser)
    parser.add_argument("--channel", type=int, metavar="ID", help="the channel or thread the match is played in "
                        "from now on (default: the one it was exported from)")


async def _import(url: str, text: str, channel: int | None) -> int:
    document = parse_document(text)
    store = await Store.open(url, migrate=True)
    service = MatchService(store, holder="import", name_text=plain_name)
    try:
        return await import_match(service, document, channel)
    finally:
        await service.stop_thinking()  # a searching AI that owes a choice thinks when the bot next starts
        await store.close()


def run(args: argparse.Namespace) -> int:
    try:
        text = sys.stdin.read() if args.file == "-" else Path(args.file).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        print(f"warhost: cannot read {args.file}: {exc}", file=sys.stderr)
        return 1
    try:
        match_id = asyncio.run(_import(args.db, text, args.channel))
    except TransferError as exc:
        print(f"warhost: {exc}; nothing was written", file=sys.stderr)
        return 1
    print(f"imported as match {match_id}")
    return 0
