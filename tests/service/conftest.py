"""Service fixtures: the toy game, a store on SQLite and PostgreSQL, a controllable clock."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta

import pytest

import engine
from bot.service import MatchService
from db import Store
from tests.pgfixture import pg_server_url, pg_url  # noqa: F401  (fixtures)
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


@pytest.fixture(params=["sqlite", "postgres"])
def db_url(request: pytest.FixtureRequest, tmp_path) -> str:
    if request.param == "sqlite":
        return f"sqlite+aiosqlite:///{tmp_path / 'warhost.db'}"
    return request.getfixturevalue("pg_url")


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
