"""aiosqlite connections for the SQLite store, each stopped at most once.

SQLAlchemy terminates a pooled connection whose checkout was cancelled (a worker stopped at
shutdown, a request abandoned): it starts a graceful close, shielded, and when its own caller is
cancelled it also stops the connection's thread at once. aiosqlite 0.22's close then asks the
thread to stop a second time and waits for an answer from a thread that has already ended: that
task never finishes, and the event loop's shutdown (asyncio.run, or a test's) waits on it for
ever. A connection here sends its stop once; the second request returns at once."""

from __future__ import annotations

import asyncio
import sqlite3
from typing import Any

import aiosqlite


class OnceStopped(aiosqlite.Connection):
    _stop_sent = False

    def stop(self) -> asyncio.Future[Any] | None:
        if self._stop_sent:
            return None
        self._stop_sent = True
        return super().stop()


def connect_once_stopped(database: str, **kwargs: Any) -> OnceStopped:
    """What ``aiosqlite.connect`` makes, as a ``OnceStopped`` (await it to open it). Its thread is a
    daemon, as SQLAlchemy makes aiosqlite's own: a connection never closed cannot keep the
    process alive."""

    def connector() -> sqlite3.Connection:
        return sqlite3.connect(database, **kwargs)

    connection = OnceStopped(connector, 64)
    connection._thread.daemon = True
    return connection
