"""LOG_LEVEL=DEBUG: discord.py logs every REST call and gateway event, yet the bot's logs hold
neither an interaction token nor what a player chose in secret."""

from __future__ import annotations

import logging
import re
from collections.abc import Iterator

import pytest

from bot.logs import QUIET, REDACTOR, install_redaction, redact
from tests.e2e.harness import factory, settings_for


@pytest.fixture
def redaction() -> Iterator[None]:
    """The bot's redaction for one test, then the loggers as they were."""
    levels = {name: logging.getLogger(name).level for name in QUIET}
    install_redaction()
    try:
        yield
    finally:
        for logger in [logging.getLogger(), *logging.root.manager.loggerDict.values()]:
            if isinstance(logger, logging.Logger) and REDACTOR in logger.filters:
                logger.removeFilter(REDACTOR)
            for handler in getattr(logger, "handlers", []):
                handler.removeFilter(REDACTOR)
        for name, level in levels.items():
            logging.getLogger(name).setLevel(level)


async def test_debug_logs_hold_no_token_and_no_sealed_choice(fake, start_bot, alice, bob, tmp_path,
                                                              redaction, caplog) -> None:
    await start_bot(factory(settings_for(fake, tmp_path / "w.db")))
    await alice.slash("game new", game="tinybigwars")
    await alice.wait_for(lambda m: m.button("Join") is not None)
    await bob.click("Join")
    await alice.wait_for(lambda m: "bob joined" in m.content)
    await alice.click("Start")
    force = await alice.dm.wait_for(lambda m: m.selects)
    option = force.selects[0].options[0]
    with caplog.at_level(logging.DEBUG):
        r = await alice.dm.select(None, [option["value"]], message=force)
        await alice.dm.wait_for(lambda m: m.id == force.id and "stays sealed" in m.content)
        await fake.quiesce(quiet=0.3, timeout=5)
    ours = [rec for rec in caplog.records if not rec.name.startswith("tests.")]
    text = "\n".join(f"{rec.name} {rec.getMessage()} {rec.exc_text or ''}" for rec in ours)
    assert any(rec.name == "discord.gateway" and "INTERACTION_CREATE" in rec.getMessage() for rec in ours)
    assert any(rec.name.startswith("discord.webhook") for rec in ours), "the reply was logged (redacted)"
    assert r.interaction.token not in text
    assert not re.search(rf"\b{re.escape(option['value'])}\b", text), "the chosen value was logged"
    assert option["label"] not in text, "the sealed summary was logged"
    assert not [rec for rec in caplog.records if rec.name.startswith(QUIET)]


def test_redaction_keeps_the_shape() -> None:
    event = {"op": 0, "t": "INTERACTION_CREATE", "s": 7,
             "d": {"id": "1", "token": "secret", "data": {"custom_id": "wh:p:1:0:3:o:ember", "values": ["ember"]}}}
    assert redact(event) == {"op": 0, "t": "INTERACTION_CREATE", "s": 7,
                             "d": {"id": "1", "token": "<redacted>",
                                   "data": {"custom_id": "<redacted>", "values": "<redacted>"}}}
    url = "PATCH https://discord.com/api/v10/webhooks/99/aW50ZXJhY3Rpb24.abc-_9/messages/@original"
    assert redact(url) == "PATCH https://discord.com/api/v10/webhooks/99/<redacted>/messages/@original"
    assert redact('{"content": "Your choice: Ember", "flags": 64}') == '{"content": "<redacted>", "flags": 64}'
