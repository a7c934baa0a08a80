"""Service fixtures: the toy game, a store on SQLite and PostgreSQL, a controllable clock."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

import engine
from bot.service import MatchService
from db import Store
from tests.pgfixture import (  # noqa: F401  (fixtures)
    pg_migrated_template,
    pg_migrated_url,
    pg_server_url,
    pg_url,
    sqlite_copy,
    sqlite_migrated_template,
)
from tests.service.toygame import GAME


class Clock:
    """An injected clock that tests move by hand."""

    def __init__(self) -> None:
        self.now = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, hours: float) -> datetime:
        self.now += timedelta(hours=hours)
        return self.now


@pytest.fixture(autouse=True)
def toy_game() -> object:
    return engine.register(GAME)


@pytest.fixture(scope="session")
def sqlite_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return sqlite_migrated_template(tmp_path_factory.mktemp("sqlite-template"))


@pytest.fixture(params=["sqlite", "postgres"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A fresh database at the newest revision, a copy of one migrated once per session: every
    test's `Store.open` still migrates (finding nothing to do), without paying the migrations."""
    if request.param == "sqlite":
        path = sqlite_copy(request.getfixturevalue("sqlite_template"), tmp_path / "warhost.db")
        return f"sqlite+aiosqlite:///{path}"
    return request.getfixturevalue("pg_migrated_url")


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
async def store(db_url: str) -> AsyncIterator[Store]:
    st = await Store.open(db_url)
    yield st
    await st.close()


@pytest.fixture
async def svc(store: Store, clock: Clock) -> MatchService:
    return MatchService(store, clock=clock)
