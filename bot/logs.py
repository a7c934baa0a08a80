"""The bot's logging: the configured level, with secrets taken out of every record.

At DEBUG discord.py logs each REST call with its URL and body and each gateway event whole.
Interaction tokens sit in those URLs (an interaction token lets anyone answer as the bot for 15
minutes), and the bodies and events carry what a player chose in secret: the select values and
button ids of a click, the numbers typed into a form, the sealed summary edited into their DM.
SQLAlchemy and aiosqlite would log every statement with its parameters, the choice log included.
So records are redacted before any handler sees them, and the SQL loggers stay at WARNING."""

from __future__ import annotations

import json
import logging
import re
from typing import Any

FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
TOKEN_IN_URL = re.compile(r"(/(?:interactions|webhooks)/\d+/)[^/?\s'\"]+")
SECRET_KEYS = frozenset({"token", "content", "components", "values", "value", "custom_id", "embeds",
                         "attachments", "description", "label", "placeholder", "title"})
"""Payload keys whose values are redacted: tokens, and everything a message or a click says."""
QUIET = ("sqlalchemy", "aiosqlite")
"""Loggers that would write SQL parameters (sealed choices): never below WARNING."""
OURS = ("discord", "bot", "db", "engine", "aiohttp")
"""Loggers (and their children) that get the filter themselves, so records are clean before any
handler, including ones added later (a test's log capture)."""
REDACTED = "<redacted>"


def redact_text(text: str) -> str:
    return TOKEN_IN_URL.sub(rf"\g<1>{REDACTED}", text)


def redact(value: Any) -> Any:
    """A copy of `value` with tokens and message or click contents replaced."""
    if isinstance(value, dict):
        return {k: (REDACTED if k in SECRET_KEYS and v not in (None, "", [], {}) else redact(v))
                for k, v in value.items()}
    if isinstance(value, list | tuple):
        return type(value)(redact(v) for v in value)
    if isinstance(value, str):
        stripped = value.lstrip()
        if stripped[:1] in ("{", "["):  # a JSON body as discord.py sends it
            try:
                return json.dumps(redact(json.loads(value)))
            except ValueError:
                pass
        return redact_text(value)
    if isinstance(value, bytes | bytearray):
        return f"<{len(value)} bytes>"
    return value


class Redactor(logging.Filter):
    """Rewrites each record in place (message and traceback) and lets it through."""

    def filter(self, record: logging.LogRecord) -> bool:
        if getattr(record, "redacted", False):
            return True
        if isinstance(record.args, dict):
            record.args = redact(record.args)
        elif record.args:
            record.args = tuple(redact(arg) for arg in record.args)
        if isinstance(record.msg, str):
            record.msg = redact_text(record.msg)
        if record.exc_info and not record.exc_text:
            record.exc_text = redact_text(logging.Formatter().formatException(record.exc_info))
        record.redacted = True
        return True


REDACTOR = Redactor()


def install_redaction() -> None:
    """Filter the root handlers and every logger of ours already created; quiet the SQL loggers."""
    for handler in logging.getLogger().handlers:
        if REDACTOR not in handler.filters:
            handler.addFilter(REDACTOR)
    for name, logger in list(logging.root.manager.loggerDict.items()):
        if isinstance(logger, logging.Logger) and name.split(".")[0] in OURS and REDACTOR not in logger.filters:
            logger.addFilter(REDACTOR)
    for name in OURS:
        logger = logging.getLogger(name)
        if REDACTOR not in logger.filters:
            logger.addFilter(REDACTOR)
    for name in QUIET:
        logger = logging.getLogger(name)
        logger.setLevel(max(logger.getEffectiveLevel(), logging.WARNING))


def setup_logging(level: str, log_format: str = "text") -> None:
    """The bot's logging setup: call after the bot's modules are imported (their loggers exist).
    ``log_format`` json writes one JSON object a line (bot/log_json.py)."""
    from bot.log_repeats import install_repeat_filter

    logging.basicConfig(level=level.upper(), format=FORMAT)
    if log_format == "json":
        from bot.log_json import JsonFormatter

        for handler in logging.getLogger().handlers:
            handler.setFormatter(JsonFormatter())
    install_redaction()
    install_repeat_filter()  # after the redactor: it reads the redacted message
