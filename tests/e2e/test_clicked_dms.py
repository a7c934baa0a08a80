"""Delivery edits a turn DM the player clicked through that click (its callback or its
webhook), which Discord's global rate limit does not count: under load the player's next
decision does not queue behind every match's channel posts (the fallback to the bot's route when
Discord no longer takes a click's token: tests/bot/test_clicked_dms.py)."""

from __future__ import annotations

import re
import time
from typing import Any

from tests.e2e.harness import AutoPlayer, factory, play_until, settings_for

DM_EDIT = re.compile(r"^/channels/(?P<channel>\d+)/messages/(?P<message>\d+)$")


async def _played(fake: Any, start_bot: Any, alice: Any, bob: Any, tmp_path: Any, **settings: Any) -> dict[int, float]:
    """Play a match to its end; the DMs the bot took a click on to edit them through, and when
    it first did (the clock of the fake's calls)."""
    bot = await start_bot(factory(settings_for(fake, tmp_path / "w.db", **settings)))
    clicks = bot.game.delivery.turns.clicks
    taken: dict[int, float] = {}
    remember = clicks.clicked

    def clicked(message_id: int, interaction: Any) -> None:
        taken.setdefault(message_id, time.monotonic())
        remember(message_id, interaction)

    clicks.clicked = clicked
    await alice.slash("game new", game="tinybigwars")
    await alice.wait_for(lambda m: m.button("Join") is not None)
    await bob.click("Join")
    await alice.wait_for(lambda m: "bob joined" in m.content)
    await alice.click("Start")
    autos = [AutoPlayer(alice), AutoPlayer(bob)]
    await play_until(fake, autos, lambda: any("The match is over" in m.content for m in alice.messages))
    await fake.quiesce()
    return taken


def _bot_route_edits_after_a_click(fake: Any, taken: dict[int, float]) -> list[str]:
    """The bot's own-route edits (the global limit's) of DMs after it took a click on them."""
    dms = {channel.id for channel in fake.dm_channels.values()}
    found = []
    for call in fake.calls:
        edit = DM_EDIT.match(call.path) if call.method == "PATCH" else None
        if edit and int(edit["channel"]) in dms and call.at > taken.get(int(edit["message"]), float("inf")):
            found.append(call.path)
    return found


def _private_maps_through_clicks(fake: Any) -> int:
    """Writes through a click (its callback, or its webhook after) carrying the seat's private
    map: only delivery draws one."""
    return sum(1 for call in fake.calls if (call.path.startswith("/webhooks/") or call.path.endswith("/callback"))
               and any(name == "you.png" for name, _ in call.files))


async def test_delivery_edits_a_clicked_turn_dm_through_the_click(fake, start_bot, alice, bob, tmp_path) -> None:
    taken = await _played(fake, start_bot, alice, bob, tmp_path)
    assert taken, "the players' clicks were taken"
    assert _bot_route_edits_after_a_click(fake, taken) == [], "a clicked turn DM was edited on the global limit"
    assert _private_maps_through_clicks(fake) > 0, "delivery's sealed decisions went through the players' clicks"
    limited = [call for call in fake.calls if "/webhooks/" in call.path and call.status == 429]
    assert not limited and not fake.violations


async def test_a_sealed_next_decision_rides_in_the_clicks_callback(fake, start_bot, alice, bob, tmp_path) -> None:
    """A click whose next decision is sealed with the seat's private map leaves its window open
    (router.py): delivery draws the map and its edit of the clicked DM is the click's callback,
    one request instead of a defer and an edit. With the longest window the setting allows,
    delivery is well within it on any machine for most of them."""
    await _played(fake, start_bot, alice, bob, tmp_path, reply_wait_seconds=2.5)
    carried = [call for call in fake.calls if call.path.endswith("/callback")
               and any(name == "you.png" for name, _ in call.files)]
    assert carried, "a sealed decision with its map came in the click's own callback"
    assert all(call.body["type"] == 7 for call in carried), "as an update of the clicked DM"
    assert not fake.violations, "one callback each, within Discord's 3 s"
