"""Pins and Components V2 messages: what Discord refuses, and what a player sees of them."""

from __future__ import annotations

import json
from urllib.parse import quote

import aiohttp
import pytest

from tests.fakediscord import FakeDiscord, Player
from tests.fakediscord.demo_bot import DemoBot
from tests.fakediscord.limits import FLAG_COMPONENTS_V2, assign_component_ids, check_message
from tests.fakediscord.models import Message
from tests.fakediscord.permissions import bits

BOT = {"Authorization": "Bot fake-token"}
V2 = FLAG_COMPONENTS_V2


async def _send(session: aiohttp.ClientSession, method: str, url: str, body: dict | None = None) -> tuple[int, dict]:
    async with session.request(method, url, json=body) as resp:
        return resp.status, (await resp.json() if resp.status != 204 else {})


def _text(content: str) -> dict:
    return {"type": 10, "content": content}


async def test_pinning_takes_pin_messages_not_manage_messages(fake: FakeDiscord, bot: DemoBot,
                                                              alice: Player) -> None:
    fake.guild.everyone.permissions |= bits("manage_messages")
    with fake.expect_violation("missing_permissions") as found:
        resp = await alice.slash("statusboard")
    assert resp.content == "posted, not pinned (50013)" and "Pin Messages" in found[0].detail
    board = alice.last
    assert board is not None and board.is_v2 and not board.pinned and fake.channel.pins == []


@pytest.mark.fakediscord(bot_permissions=bits("pin_messages"))
async def test_pin_routes_old_and_new(fake: FakeDiscord) -> None:
    api, cid = fake.api_base, fake.channel.id
    async with aiohttp.ClientSession(headers=BOT) as session:
        _, first = await _send(session, "POST", f"{api}/channels/{cid}/messages", {"content": "first"})
        _, second = await _send(session, "POST", f"{api}/channels/{cid}/messages", {"content": "second"})
        assert (await _send(session, "PUT", f"{api}/channels/{cid}/messages/pins/{first['id']}"))[0] == 204
        assert (await _send(session, "PUT", f"{api}/channels/{cid}/pins/{second['id']}"))[0] == 204
        status, page = await _send(session, "GET", f"{api}/channels/{cid}/messages/pins?limit=1")
        assert status == 200 and page["has_more"] and page["items"][0]["message"]["id"] == second["id"]
        assert page["items"][0]["message"]["pinned"] is True
        before = page["items"][0]["pinned_at"]
        _, older = await _send(session, "GET", f"{api}/channels/{cid}/messages/pins?before={quote(before)}")
        assert [i["message"]["id"] for i in older["items"]] == [first["id"]] and not older["has_more"]
        _, listed = await _send(session, "GET", f"{api}/channels/{cid}/pins")
        assert [m["id"] for m in listed] == [second["id"], first["id"]]
        notice = fake.channel.messages[-1]
        status, err = await _send(session, "PUT", f"{api}/channels/{cid}/messages/pins/{notice.id}")
        assert (status, err["code"]) == (400, 50021), "a pin notice cannot be pinned"
        status, err = await _send(session, "PATCH", f"{api}/channels/{cid}/messages/{notice.id}", {"content": "x"})
        assert (status, err["code"]) == (400, 50021), "nor edited"
        assert len(fake.pop_violations("system_message")) == 2
        assert (await _send(session, "DELETE", f"{api}/channels/{cid}/messages/pins/{first['id']}"))[0] == 204
        _, _msg = await _send(session, "GET", f"{api}/channels/{cid}/messages/{first['id']}")
        assert _msg["pinned"] is False
        fake.channel.deny(fake.bot_user, "read_message_history")
        _, hidden = await _send(session, "GET", f"{api}/channels/{cid}/messages/pins")
        assert hidden == {"items": [], "has_more": False}, "without Read Message History no pins are listed"
    assert [m.type for m in fake.channel.messages] == [0, 0, 6, 6]
    assert [m.refers_to.content for m in fake.channel.messages[2:] if m.refers_to] == ["first", "second"]


@pytest.mark.fakediscord(bot_permissions=bits("pin_messages"))
async def test_a_channel_holds_250_pins(fake: FakeDiscord) -> None:
    for _ in range(250):
        fake.create_message(fake.channel, {"content": "p"}, []).pinned_at = "2026-01-01T00:00:00+00:00"
    extra = fake.create_message(fake.channel, {"content": "one too many"}, [])
    async with aiohttp.ClientSession(headers=BOT) as session:
        status, err = await _send(session, "PUT", f"{fake.api_base}/channels/{fake.channel.id}/messages/pins/{extra.id}")
    assert (status, err["code"]) == (400, 30003) and fake.pop_violations("max_pins")
    assert not extra.pinned


