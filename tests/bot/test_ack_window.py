"""A click's answer rides in its acknowledgement when it is ready within the window, and the
acknowledgement goes alone (the answer after it) when it is not: one callback either way."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from typing import Any

import discord

from bot.discord import ack_window
from bot.discord.replies import answer


class Response:
    """An interaction's response as discord.py keeps it: its type is known once Discord answered.
    ``gate``, when given, holds a defer on its way until it is set."""

    def __init__(self, sent: list[Any], gate: asyncio.Event | None = None) -> None:
        self.sent = sent
        self.gate = gate
        self.type: discord.InteractionResponseType | None = None
        self.deferring = asyncio.Event()

    def is_done(self) -> bool:
        return self.type is not None

    def _callback(self, kind: discord.InteractionResponseType, what: Any) -> None:
        assert self.type is None, f"a second callback: {what} after {self.sent}"
        self.type = kind
        self.sent.append(what)

    async def defer(self, **_options: Any) -> None:
        self.deferring.set()
        if self.gate is not None:
            await self.gate.wait()
        self._callback(discord.InteractionResponseType.deferred_message_update, "defer")

    async def edit_message(self, **fields: Any) -> None:
        self._callback(discord.InteractionResponseType.message_update, ("callback", fields["content"]))

    async def send_message(self, text: str, **_options: Any) -> None:
        self._callback(discord.InteractionResponseType.channel_message, ("private", text))


class Followup:
    def __init__(self, sent: list[Any]) -> None:
        self.sent = sent

    async def send(self, text: str, **_options: Any) -> None:
        self.sent.append(("follow-up", text))


class Interaction:
    """A click that arrived ``age`` seconds ago."""

    def __init__(self, age: float = 0.0, gate: asyncio.Event | None = None) -> None:
        self.id = discord.utils.time_snowflake(discord.utils.utcnow() - timedelta(seconds=age))
        self.sent: list[Any] = []
        self.response = Response(self.sent, gate)
        self.followup = Followup(self.sent)

    async def edit_original_response(self, **fields: Any) -> None:
        assert self.response.is_done(), "an edit before the acknowledgement"
        self.sent.append(("edit", fields["content"]))


async def test_an_answer_ready_within_the_window_is_the_acknowledgement_itself() -> None:
    click = Interaction()
    async with ack_window.window(click, 30.0):  # type: ignore[arg-type]
        await ack_window.update(click, content="You chose: **Ember**.")  # type: ignore[arg-type]
    assert click.sent == [("callback", "You chose: **Ember**.")], "one request: the reply in the callback"


async def test_past_the_window_the_acknowledgement_goes_first_and_the_answer_follows_as_an_edit() -> None:
    click = Interaction()
    async with ack_window.window(click, 0.0):  # type: ignore[arg-type]
        await click.response.deferring.wait()  # a slow database: the window closed meanwhile
        await asyncio.sleep(0)
        await ack_window.update(click, content="You chose: **Ember**.")  # type: ignore[arg-type]
    assert click.sent == ["defer", ("edit", "You chose: **Ember**.")]


async def test_an_answer_while_the_defer_is_on_its_way_waits_for_it_and_edits() -> None:
    gate = asyncio.Event()
    click = Interaction(gate=gate)
    async with ack_window.window(click, 0.0):  # type: ignore[arg-type]
        await click.response.deferring.wait()
        answering = asyncio.create_task(ack_window.update(click, content="Sealed."))  # type: ignore[arg-type]
        for _ in range(5):
            await asyncio.sleep(0)
        assert click.sent == [] and not answering.done(), "the answer waits for the defer Discord has not answered"
        gate.set()
        await answering
    assert click.sent == ["defer", ("edit", "Sealed.")], "one callback, then the edit"


async def test_a_handler_that_answers_nothing_is_acknowledged_on_its_way_out_once() -> None:
    click = Interaction()
    async with ack_window.window(click, 0.05):  # type: ignore[arg-type]
        pass  # the seat's next decision is delivery's to write
    assert click.sent == ["defer"]
    await asyncio.sleep(0.1)  # past the window: its timer was stopped
    assert click.sent == ["defer"]


async def test_a_refusal_within_the_window_is_a_private_message_in_the_callback() -> None:
    click = Interaction()
    async with ack_window.window(click, 30.0):  # type: ignore[arg-type]
        await answer(click, "This choice is no longer open.")  # type: ignore[arg-type]
    assert click.sent == [("private", "This choice is no longer open.")]


async def test_a_refusal_past_the_window_follows_the_defer() -> None:
    click = Interaction()
    async with ack_window.window(click, 0.0):  # type: ignore[arg-type]
        await click.response.deferring.wait()
        await asyncio.sleep(0)
        await answer(click, "This choice is no longer open.")  # type: ignore[arg-type]
    assert click.sent == ["defer", ("follow-up", "This choice is no longer open.")]


async def test_the_window_counts_from_the_clicks_creation_not_from_the_handler() -> None:
    """A click that reached the handler late (a busy event loop) has less of its window left."""
    click = Interaction(age=5.0)
    async with ack_window.window(click, 1.5):  # type: ignore[arg-type]
        await click.response.deferring.wait()  # at once: its 1.5 s are long gone
        await asyncio.sleep(0)
    assert click.sent == ["defer"]


def test_the_window_is_the_longest_allowed_until_enough_clicks_were_answered() -> None:
    pace = ack_window.Pace(0.25)
    for _ in range(ack_window.CLICKS_BEFORE_LEARNING - 1):
        pace.answered(0.01)
    assert pace.wait() == 0.25
    pace.answered(0.01)
    assert pace.wait() == ack_window.SHORTEST, "quick answers: the acknowledgement need not wait long"


def test_the_window_is_as_long_as_nine_in_ten_recent_answers_needed() -> None:
    pace = ack_window.Pace(0.25)
    for tenth in range(100):
        pace.answered(0.08 if tenth % 10 else 0.2)  # one answer in ten is slow
    assert pace.wait() == 0.08, "the slow tenth is deferred, the rest ride in the callback"
    for _ in range(ack_window.CLICKS_KEPT):
        pace.answered(1.0)  # the bot got busy: answers take a second
    assert pace.wait() == 0.25, "never longer than the setting allows"
    for _ in range(ack_window.CLICKS_KEPT):
        pace.answered(0.12)
    assert pace.wait() == 0.12, "only recent clicks count"


def test_a_setting_of_zero_always_acknowledges_at_once() -> None:
    pace = ack_window.Pace(0.0)
    for _ in range(50):
        pace.answered(0.01)
    assert pace.wait() == 0.0


async def test_a_window_tells_its_pace_how_soon_the_answer_was_ready_once() -> None:
    pace = ack_window.Pace(30.0)
    click = Interaction(age=0.5)
    async with ack_window.window(click, pace):  # type: ignore[arg-type]
        await ack_window.update(click, content="You chose: **Ember**.")  # type: ignore[arg-type]
    assert click.sent == [("callback", "You chose: **Ember**.")]
    assert len(pace._answered) == 1 and 0.5 <= pace._answered[0] < 5.0, "its age when answered, noted once"


async def test_a_learned_short_window_defers_a_slow_click() -> None:
    pace = ack_window.Pace(30.0)
    for _ in range(ack_window.CLICKS_BEFORE_LEARNING):
        pace.answered(0.0)
    click = Interaction(age=1.0)  # older than the learned window: deferred at once, not after 30 s
    async with ack_window.window(click, pace):  # type: ignore[arg-type]
        await click.response.deferring.wait()
        await asyncio.sleep(0)
        await ack_window.update(click, content="You chose: **Ember**.")  # type: ignore[arg-type]
    assert click.sent == ["defer", ("edit", "You chose: **Ember**.")]


async def test_a_click_held_up_by_a_busy_bot_still_rides_in_the_callback_under_the_default_window() -> None:
    """At 200 matches a click reaches its handler ~0.3 s after its creation and its answer is
    ready ~0.1 s later: the default window carries it (one request), no defer and edit (two)."""
    click = Interaction(age=0.3)
    async with ack_window.window(click, ack_window.Pace(ack_window.REPLY_WAIT)):  # type: ignore[arg-type]
        await asyncio.sleep(0.1)  # the submit's transaction, behind other writers
        await ack_window.update(click, content="You chose: **Ember**.")  # type: ignore[arg-type]
    assert click.sent == [("callback", "You chose: **Ember**.")]


def test_the_settings_default_is_the_windows_longest() -> None:
    from bot.settings import Settings

    assert Settings.model_fields["reply_wait_seconds"].default == ack_window.REPLY_WAIT


async def test_a_window_left_open_takes_another_writers_answer_in_its_callback() -> None:
    """The handler ends leaving the answer to delivery (a sealed next decision it cannot show):
    nothing is sent on its way out, and delivery's edit of the clicked DM is the callback."""
    click = Interaction()
    async with ack_window.window(click, 30.0):  # type: ignore[arg-type]
        ack_window.leave_open(click)  # type: ignore[arg-type]
    assert click.sent == [] and ack_window.timers(), "no defer on the way out: the window stays open"
    await ack_window.update(click, content="Your next decision, with your map.")  # type: ignore[arg-type]
    assert click.sent == [("callback", "Your next decision, with your map.")]
    await asyncio.sleep(0)
    assert not ack_window.timers(), "settled: the timer is gone"


