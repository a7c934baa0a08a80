"""The kit's shared helpers: events with the short log, options within limits, content readers."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest
from pydantic import BaseModel, ConfigDict, Field

from engine.contract import Event, State
from engine.kit import LOG_LENGTH, ContentError, data_folder, emit, opt, parse, read_json, read_toml

tinybigwars_content = importlib.import_module("engine.tinybigwars.content")
samurai_content = importlib.import_module("engine.samurai.content")
defenders_content = importlib.import_module("engine.defenders.content")
"""By module name: each game package exports a `content()` function of the same name."""


class Logged(State):
    log: list[str] = Field(default_factory=list)


def test_a_public_event_joins_the_log_kept_to_its_last_entries() -> None:
    state, events = Logged(), []
    for n in range(LOG_LENGTH + 3):
        emit(state, "log", events, "info", f"line {n}")
    assert state.log == [f"line {n}" for n in range(3, LOG_LENGTH + 3)]
    assert len(events) == LOG_LENGTH + 3 and events[0] == Event(kind="info", text="line 0")


def test_a_private_event_leaves_the_log_alone() -> None:
    state, events = Logged(), []
    event = emit(state, "log", events, "secret", "for seat 2", seats=[2], phase_end=True)
    assert state.log == [] and "log" not in state.model_fields_set
    assert events == [event] and event.seats == [2] and event.phase_end


def test_the_log_is_replaced_never_grown_in_place() -> None:
    """A snapshot taken before the event (an AI's trial, the previous state) must not change."""
    state, events = Logged(log=["old"]), []
    before = state.log
    emit(state, "log", events, "info", "new")
    assert before == ["old"] and state.log == ["old", "new"]


def test_an_option_is_cut_to_the_select_menu_limits() -> None:
    option = opt("v" * 60, "l" * 90, {"act": "x"}, "d" * 120)
    assert (len(option.value), len(option.label), len(option.description)) == (50, 80, 100)
    assert option.choice == {"act": "x"}


def test_every_game_raises_the_one_content_error() -> None:
    assert tinybigwars_content.ContentError is ContentError
    assert samurai_content.ContentError is ContentError
    assert defenders_content.ContentError is ContentError
    assert issubclass(ContentError, ValueError)


def test_data_folder_is_next_to_the_module() -> None:
    assert data_folder(tinybigwars_content.__file__) == tinybigwars_content.DATA_DIR
    assert (defenders_content.DATA / "cards.toml").is_file()


class Card(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str
    cost: int = Field(ge=0)


def test_readers_name_the_file_that_is_missing_or_malformed(tmp_path: Path) -> None:
    with pytest.raises(ContentError, match=r"^gone\.toml: file is missing$"):
        read_toml(tmp_path / "gone.toml")
    (tmp_path / "bad.toml").write_text("name = ", encoding="utf-8")
    with pytest.raises(ContentError, match=r"^bad\.toml: not valid TOML: "):
        read_toml(tmp_path / "bad.toml")
    (tmp_path / "bad.json").write_text("{", encoding="utf-8")
    with pytest.raises(ContentError, match=r"^bad\.json: not valid JSON: "):
        read_json(tmp_path / "bad.json")
    (tmp_path / "good.json").write_text('{"name": "Ash", "cost": 2}', encoding="utf-8")
    assert read_json(tmp_path / "good.json") == {"name": "Ash", "cost": 2}


def test_parse_names_the_field_or_the_entry_and_field() -> None:
    path = Path("cards.toml")
    assert parse(Card, {"name": "Ash", "cost": 2}, path) == Card(name="Ash", cost=2)
    with pytest.raises(ContentError, match=r"^cards\.toml: field 'cost': Input should be greater"):
        parse(Card, {"name": "Ash", "cost": -1}, path)
    with pytest.raises(ContentError, match=r"^cards\.toml: card\[3\]\.cost: "):
        parse(Card, {"name": "Ash", "cost": -1}, path, entry="card[3]")
    with pytest.raises(ContentError, match=r"^cards\.toml: card\[3\]\.entry: "):
        parse(Card, "not a table", path, entry="card[3]")