@pytest.mark.parametrize(("kind", "needle"), [
    ("v2_content", "cannot have content"),
    ("v2_total", "41 components in total"),
    ("v2_section", "1-3 text displays, not 4"),
    ("v2_text", "5000 characters of text displays"),
    ("v2_attachment", "attachment://missing.png names no attachment"),
    ("v2_nesting", "component type 17 is not allowed here"),
])
async def test_v2_layout_rules(fake: FakeDiscord, bot: DemoBot, alice: Player, kind: str, needle: str) -> None:
    fake.spec = None  # the prose rules alone: the spec catches some of these first (see below)
    with fake.expect_violation("invalid_message") as found:
        resp = await alice.slash("bad", kind=kind)
    assert needle in found[0].detail, found[0].detail
    assert resp.error is not None and resp.error["code"] == 50035 and bot.errors == [50035]
    assert not alice.messages


async def test_the_spec_refuses_a_v2_section_without_an_accessory(fake: FakeDiscord) -> None:
    if fake.spec is None:
        pytest.skip("no spec")
    body = {"flags": V2, "components": [{"type": 9, "components": [_text("lonely")]}]}
    async with aiohttp.ClientSession(headers=BOT) as session:
        status, err = await _send(session, "POST", f"{fake.api_base}/channels/{fake.channel.id}/messages", body)
    assert (status, err["code"]) == (400, 50035) and fake.pop_violations("spec")


def test_v2_rules_the_spec_cannot_express() -> None:
    def problems(components: list[dict], files: tuple[str, ...] = ()) -> list[str]:
        return check_message({"flags": V2, "components": components}, [], 0, attachments=list(files))

    button = {"type": 2, "style": 1, "label": "Go", "custom_id": "go"}
    assert problems([_text("a"), {"type": 14}, {"type": 1, "components": [button]}]) == []
    assert "exactly one accessory" in problems([{"type": 9, "components": [_text("a")]}])[0]
    thumb_alone = problems([{"type": 11, "media": {"url": "https://x.invalid/a.png"}}])
    assert "type 11 is not allowed here" in thumb_alone[0]
    gallery = {"type": 12, "items": [{"media": {"url": "attachment://m.png"}}] * 11}
    assert "1-10 items, not 11" in problems([gallery], ("m.png",))[0]
    assert "only an attachment://" in problems([{"type": 13, "file": {"url": "https://x.invalid/f.txt"}}])[0]
    assert "duplicate component id 3" in problems([{**_text("a"), "id": 3}, {**_text("b"), "id": 3}])[0]
    assert "duplicate custom_id" in problems([{"type": 1, "components": [button, button]}])[0]
    assert "empty action row" in problems([{"type": 17, "components": [{"type": 1, "components": []}]}])[0]
    numbered = assign_component_ids([{"type": 17, "components": [{**_text("a"), "id": 2}, _text("b")]}])
    assert [numbered[0]["id"], *(c["id"] for c in numbered[0]["components"])] == [1, 2, 3]


def _legacy(fake: FakeDiscord) -> Message:
    return fake.create_message(fake.channel, {"content": "legacy", "components": []}, [])


async def test_v2_edits_keep_the_flag_and_upgrades_drop_the_content(fake: FakeDiscord) -> None:
    api, cid = fake.api_base, fake.channel.id
    layout = {"flags": V2, "components": [{"type": 17, "components": [_text("board")]}]}
    async with aiohttp.ClientSession(headers=BOT) as session:
        _, board = await _send(session, "POST", f"{api}/channels/{cid}/messages", layout)
        url = f"{api}/channels/{cid}/messages/{board['id']}"
        status, _ = await _send(session, "PATCH", url, {"flags": 0, "components": []})
        assert status == 400, "the V2 flag stays"
        status, _ = await _send(session, "PATCH", url, {"content": "text"})
        assert status == 400, "a V2 message takes no content"
        status, edited = await _send(session, "PATCH", url, {"components": [_text("board, round 2")]})
        assert status == 200 and edited["flags"] & V2 and edited["components"][0]["id"] == 1
        legacy = _legacy(fake)
        upgrade = f"{api}/channels/{cid}/messages/{legacy.id}"
        status, _ = await _send(session, "PATCH", upgrade, layout)
        assert status == 400, "upgrading keeps the old content unless the edit nulls it"
        status, upgraded = await _send(session, "PATCH", upgrade, {**layout, "content": None})
        assert status == 200 and upgraded["flags"] & V2 and upgraded["content"] == ""
    found = fake.pop_violations("invalid_message")
    assert len(found) == 3 and "cannot be removed" in found[0].detail


async def test_a_v2_message_shows_only_the_attachments_it_names(fake: FakeDiscord) -> None:
    layout = {"flags": V2, "attachments": [{"id": 0, "filename": "map.png"}, {"id": 1, "filename": "log.txt"}],
              "components": [{"type": 12, "items": [{"media": {"url": "attachment://map.png"}}]}]}
    form = aiohttp.FormData()
    form.add_field("payload_json", json.dumps(layout), content_type="application/json")
    form.add_field("files[0]", b"\x89PNG", filename="map.png")
    form.add_field("files[1]", b"log", filename="log.txt")
    url = f"{fake.api_base}/channels/{fake.channel.id}/messages"
    async with aiohttp.ClientSession(headers=BOT) as session, session.post(url, data=form) as resp:
        assert resp.status == 200
    msg = fake.channel.messages[-1]
    assert len(msg.attachments) == 2 and list(msg.files) == ["map.png"]
