"""`--mode` and `--option KEY=VALUE` for the commands that start a match (simulate, play)."""

from __future__ import annotations

import argparse
import json
from typing import Any


def add_option_args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--mode", help="game mode (default: the game's own; /game new lists each game's modes)")
    parser.add_argument(
        "--option", action="append", default=[], metavar="KEY=VALUE",
        help="a game option, repeatable, e.g. --option round_limit=3 (values are read as JSON when they parse)",
    )


def match_options(args: argparse.Namespace) -> dict[str, Any]:
    """The options dict for the match; raises ValueError on a malformed KEY=VALUE."""
    out: dict[str, Any] = {}
    for item in getattr(args, "option", None) or []:
        key, sep, raw = item.partition("=")
        if not sep or not key.strip():
            raise ValueError(f"--option wants KEY=VALUE, not {item!r}")
        try:
            value: Any = json.loads(raw)
        except json.JSONDecodeError:
            value = raw
        out[key.strip()] = value
    if getattr(args, "mode", None):
        out["mode"] = args.mode
    return out
