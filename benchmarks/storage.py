"""Storage per match: bytes a whole seeded all-AI match leaves in the database, table by table.

Each match is played through the match service into a fresh SQLite file (``simulate --db``'s
path: the same rows the bot writes), then every notice is marked delivered, as the front-end's
delivery loop leaves a match it has told everything: that is what a match keeps for good.
Bytes are the summed lengths of every column of the match's rows (what the data costs, before
SQLite's page overhead); the file size after VACUUM is printed beside. The floor is the choice
log itself, the truth: its payloads alone.

"Before" and "after": run the script on each tree with ``--json`` and print both with
``--compare``:

    (cd /tmp/before && python benchmarks/storage.py --json /tmp/storage-before.json)
    python benchmarks/storage.py --json /tmp/storage-after.json --compare /tmp/storage-before.json

Run: python benchmarks/storage.py [--seeds 5] [--json FILE] [--compare FILE]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sqlite3
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.service import MatchService  # noqa: E402
from bot.storesim import simulate_stored  # noqa: E402
from db import Store  # noqa: E402

TABLES = ("matches", "seats", "choices", "snapshots", "notices", "deadlines")
SHOWN = ("snapshots", "choices", "notices", "total", "file after VACUUM", "choice payloads")
"""The columns printed: the big tables, the total of every table, the file, and the floor."""


def table_bytes(path: Path, match_id: int) -> dict[str, int]:
    """Summed column lengths of the match's rows, per table, the floor and parts of the log."""
    connection = sqlite3.connect(path)
    try:
        out = {}
        for table in TABLES:
            columns = [row[1] for row in connection.execute(f"PRAGMA table_info({table})")]
            key = "id" if table == "matches" else "match_id"
            total = " + ".join(f"coalesce(length(CAST({c} AS BLOB)), 0)" for c in columns)
            out[table] = connection.execute(f"SELECT coalesce(sum({total}), 0) FROM {table} WHERE {key} = ?",
                                            (match_id,)).fetchone()[0]
        out["total"] = sum(out[table] for table in TABLES)
        for name, column in (("choice payloads", "payload"), ("choice public texts", "public")):
            out[name] = connection.execute(
                f"SELECT coalesce(sum(length(CAST({column} AS BLOB))), 0) FROM choices WHERE match_id = ?",
                (match_id,)).fetchone()[0]
        out["notice payloads"] = connection.execute(
            "SELECT coalesce(sum(length(CAST(payload AS BLOB))), 0) FROM notices WHERE match_id = ?",
            (match_id,)).fetchone()[0]
        connection.execute("VACUUM")
        connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # VACUUM's pages sit in the WAL till then
        out["file after VACUUM"] = path.stat().st_size
        return out
    finally:
        connection.close()


async def deliver_everything(url: str) -> int:
    """Mark every notice delivered, in order, as a front-end does once it sent them."""
    store = await Store.open(url)
    try:
        svc = MatchService(store)
        notices = await svc.outbox(limit=1_000_000)
        for notice in notices:
            await svc.delivered(notice.id, "1")
        return len(notices)
    finally:
        await store.close()


def stored(game: str, seats: int, seed: int, options: dict[str, Any]) -> dict[str, Any]:
    """One match stored and delivered: its summary and bytes per table."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "storage.db"
        url = f"sqlite+aiosqlite:///{path}"
        summary = asyncio.run(simulate_stored(url, game, seats, seed, "heuristic", options))
        notices = asyncio.run(deliver_everything(url))
        return {"game": game, "seats": seats, "seed": seed, "choices": summary["choices"], "notices": notices,
                "log_sha256": summary["log_sha256"], "bytes": table_bytes(path, summary["match_id"])}


def matches(seeds: int) -> list[tuple[str, int, int, dict[str, Any]]]:
    """(game, seats, seed, options): Samurai seeds 0 to seeds-1, one Tiny Big Wars, one Defenders."""
    return [*(("samurai", 4, seed, {}) for seed in range(seeds)), ("tinybigwars", 3, 0, {}), ("defenders", 2, 0, {})]


def _cell(now: dict[str, int], before: dict[str, int] | None, column: str) -> str:
    value = f"{now[column] / 1024:8.1f}"
    return value if before is None else f"{before[column] / 1024:8.1f} -> {value}"


def report(rows: list[dict[str, Any]], before: list[dict[str, Any]] | None) -> None:
    old = {(r["game"], r["seats"], r["seed"]): r for r in before or []}
    print("KiB per match by table" + (" (before -> after)" if before else "")
          + "; every notice delivered; floor: the choice payloads alone")
    width = 20 if before else 8
    print(f"{'match':<16} {'choices':>7}  " + "  ".join(f"{c:>{width}}" for c in SHOWN))
    for row in rows:
        was = old.get((row["game"], row["seats"], row["seed"]))
        if was is not None and was["log_sha256"] != row["log_sha256"]:
            raise SystemExit(f"{row['game']} seed {row['seed']}: before and after played different matches")
        cells = [_cell(row["bytes"], None if was is None else was["bytes"], c) for c in SHOWN]
        name = f"{row['game']} {row['seats']}s #{row['seed']}"
        print(f"{name:<16} {row['choices']:>7}  " + "  ".join(f"{c:>{width}}" for c in cells))
    samurai = [r for r in rows if r["game"] == "samurai"]
    if samurai:
        count = len(samurai)
        payloads = sum(r["bytes"]["choice payloads"] for r in samurai) / count / 1024
        texts = sum(r["bytes"]["choice public texts"] for r in samurai) / count / 1024
        bytes_a_choice = sum(r["bytes"]["choice payloads"] for r in samurai) / sum(r["choices"] for r in samurai)
        print(f"Samurai, {count} matches: floor (choice payloads) {payloads:.1f} KiB a match on average, "
              f"{bytes_a_choice:.1f} bytes a choice; the choice rows' public event texts {texts:.1f} KiB.")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seeds", type=int, default=5, help="Samurai seeds 0 to N-1")
    parser.add_argument("--json", type=Path, help="write the figures here")
    parser.add_argument("--compare", type=Path, help="figures of a 'before' run (its --json) to print beside")
    args = parser.parse_args()
    started = time.process_time()
    rows = [stored(game, seats, seed, options) for game, seats, seed, options in matches(args.seeds)]
    before = json.loads(args.compare.read_text()) if args.compare else None
    report(rows, before)
    load = ", ".join(f"{value:.2f}" for value in os.getloadavg())
    print(f"CPU {time.process_time() - started:.1f} s (process time); load average {load}")
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1))


if __name__ == "__main__":
    main()
