"""A loop that meets the same error every round logs it once, then counts it.

A database outage or a refused channel makes every round of the delivery, tick and board loops
fail the same way: one traceback per round wrote 589 lines in a 10 s PostgreSQL outage. The
filter here passes the first record of a kind (logger, level, message template, exception type),
holds back the same kind for REPEAT_WINDOW seconds, then lets one through saying how many were
held. An outage (the database or the network unreachable) is told in one line, without its
traceback: the traceback of a refused connection says nothing the message does not."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass

REPEAT_WINDOW = 60.0
"""Seconds a kind of record is counted, not written, after one of it was written."""
KINDS_KEPT = 10_000
"""Kinds remembered at most (a bound: they are forgotten all at once past it)."""


def _outage_types() -> tuple[type[BaseException], ...]:
    """Exceptions that mean "the database or the network is not answering"."""
    import sqlalchemy.exc

    found: list[type[BaseException]] = [OSError, TimeoutError, sqlalchemy.exc.OperationalError,
                                        sqlalchemy.exc.InterfaceError]
    try:
        import asyncpg  # type: ignore[import-untyped]

        found += [asyncpg.exceptions.PostgresConnectionError, asyncpg.exceptions.CannotConnectNowError,
                  asyncpg.exceptions.InterfaceError]
    except ImportError:
        pass
    return tuple(found)


@dataclass
class _Seen:
    written_at: float
    held: int = 0


class RepeatFilter(logging.Filter):
    """Put on a handler: records of one kind at WARNING or above are written once a window."""

    def __init__(self, clock: Callable[[], float] = time.monotonic, window: float = REPEAT_WINDOW) -> None:
        super().__init__()
        self.clock = clock
        self.window = window
        self.seen: dict[tuple[str, int, str, str], _Seen] = {}
        self.outages = _outage_types()

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno < logging.WARNING:
            return True
        error = record.exc_info[1] if record.exc_info else None
        key = (record.name, record.levelno, str(record.msg), type(error).__name__ if error else "")
        now = self.clock()
        seen = self.seen.get(key)
        if seen is not None and now - seen.written_at < self.window:
            seen.held += 1
            return False
        if len(self.seen) >= KINDS_KEPT:
            self.seen.clear()
        held = seen.held if seen is not None else 0
        self.seen[key] = _Seen(now)
        extra = f" (and {held} more like it in the last {self.window:.0f} s)" if held else ""
        if error is not None and isinstance(error, self.outages):
            extra += f" [{type(error).__name__}: {_first_line(error)}]"
            record.exc_info, record.exc_text = None, None
        if extra:
            record.msg = str(record.msg) + extra.replace("%", "%%")
        return True


def _first_line(error: BaseException) -> str:
    text = str(error).strip().splitlines()
    return text[0][:200] if text else ""


REPEATS = RepeatFilter()


def install_repeat_filter() -> None:
    """Count repeats on every root handler (where records are written)."""
    for handler in logging.getLogger().handlers:
        if not any(isinstance(f, RepeatFilter) for f in handler.filters):
            handler.addFilter(REPEATS)
