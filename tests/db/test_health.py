"""The start-up database check: a read-only, damaged or unreachable database is one clear line
(and `python -m bot` exits 2 with it, no traceback); a healthy one is left exactly as it was."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import asyncpg
import pytest

from db import Store
from db.health import DatabaseUnusable, check_database
from tests.pgfixture import pg_server_url, pg_url  # noqa: F401  (fixtures)

PROJECT_ROOT = Path(__file__).resolve().parents[2]
PAGE = 4096


async def made_db(path: Path) -> Path:
    """A real warhost database file with every table (closed, so its WAL is merged back)."""
    store = await Store.open(f"sqlite+aiosqlite:///{path}")
    await store.close()
    return path


def damage(path: Path, page: int) -> None:
    """Write garbage over one page of the file, as a failing disk would."""
    with path.open("r+b") as f:
        f.seek((page - 1) * PAGE)
        f.write(bytes(range(256)) * (PAGE // 256))


def run_bot(database_url: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "PYTHONPATH": str(PROJECT_ROOT),
           "DISCORD_TOKEN": "fake-token", "DATABASE_URL": database_url,
           "DISCORD_API_BASE": "http://127.0.0.1:9/api/v10", "DISCORD_GATEWAY_URL": "ws://127.0.0.1:9/"}
    return subprocess.run([sys.executable, "-m", "bot"], cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=60)


async def test_healthy_database_passes_and_is_left_alone(tmp_path: Path) -> None:
    path = await made_db(tmp_path / "w.db")
    before = path.read_bytes()
    await check_database(f"sqlite+aiosqlite:///{path}")
    assert path.read_bytes() == before
    await check_database(f"sqlite+aiosqlite:///{tmp_path / 'new.db'}")  # a first start creates it


@pytest.mark.parametrize("page", [1, 2, 5])
async def test_damaged_page_is_reported(tmp_path: Path, page: int) -> None:
    path = await made_db(tmp_path / "w.db")
    damage(path, page)
    with pytest.raises(DatabaseUnusable) as found:
        await check_database(f"sqlite+aiosqlite:///{path}")
    text = str(found.value)
    assert text.startswith(f"the database file {path} is damaged (integrity check failed")
    assert text.endswith("restore a backup or move it away") and "\n" not in text


async def test_read_only_file_is_reported(tmp_path: Path) -> None:
    # Tests may run as root, whom chmod does not stop: open the file read-only instead.
    path = await made_db(tmp_path / "w.db")
    with pytest.raises(DatabaseUnusable, match=r"^the database file .*w\.db is read-only: "):
        await check_database(f"sqlite+aiosqlite:///file:{path}?mode=ro&uri=true")


async def test_missing_directory_is_reported(tmp_path: Path) -> None:
    with pytest.raises(DatabaseUnusable, match="^cannot open the database file .*check that its directory exists"):
        await check_database(f"sqlite+aiosqlite:///{tmp_path / 'nowhere' / 'w.db'}")


async def test_postgres_read_only_and_unreachable(pg_url: str) -> None:  # noqa: F811
    await check_database(pg_url)
    plain = "postgresql://" + pg_url.split("://", 1)[1]
    conn = await asyncpg.connect(plain)
    try:
        name = await conn.fetchval("SELECT current_database()")
        await conn.execute(f'ALTER DATABASE "{name}" SET default_transaction_read_only = on')
    finally:
        await conn.close()
    with pytest.raises(DatabaseUnusable, match="^the database at postgresql.* is read-only: "):
        await check_database(pg_url)
    with pytest.raises(DatabaseUnusable, match=r"^cannot connect to the database at postgresql\+asyncpg://u:\*\*\*@"):
        await check_database("postgresql+asyncpg://u:secret@127.0.0.1:9/x")


async def test_bot_exits_with_one_line_on_a_damaged_file(tmp_path: Path) -> None:
    path = await made_db(tmp_path / "w.db")
    damage(path, 2)
    proc = run_bot(f"sqlite+aiosqlite:///{path}", tmp_path)
    assert proc.returncode == 2, proc.stderr
    assert "Traceback" not in proc.stderr
    assert proc.stderr.strip().splitlines() == [
        f"warhost: the database file {path} is damaged (integrity check failed: "
        "database disk image is malformed); restore a backup or move it away"]


async def test_bot_exits_with_one_line_on_a_read_only_file(tmp_path: Path) -> None:
    path = await made_db(tmp_path / "w.db")
    proc = run_bot(f"sqlite+aiosqlite:///file:{path}?mode=ro&uri=true", tmp_path)
    assert proc.returncode == 2, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"warhost: the database file {path} is read-only: "), lines
