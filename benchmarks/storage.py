"""Storage per match: bytes a whole seeded all-AI match leaves in the database, table by table.

Each match is played through the match service into a fresh SQLite file (``simulate --db``'s
path: the same rows the bot writes), twice: with the store's snapshot pruning and with every
snapshot kept (the old behaviour), so both figures come from the same run. Bytes are the
summed lengths of every column of the match's rows (what the data costs, before SQLite's page
overhead); the file size after VACUUM is printed beside. The floor is the choice log itself,
the truth itself: the choice payloads (the log rows also carry
the public event texts of each choice, and the outbox the notices).

Run: python benchmarks/storage.py [--game samurai] [--seats 4] [--seeds 4] [--options '{}']
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sqlite3
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import db.store  # noqa: E402
from bot.storesim import simulate_stored  # noqa: E402

TABLES = ("matches", "seats", "choices", "snapshots", "notices", "deadlines")


def table_bytes(path: Path, match_id: int) -> dict[str, int]:
    """Summed column lengths of the match's rows, per table."""
    connection = sqlite3.connect(path)
    try:
        out = {}
        for table in TABLES:
            columns = [row[1] for row in connection.execute(f"PRAGMA table_info({table})")]
            key = "id" if table == "matches" else "match_id"
            total = " + ".join(f"coalesce(length(CAST({c} AS BLOB)), 0)" for c in columns)
            out[table] = connection.execute(f"SELECT coalesce(sum({total}), 0) FROM {table} WHERE {key} = ?",
                                            (match_id,)).fetchone()[0]
        out["choice payloads"] = connection.execute(
            "SELECT coalesce(sum(length(CAST(payload AS BLOB))), 0) FROM choices WHERE match_id = ?", (match_id,)
        ).fetchone()[0]
        out["choice public texts"] = connection.execute(
            "SELECT coalesce(sum(length(CAST(public AS BLOB))), 0) FROM choices WHERE match_id = ?", (match_id,)
        ).fetchone()[0]
        connection.execute("VACUUM")
        out["file after VACUUM"] = path.stat().st_size
        return out
    finally:
        connection.close()


def stored(game: str, seats: int, seed: int, options: dict[str, Any], keep: int) -> tuple[dict[str, Any], dict[str, int]]:
    """One match stored with ``keep`` snapshots kept; its summary and bytes per table."""
    db.store.KEEP_SNAPSHOTS = keep
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "storage.db"
        summary = asyncio.run(simulate_stored(f"sqlite+aiosqlite:///{path}", game, seats, seed, "heuristic", options))
        return summary, table_bytes(path, summary["match_id"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--game", default="samurai")
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--seeds", type=int, default=4)
    parser.add_argument("--options", default="{}", help="match options as JSON")
    args = parser.parse_args()
    options = json.loads(args.options)
    pruned = db.store.KEEP_SNAPSHOTS
    rows: list[tuple[int, int, dict[str, int], dict[str, int]]] = []
    started = time.process_time()
    for seed in range(args.seeds):
        summary, now = stored(args.game, args.seats, seed, options, pruned)
        again, before = stored(args.game, args.seats, seed, options, 10**9)
        assert again["log_sha256"] == summary["log_sha256"], "the two runs played different matches"
        rows.append((seed, summary["choices"], now, before))
    print(f"{args.game}, {args.seats} seats, heuristic, options {options}: KiB per match by table")
    print(f"{'seed':>4} {'choices':>7}  " + "  ".join(f"{t:>17}" for t in (*TABLES, "total", "file after VACUUM")))
    for seed, choices, now, before in rows:
        cells = []
        for table in (*TABLES, "total", "file after VACUUM"):
            value = sum(now[t] for t in TABLES) if table == "total" else now[table]
            old = sum(before[t] for t in TABLES) if table == "total" else before[table]
            cells.append(f"{value / 1024:7.1f} ({old / 1024:7.1f})")
        print(f"{seed:>4} {choices:>7}  " + "  ".join(f"{c:>17}" for c in cells))
    count = len(rows)
    print(f"(in brackets: every snapshot kept, as before). Floor, the choice payloads (the truth): "
          f"{sum(r[2]['choice payloads'] for r in rows) / count / 1024:.1f} KiB per match on average; the choice "
          f"rows' public event texts {sum(r[2]['choice public texts'] for r in rows) / count / 1024:.1f} KiB. "
          f"CPU {time.process_time() - started:.0f} s")


if __name__ == "__main__":
    main()
