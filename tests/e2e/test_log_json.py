"""LOG_FORMAT=json: one JSON object a line, with the ids of the match and guild it concerns, and
the same redaction as the text format (no interaction token, no sealed choice)."""

from __future__ import annotations

import io
import json
import logging
import re
from collections.abc import Iterator

import pytest

from bot.log_json import JsonFormatter
from bot.logs import REDACTOR
from bot.settings import Settings
from tests.e2e.harness import factory, settings_for
from tests.e2e.test_log_secrets import redaction  # noqa: F401  (fixture)


@pytest.fixture
def json_lines() -> Iterator[io.StringIO]:
    """A root handler writing JSON lines, as LOG_FORMAT=json sets up; removed afterwards."""
    out = io.StringIO()
    handler = logging.StreamHandler(out)
    handler.setFormatter(JsonFormatter())
    handler.addFilter(REDACTOR)
    root = logging.getLogger()
    level = root.level
    root.addHandler(handler)
    root.setLevel(logging.DEBUG)
    try:
        yield out
    finally:
        root.removeHandler(handler)
        root.setLevel(level)


async def test_json_lines_with_ids_and_no_secret(fake, start_bot, alice, bob, tmp_path, redaction,  # noqa: F811
                                                 json_lines) -> None:
    await start_bot(factory(settings_for(fake, tmp_path / "w.db")))
    await alice.slash("game new", game="tinybigwars")
    await alice.wait_for(lambda m: m.button("Join") is not None)
    await bob.click("Join")
    await alice.click("Start")
    force = await alice.dm.wait_for(lambda m: m.selects)
    option = force.selects[0].options[0]
    r = await alice.dm.select(None, [option["value"]], message=force)
    await alice.dm.wait_for(lambda m: m.id == force.id and "stays sealed" in m.content)
    await fake.quiesce(quiet=0.3, timeout=5)

    text = json_lines.getvalue()
    entries = [json.loads(line) for line in text.splitlines()]  # every line is one JSON object
    assert len(entries) > 20
    assert all({"time", "level", "logger", "message"} <= set(entry) for entry in entries)
    assert any(entry["logger"] == "discord.gateway" and "INTERACTION_CREATE" in entry["message"] for entry in entries)
    guild = fake.guilds[0].id
    assert any(entry.get("guild_id") == guild for entry in entries), "an interaction handler's lines name its guild"
    assert any(entry.get("match_id") == 1 for entry in entries), "a delivery worker's lines name its match"
    assert r.interaction.token not in text
    assert not re.search(rf"\b{re.escape(option['value'])}\b", text), "the chosen value was logged"
    assert option["label"] not in text, "the sealed summary was logged"


def test_a_traceback_is_one_line_and_redacted(json_lines, redaction) -> None:  # noqa: F811
    log = logging.getLogger("bot.discord.test")
    try:
        raise RuntimeError("POST /interactions/123/very-secret-token/callback failed")
    except RuntimeError:
        log.exception("delivering the notices of match %s failed", 7)
    lines = json_lines.getvalue().splitlines()
    assert len(lines) == 1
    entry = json.loads(lines[0])
    assert entry["level"] == "ERROR" and entry["match_id"] == 7
    assert "RuntimeError" in entry["exception"] and "very-secret-token" not in lines[0]


def test_log_format_setting() -> None:
    assert Settings(_env_file=None, log_format="JSON").log_format == "json"
    assert Settings(_env_file=None).log_format == "text"
    with pytest.raises(ValueError, match="log_format"):
        Settings(_env_file=None, log_format="xml")
