"""The bot's event loop (EVENT_LOOP, bot/cli/run.py): uvloop where it is installed, Python's
own loop when asked or where uvloop is missing, and a clear refusal of anything else."""

from __future__ import annotations

import asyncio
import sys

import pytest
import uvloop
from pydantic import ValidationError

from bot.cli.run import event_loop
from bot.settings import Settings


def test_uvloop_by_default_where_installed() -> None:
    assert Settings(_env_file=None).event_loop == "uvloop"  # type: ignore[call-arg]
    name, factory = event_loop("uvloop")
    assert name == "uvloop" and factory is not None
    loop = factory()
    try:
        assert isinstance(loop, uvloop.Loop)
        assert loop.run_until_complete(asyncio.sleep(0, result="ran")) == "ran"
    finally:
        loop.close()


def test_asyncio_when_asked() -> None:
    assert event_loop("asyncio") == ("asyncio", None)


def test_asyncio_where_uvloop_is_missing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "uvloop", None)  # what an import on Windows meets
    assert event_loop("uvloop") == ("asyncio (uvloop is not installed)", None)


def test_another_loop_is_refused_by_name(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("EVENT_LOOP", "trio")
    with pytest.raises(ValidationError, match="event_loop"):
        Settings(_env_file=None)  # type: ignore[call-arg]
