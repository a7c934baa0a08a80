"""A DM click's reply rides in its acknowledgement: one request when the database is quick; when
it is slow, the acknowledgement still comes within Discord's 3 s (a defer) and the reply
follows as an edit. Either way exactly one callback, and the choice is taken once."""

from __future__ import annotations

import asyncio
import re
from typing import Any

from tests.e2e.harness import AutoPlayer, factory, play_until, settings_for

PROMPT_VERSION = re.compile(r"wh:p:\d+:\d+:(\d+):")


async def _started(fake: Any, start_bot: Any, alice: Any, bob: Any, tmp_path: Any, reply_wait: float) -> Any:
    bot = await start_bot(factory(settings_for(fake, tmp_path / "w.db", reply_wait_seconds=reply_wait)))
    await alice.slash("game new", game="tinybigwars")
    await alice.wait_for(lambda m: m.button("Join") is not None)
    await bob.click("Join")
    await alice.wait_for(lambda m: "bob joined" in m.content)
    await alice.click("Start")
    return bot


def _requests(fake: Any, rec: Any) -> list[str]:
    """The bot's requests made with this interaction's token: its callback and webhook edits."""
    return [f"{call.method} {'callback' if call.path.endswith('/callback') else 'webhook'}"
            for call in fake.calls if rec.token in call.path]


async def test_a_click_answered_in_time_is_one_request(fake, start_bot, alice, bob, tmp_path) -> None:
    # the longest window the setting allows: the click's transaction is far quicker on any machine
    await _started(fake, start_bot, alice, bob, tmp_path, reply_wait=2.5)
    force = await alice.dm.wait_for(lambda m: m.selects)
    done = await alice.dm.select(None, [force.selects[0].options[0]["value"]], message=force)
    assert done.ok and done.type == 7, "an UPDATE_MESSAGE callback"
    assert done.message is not None and done.message.id == force.id
    assert done.message.button("Change") is not None and "sealed" in done.message.content, done.message.content
    assert _requests(fake, done.interaction) == ["POST callback"], "the reply rode in the callback"
    # a refusal is one request too: a private message in the callback
    forged = fake.new_interaction(3, alice.user, force.channel, {"custom_id": "wh:p:1:0:999:o:x", "component_type": 2},
                                  message=force)
    refused = await alice.dm._run(forged, True)
    assert refused.type == 4 and refused.message is not None and refused.message.ephemeral
    assert _requests(fake, forged) == ["POST callback"]
    assert not fake.violations


async def test_a_slow_database_still_acknowledges_in_time_and_the_reply_follows(fake, start_bot, alice, bob,
                                                                              tmp_path) -> None:
    bot = await _started(fake, start_bot, alice, bob, tmp_path, reply_wait=0.3)
    force = await alice.dm.wait_for(lambda m: m.selects)
    submit = bot.svc.submit
    submits: list[str] = []

    async def slow_submit(*args: Any, **kwargs: Any) -> Any:
        """The database answers only once Discord has the click's acknowledgement."""
        clicked = fake.interactions[int(kwargs["interaction_id"])]
        assert clicked.callback is not None
        await asyncio.shield(clicked.callback)
        submits.append(kwargs["interaction_id"])
        return await submit(*args, **kwargs)

    bot.svc.submit = slow_submit
    done = await alice.dm.select(None, [force.selects[0].options[0]["value"]], message=force)
    assert done.ok and done.type == 6, "the window closed first: a defer, within Discord's 3 s"
    sealed = await alice.dm.wait_for(lambda m: m.id == force.id and m.button("Change") is not None)
    assert "sealed" in sealed.content
    await fake.quiesce()  # a second edit, if one were coming
    assert _requests(fake, done.interaction) == ["POST callback", "PATCH webhook"], "the reply edited in after"
    assert submits == [str(done.interaction.id)], "taken once"
    assert not fake.violations


