"""LOG_FORMAT=json: one JSON object a line (time, level, logger, message, match and guild ids
where known) for log collectors.

Records reach this formatter already redacted (bot/logs.py's filter runs on every logger of
ours and on the handler), and the traceback it writes is the redacted one. The ids come from
the task that logged: an interaction handler knows its guild, a delivery worker its match
(``about``, a context variable each task keeps to itself); else a "match N" in the message."""

from __future__ import annotations

import json
import logging
import re
from contextvars import ContextVar
from datetime import UTC, datetime

MATCH_ID: ContextVar[int | None] = ContextVar("warhost_match_id", default=None)
GUILD_ID: ContextVar[int | None] = ContextVar("warhost_guild_id", default=None)
MATCH_IN_TEXT = re.compile(r"\bmatch #?(\d+)\b")


def about(*, match_id: int | None = None, guild_id: int | None = None) -> None:
    """What the current task works on (it and the tasks it starts log these ids)."""
    if match_id is not None:
        MATCH_ID.set(match_id)
    if guild_id is not None:
        GUILD_ID.set(guild_id)


class JsonFormatter(logging.Formatter):
    """A record as one line of JSON."""

    def format(self, record: logging.LogRecord) -> str:
        message = record.getMessage()
        entry: dict[str, object] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": message,
        }
        match_id = getattr(record, "match_id", None) or MATCH_ID.get()
        if match_id is None:
            found = MATCH_IN_TEXT.search(message)
            match_id = int(found.group(1)) if found else None
        guild_id = getattr(record, "guild_id", None) or GUILD_ID.get()
        if match_id is not None:
            entry["match_id"] = match_id
        if guild_id is not None:
            entry["guild_id"] = guild_id
        if record.exc_info and not record.exc_text:
            record.exc_text = self.formatException(record.exc_info)
        if record.exc_text:
            entry["exception"] = record.exc_text
        if record.stack_info:
            entry["stack"] = self.formatStack(record.stack_info)
        return json.dumps(entry, ensure_ascii=False, default=str)
