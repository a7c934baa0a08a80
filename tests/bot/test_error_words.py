"""bot.discord.errors.explain: every exception becomes words a player can act on."""

from __future__ import annotations

import logging

import pytest
from discord import app_commands
from pydantic import ValidationError

import engine
from bot.discord.errors import UNEXPECTED, explain
from bot.service import Conflict


def test_service_refusals_keep_their_own_words() -> None:
    assert explain(Conflict("A match is already open in this channel.")) == "A match is already open in this channel."


def test_raw_options_error_names_the_option_and_its_values() -> None:
    with pytest.raises(ValidationError) as raw:
        engine.get("samurai").options_model().model_validate({"mode": "bogus"})
    text = explain(raw.value)
    assert text == "Bad options: mode must be one of base, quickstart, lwtv. Nothing was changed."


def test_anything_else_gets_an_error_id_logged_with_the_detail(caplog: pytest.LogCaptureFixture) -> None:
    cause = RuntimeError("postgresql://warhost:secret@db/warhost refused")
    wrapped = app_commands.CommandInvokeError.__new__(app_commands.CommandInvokeError)
    wrapped.original = cause
    with caplog.at_level(logging.ERROR, logger="bot.discord.errors"):
        text = explain(wrapped, "/game status")
    error_id = text.split("error id ")[1][:6]
    assert text == UNEXPECTED.format(error_id=error_id)
    assert "secret" not in text
    (record,) = caplog.records
    assert error_id in record.getMessage() and "/game status" in record.getMessage()
    assert record.exc_info is not None and record.exc_info[1] is cause
