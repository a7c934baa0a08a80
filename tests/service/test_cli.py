"""CLI commands (migrate, matches, replay --verify) and the stored simulation."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest
import sqlalchemy as sa

from bot.cli import matches, migrate, replay
from bot.storesim import simulate_stored
from db import Snapshot, Store


def _args(module, argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    module.configure(parser)
    return parser.parse_args(argv)


async def _corrupt_latest_snapshot(url: str, match_id: int) -> None:
    store = await Store.open(url, migrate=False)
    async with store.write() as s:
        snap = (await s.exec(sa.select(Snapshot).where(Snapshot.match_id == match_id)
                             .order_by(Snapshot.seq.desc()))).scalars().first()
        snap.state = {**snap.state, "score": [999] * len(snap.state["score"])}
    await store.close()


def test_migrate_matches_replay_verify(tmp_path, capsys: pytest.CaptureFixture[str]) -> None:
    import asyncio

    url = f"sqlite+aiosqlite:///{tmp_path / 'cli.db'}"
    assert migrate.run(_args(migrate, ["--db", url])) == 0
    versions = Path(__file__).resolve().parents[2] / "db" / "migrations" / "versions"
    head = max(path.name[:4] for path in versions.glob("[0-9][0-9][0-9][0-9]_*.py"))
    assert f"revision {head}" in capsys.readouterr().out, "migrate brings a new database to the newest revision"
    summary = asyncio.run(simulate_stored(url, "toy", 3, 5, "random", {"rounds": 20}))
    assert summary["status"] == "finished" and summary["choices"] > 100
    again = asyncio.run(simulate_stored(url, "toy", 3, 5, "random", {"rounds": 20}))
    assert again["log_sha256"] == summary["log_sha256"]  # same seed, same match
    assert matches.run(_args(matches, ["--db", url])) == 0
    listing = capsys.readouterr().out
    assert f"{summary['match_id']:>6}  toy" in listing and "finished" in listing
    mid = str(summary["match_id"])
    assert replay.run(_args(replay, [mid, "--db", url, "--verify"])) == 0
    assert "OK: replay matches" in capsys.readouterr().out
    assert replay.run(_args(replay, [mid, "--db", url])) == 0
    assert "seat" in capsys.readouterr().out
    assert replay.run(_args(replay, ["999", "--db", url, "--verify"])) == 1
    assert "no match 999" in capsys.readouterr().out
    asyncio.run(_corrupt_latest_snapshot(url, summary["match_id"]))
    assert replay.run(_args(replay, [mid, "--db", url, "--verify"])) == 1
    assert "FAIL" in capsys.readouterr().out
