"""`python -m bot backup`: an online copy of the SQLite database taken while the bot plays a match,
checked, restored, and the bot resumes from it (it plays the match to its end)."""

from __future__ import annotations

import argparse
import asyncio
import shutil
import sqlite3
import sys
from pathlib import Path
from typing import Any

import pytest

from bot.cli import backup
from tests.e2e.harness import AutoPlayer, factory, settings_for
from tests.e2e.procs import PROJECT_ROOT
from tests.fakediscord import FakeDiscord, Player

OVER = "The match is over"


def _choices(db: Path) -> int:
    with sqlite3.connect(db, timeout=30) as conn:
        return int(conn.execute("SELECT count(*) FROM choices").fetchone()[0])


async def _backup(db: Path, to: Path) -> tuple[int, str]:
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", "backup", "--db", f"sqlite+aiosqlite:///{db}", "--to", str(to),
        cwd=PROJECT_ROOT, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT)
    out, _ = await proc.communicate()
    return int(proc.returncode or 0), out.decode()


async def test_backup_under_write_load_restores_and_the_bot_resumes(
        fake: FakeDiscord, start_bot: Any, alice: Player, bob: Player, tmp_path: Path) -> None:
    db = tmp_path / "w.db"
    bot = await start_bot(factory(settings_for(fake, db)))
    await alice.slash("game new", game="tinybigwars", round_limit=2)
    await alice.wait_for(lambda m: m.button("Join") is not None)
    await bob.click("Join")
    await alice.click("Add AI")
    assert "has started" in (await alice.click("Start")).content

    stop = asyncio.Event()
    autos = [AutoPlayer(alice), AutoPlayer(bob)]

    # The players answer a few prompts before and during each copy, never enough to end the match
    # (on a quiet machine an unbounded pair finished it before the second copy was taken).
    answers_left = [4]

    async def play() -> None:
        while not stop.is_set():
            answered = 0
            for auto in autos:
                if answers_left[0] > 0 and await auto.step():
                    answers_left[0] -= 1
                    answered += 1
            if not answered:
                await asyncio.sleep(0.05)

    player = asyncio.create_task(play())
    loop = asyncio.get_running_loop()
    end = loop.time() + 120
    while await asyncio.to_thread(_choices, db) < 3:
        assert loop.time() < end, "no choices made"
        await asyncio.sleep(0.1)
    copies = []
    try:
        for n in range(2):  # the bot writes all along
            before = await asyncio.to_thread(_choices, db)
            answers_left[0] += 4
            code, out = await _backup(db, tmp_path / f"copy{n}.db")
            assert code == 0, out
            assert "integrity ok" in out and "1 started match replayed" in out, out
            copies.append((before, tmp_path / f"copy{n}.db"))
    finally:
        stop.set()
        await player
    assert _choices(db) > copies[0][0], "the bot wrote while the copies were taken"
    for _before, copy in copies:
        assert not Path(f"{copy}-wal").exists() and not (tmp_path / f"{copy.name}.partial").exists()

    # Restore the newest copy as the README says: stop the bot, put the copy in the database's place.
    restored = tmp_path / "restored.db"
    shutil.copy(copies[-1][1], restored)
    with sqlite3.connect(restored) as conn:
        assert conn.execute("SELECT status FROM matches").fetchone()[0] == "active", "copied mid-match"  # no one answers any more: the deadlines (1.8 s) and the AI finish it
        conn.execute("UPDATE matches SET deadline_hours = 0.0005")
        conn.execute("UPDATE deadlines SET started_at = '2000-01-01 00:00:00', due_at = '2000-01-01 00:00:00', "
                      "fire_at = '2000-01-01 00:00:00'")
    # The first bot may have finished the match while the copies were taken: only a game-over post
    # of the restored bot's counts.
    over_before = {m.id for m in fake.channel_messages(fake.channel) if OVER in m.content}
    bot = await start_bot.restart(bot, factory(settings_for(fake, restored)))
    status = await alice.slash("game status")
    assert "Tiny Big Wars" in status.content or "round" in status.content.lower(), status.content
    await fake.wait_until(lambda: any(OVER in m.content and m.id not in over_before
                                      for m in fake.channel_messages(fake.channel)), timeout=300)
    with sqlite3.connect(restored) as conn:
        assert conn.execute("SELECT status FROM matches").fetchone()[0] == "finished"


def test_postgresql_is_told_to_use_pg_dump(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    parser = argparse.ArgumentParser()
    backup.configure(parser)
    args = parser.parse_args(["--db", "postgresql+asyncpg://warhost:secret@db:5432/warhost", "--to", "w.dump"])
    assert backup.run(args) == 2
    err = capsys.readouterr().err
    assert "pg_dump --format=custom --file w.dump 'postgresql://warhost@db:5432/warhost'" in err
    assert "secret" not in err


def test_an_existing_file_is_never_overwritten(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    source = tmp_path / "w.db"
    sqlite3.connect(source).close()
    target = tmp_path / "keep.db"
    target.write_bytes(b"an older backup")
    parser = argparse.ArgumentParser()
    backup.configure(parser)
    assert backup.run(parser.parse_args(["--db", f"sqlite+aiosqlite:///{source}", "--to", str(target)])) == 1
    assert "exists already" in capsys.readouterr().err and target.read_bytes() == b"an older backup"
    missing = parser.parse_args(["--db", f"sqlite+aiosqlite:///{tmp_path / 'none.db'}", "--to", str(tmp_path / "n")])
    assert backup.run(missing) == 1 and "there is no database file" in capsys.readouterr().err


def test_a_copy_that_fails_its_check_is_not_kept(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    source = tmp_path / "w.db"
    with sqlite3.connect(source) as conn:
        conn.execute("CREATE TABLE t (x)")  # not a warhost database: the replay check cannot read it
    parser = argparse.ArgumentParser()
    backup.configure(parser)
    target = tmp_path / "copy.db"
    assert backup.run(parser.parse_args(["--db", f"sqlite+aiosqlite:///{source}", "--to", str(target)])) == 1
    assert "no backup was written" in capsys.readouterr().err
    assert not target.exists() and not (tmp_path / "copy.db.partial").exists()
