"""The same error repeated by a loop is logged once, then counted: a 10 s database outage under
a running match writes at most 20 lines, and the loops carry on once the database is back."""

from __future__ import annotations

import asyncio
import io
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import sqlalchemy.exc

from bot.log_repeats import RepeatFilter
from bot.logs import FORMAT, REDACTOR
from tests.e2e.test_delivery_blocked import start_match

OUTAGE = 10.0


def refused_connection() -> sqlalchemy.exc.OperationalError:
    return sqlalchemy.exc.OperationalError("SELECT 1", {}, ConnectionRefusedError(111, "Connection refused"))


async def test_a_10_s_database_outage_writes_at_most_20_lines(fake, start_bot, alice, bob, tmp_path) -> None:
    bot = await start_match(fake, start_bot, alice, bob, tmp_path)
    await alice.dm.wait_for(lambda m: m.selects)
    written = io.StringIO()
    handler = logging.StreamHandler(written)
    handler.setFormatter(logging.Formatter(FORMAT))
    handler.addFilter(REDACTOR)
    handler.addFilter(RepeatFilter())
    root = logging.getLogger()
    root.addHandler(handler)
    store: Any = bot.store
    read, write = store.read, store.write

    @asynccontextmanager
    async def down(*args: Any, **kwargs: Any) -> AsyncIterator[Any]:
        raise refused_connection()
        yield

    try:
        store.read, store.write = down, down
        bot.wake_delivery()
        await asyncio.sleep(OUTAGE)
        store.read, store.write = read, write
        await asyncio.sleep(1.0)
    finally:
        store.read, store.write = read, write
        root.removeHandler(handler)
    lines = written.getvalue().splitlines()
    assert lines, "the outage is told"
    assert len(lines) <= 20, "\n".join(lines)
    assert not any(line.startswith("Traceback") for line in lines), "an outage is one line, not a traceback"
    assert any("ConnectionRefusedError" in line or "OperationalError" in line for line in lines)
    # Back: the match goes on (bob's prompt is answered and the forces are revealed).
    prompt = await bob.dm.wait_for(lambda m: m.selects)
    await bob.dm.select(None, [prompt.selects[0].options[0]["value"]], message=prompt)


def test_repeats_are_counted_and_told_once_a_window() -> None:
    now = [0.0]
    repeats = RepeatFilter(clock=lambda: now[0], window=60)
    logger = logging.getLogger("bot.test_repeats")
    out = io.StringIO()
    handler = logging.StreamHandler(out)
    handler.addFilter(repeats)
    logger.addHandler(handler)
    logger.propagate = False
    try:
        for match in range(100):
            logger.warning("could not deliver notice of match %s; will retry", match)
            now[0] += 1.0
        logger.warning("a different warning")
    finally:
        logger.removeHandler(handler)
        logger.propagate = True
    lines = out.getvalue().splitlines()
    assert lines == ["could not deliver notice of match 0; will retry",
                     "could not deliver notice of match 60; will retry (and 59 more like it in the last 60 s)",
                     "a different warning"]