async def test_a_click_that_leads_to_the_next_decision_shows_it_in_its_callback(fake, start_bot, alice, bob,
                                                                                tmp_path) -> None:
    """The seat's next decision in the same DM comes in the click's own acknowledgement, and
    delivery, finding the DM showing it, does not write it again."""
    await _started(fake, start_bot, alice, bob, tmp_path, reply_wait=2.5)
    writes: dict[int, list[tuple[str, str, int | None, int | None]]] = {}
    """DM -> its edits: how (in a click's callback or not), what it showed, its version before and after."""
    handle, edit = fake._handle_callback, fake.edit_message
    callback: list[int] = []

    def in_callback(rec: Any, body: dict, files: list) -> Any:
        callback.append(rec.type)
        try:
            return handle(rec, body, files)
        finally:
            callback.pop()

    def edited(message: Any, data: dict, files: list) -> Any:
        before = _version(message)
        out = edit(message, data, files)
        if message.channel.is_dm:
            how = "callback" if callback else "edit"
            writes.setdefault(message.id, []).append((how, f"{out.content}|{out.components}", before, _version(out)))
        return out

    fake._handle_callback = in_callback
    fake.edit_message = edited
    autos = [AutoPlayer(alice), AutoPlayer(bob)]
    await play_until(fake, autos, lambda: any("The match is over" in m.content for m in alice.messages))
    carried = 0
    for history in writes.values():
        for index, (how, shown, before, after) in enumerate(history):
            if how != "callback" or before is None or after is None or after <= before:
                continue
            carried += 1  # the callback turned the clicked decision into the next one
            later = history[index + 1] if index + 1 < len(history) else None
            assert later is None or later[1] != shown, "delivery wrote the same decision again"
    assert carried, "some click led to its seat's next decision in the same DM"
    assert not fake.violations


def _version(message: Any) -> int | None:
    """The prompt version a turn DM's components answer (None: no live prompt)."""
    found = PROMPT_VERSION.search(str(message.components))
    return None if found is None else int(found.group(1))


async def test_a_click_that_leads_to_a_sealed_decision_with_a_map_leaves_it_to_delivery(fake, start_bot, alice, bob,
                                                                                       tmp_path) -> None:
    """A click whose seat's next decision is a sealed one with the seat's private map reads
    nothing for it (``drawn_next``: its answer could not show it); delivery writes it into the
    DMs, as it did when the read decided so. Every other click that led to a next decision
    still reads it."""
    bot = await _started(fake, start_bot, alice, bob, tmp_path, reply_wait=2.5)
    submit, next_decision = bot.svc.submit, bot.svc.next_decision
    drawn: list[int] = []
    moved: list[int] = []
    read: list[int] = []

    async def submitted(*args: Any, **kwargs: Any) -> Any:
        result = await submit(*args, **kwargs)
        if result.locked and result.version not in (None, kwargs.get("version")):
            (drawn if result.drawn_next else moved).append(result.version)
        return result

    async def next_read(match_id: int, seat: int, version: int) -> Any:
        read.append(version)
        return await next_decision(match_id, seat, version)

    bot.svc.submit, bot.svc.next_decision = submitted, next_read
    autos = [AutoPlayer(alice), AutoPlayer(bob)]
    await play_until(fake, autos, lambda: any("The match is over" in m.content for m in alice.messages))
    assert drawn and moved, "both kinds of next decision came"
    assert sorted(read) == sorted(moved), "read: the next decisions not drawn, and only those"
    with_map = {version for player in (alice, bob) for message in player.dm.messages for version in _mapped(message)}
    assert set(drawn) <= with_map, "delivery wrote each of them, with the seat's private map"
    assert not fake.violations


def _mapped(message: Any) -> set[int]:
    """The prompt versions a DM's versions answered while showing an attachment (a private map)."""
    found = set()
    for shown in message.versions:
        version = PROMPT_VERSION.search(str(shown["components"]))
        if version is not None and shown["attachments"]:
            found.add(int(version.group(1)))
    return found