async def test_a_window_left_open_with_nothing_coming_defers_at_its_end() -> None:
    click = Interaction()
    async with ack_window.window(click, 0.05):  # type: ignore[arg-type]
        ack_window.leave_open(click)  # type: ignore[arg-type]
    assert click.sent == []
    await asyncio.wait_for(click.response.deferring.wait(), 5)
    await asyncio.gather(*ack_window.timers())
    assert click.sent == ["defer"], "acknowledged within Discord's 3 s all the same"
    await ack_window.update(click, content="late")  # type: ignore[arg-type]
    assert click.sent == ["defer", ("edit", "late")]


async def test_a_handler_raising_after_leaving_the_window_open_still_settles_it() -> None:
    click = Interaction()
    try:
        async with ack_window.window(click, 30.0):  # type: ignore[arg-type]
            ack_window.leave_open(click)  # type: ignore[arg-type]
            raise RuntimeError("after the submit")
    except RuntimeError:
        pass
    await asyncio.sleep(0)
    assert click.sent == [] and not ack_window.timers(), "the error handler answers; the timer never will"
    await answer(click, "Something went wrong.")  # type: ignore[arg-type]
    assert len(click.sent) == 1


async def test_a_window_left_open_stays_open_as_long_as_the_setting_allows() -> None:
    """Clicks answered quickly taught the window to close at 0.05 s; delivery's edit takes a
    drawing, longer: a window left open for it closes only at the setting's longest."""
    pace = ack_window.Pace(5.0)
    for _ in range(ack_window.CLICKS_BEFORE_LEARNING):
        pace.answered(0.001)
    assert pace.wait() == ack_window.SHORTEST
    click = Interaction()
    async with ack_window.window(click, pace):  # type: ignore[arg-type]
        ack_window.leave_open(click)  # type: ignore[arg-type]
    await asyncio.sleep(0.3)
    assert click.sent == [], "still open well past the learned 0.05 s"
    await ack_window.update(click, content="Your next decision, with your map.")  # type: ignore[arg-type]
    assert click.sent == [("callback", "Your next decision, with your map.")]
