"""clicked_dms: a turn DM's edit goes through the player's newest live click on it (callback or
webhook, off the global rate limit), and falls back to the bot's route only when Discord no
longer takes the click's token; any other refusal is the message's own and is raised."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import discord
import pytest

from bot.discord import clicked_dms
from bot.discord.clicked_dms import ClickedDms, ClickToken

MESSAGE = 4242


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


class Response:
    def __init__(self, done: bool) -> None:
        self.done = done
        self.callbacks: list[dict[str, Any]] = []

    def is_done(self) -> bool:
        return self.done

    async def edit_message(self, **fields: Any) -> None:
        self.callbacks.append(fields)
        self.done = True


class Click:
    """An interaction on the DM: its callback (``response``) and its webhook edits."""

    _ids = 0

    def __init__(self, answered: bool = True, refusal: discord.HTTPException | None = None) -> None:
        Click._ids += 1
        self.id = Click._ids
        self.application_id, self.token, self.channel = 7, f"token-{self.id}", None
        self._state = self._session = None
        self.response = Response(answered)
        self.refusal = refusal
        self.edits: list[dict[str, Any]] = []

    async def edit_original_response(self, **fields: Any) -> None:
        if self.refusal is not None:
            raise self.refusal
        self.edits.append(fields)


class Message:
    """The DM channel, and its message as the bot's own route edits it."""

    def __init__(self) -> None:
        self.edits: list[dict[str, Any]] = []

    def get_partial_message(self, message_id: int) -> Message:
        assert message_id == MESSAGE
        return self

    async def edit(self, **fields: Any) -> None:
        self.edits.append(fields)


def refusal(status: int, code: int) -> discord.HTTPException:
    return discord.HTTPException(SimpleNamespace(status=status, reason="refused"), {"code": code, "message": "no"})


async def test_an_answered_click_edits_its_message_through_its_webhook() -> None:
    clicks, click, message = ClickedDms(), Click(), Message()
    clicks.clicked(MESSAGE, click)  # type: ignore[arg-type]
    await clicked_dms.edit(clicks, message, MESSAGE, content="next decision")  # type: ignore[arg-type]
    assert click.edits == [{"content": "next decision"}] and message.edits == []


async def test_an_unanswered_click_carries_the_edit_in_its_callback() -> None:
    clicks, click, message = ClickedDms(), Click(answered=False), Message()
    clicks.clicked(MESSAGE, click)  # type: ignore[arg-type]
    await clicked_dms.edit(clicks, message, MESSAGE, content="next decision")  # type: ignore[arg-type]
    assert click.response.callbacks == [{"content": "next decision"}] and click.edits == [] and message.edits == []


async def test_the_newest_click_on_the_message_is_used() -> None:
    clicks, older, newer, message = ClickedDms(), Click(), Click(), Message()
    clicks.clicked(MESSAGE, older)  # type: ignore[arg-type]
    clicks.clicked(MESSAGE, newer)  # type: ignore[arg-type]
    await clicked_dms.edit(clicks, message, MESSAGE, content="x")  # type: ignore[arg-type]
    assert newer.edits and not older.edits


@pytest.mark.parametrize(("status", "code"), [(401, 50027), (404, 10015), (404, 10062)])
async def test_a_token_discord_no_longer_takes_falls_back_and_is_forgotten(status: int, code: int) -> None:
    clicks, click, message = ClickedDms(), Click(refusal=refusal(status, code)), Message()
    clicks.clicked(MESSAGE, click)  # type: ignore[arg-type]
    await clicked_dms.edit(clicks, message, MESSAGE, content="next decision")  # type: ignore[arg-type]
    assert message.edits == [{"content": "next decision"}], "the bot's own route wrote it"
    assert clicks.click_on(MESSAGE) is None and len(clicks) == 0
    await clicked_dms.edit(clicks, message, MESSAGE, content="again")  # type: ignore[arg-type]
    assert len(message.edits) == 2, "not tried through the refused click again"


async def test_a_refusal_of_the_message_itself_is_raised_not_repeated() -> None:
    clicks, click, message = ClickedDms(), Click(refusal=refusal(404, 10008)), Message()
    clicks.clicked(MESSAGE, click)  # type: ignore[arg-type]
    with pytest.raises(discord.HTTPException) as raised:
        await clicked_dms.edit(clicks, message, MESSAGE, content="x")  # type: ignore[arg-type]
    assert raised.value.code == 10008 and message.edits == [], "a deleted DM: the caller sends a new one"


async def test_a_click_is_used_only_while_its_token_lives() -> None:
    clock = Clock()
    clicks, click, message = ClickedDms(clock=clock), Click(), Message()
    clicks.clicked(MESSAGE, click)  # type: ignore[arg-type]
    clock.now += clicked_dms.TOKEN_LIFETIME - clicked_dms.MARGIN - 1
    await clicked_dms.edit(clicks, message, MESSAGE, content="in time")  # type: ignore[arg-type]
    clock.now += 2
    await clicked_dms.edit(clicks, message, MESSAGE, content="too late")  # type: ignore[arg-type]
    assert click.edits == [{"content": "in time"}] and message.edits == [{"content": "too late"}]
    assert len(clicks) == 0


def test_clicks_kept_are_bounded_oldest_first() -> None:
    clicks = ClickedDms()
    for message_id in range(clicked_dms.CLICKS_KEPT + 5):
        clicks.clicked(message_id, Click())  # type: ignore[arg-type]
    assert len(clicks) == clicked_dms.CLICKS_KEPT
    assert clicks.click_on(0) is None and clicks.click_on(clicked_dms.CLICKS_KEPT + 4) is not None


def test_an_answered_click_is_kept_as_its_token_not_the_interaction() -> None:
    """A clicked DM keeps its click for minutes: once answered, only its token is held (the
    interaction's parsed message and data would be held by every clicked DM)."""
    clock = Clock()
    clicks = ClickedDms(clock=clock)
    answered, open_one = Click(), Click(answered=False)
    clicks.clicked(1, answered)  # type: ignore[arg-type]
    clicks.clicked(2, open_one)  # type: ignore[arg-type]
    kept = clicks.click_on(1)
    assert isinstance(kept, ClickToken) and kept.token == answered.token and kept.application_id == 7
    assert clicks.click_on(2) is open_one, "unanswered: kept whole, its callback may carry the edit"
    clock.now += clicked_dms.ANSWER_TIME + 1
    clicks.clicked(3, Click())  # type: ignore[arg-type]
    assert clicks.click_on(2) is None, "never answered in Discord's 3 s: it can carry nothing"
