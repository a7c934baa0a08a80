"""Discord refusing a notice for good never freezes its match: each of Discord's refusals is
injected on each kind of message the bot sends (the status board's edit, the phase post's edit
and post, a prompt DM's post and edit), three times in a row, and the match still finishes.
An edit refused is made again as a new message where that makes sense (a new board, a new phase
post), anything else is left out with its reason stored and the host told once; an archived
thread is reopened, a locked one parks the match's posts and the players hear of it by DM."""

from __future__ import annotations

from typing import Any

import pytest
from sqlmodel import select

from bot.discord.permissions import INVITE_PERMISSIONS
from db.models import Notice
from tests.e2e.harness import AutoPlayer, factory, play_until, set_deadline_hours, settings_for
from tests.e2e.test_threads import OVER, open_match

REFUSALS = (50035, 50083, 160005, 30046, 50013)
"""Invalid form body, thread archived, thread locked, edits of an hour-old message capped, and a 403."""


def _ids(body: Any) -> str:
    """Every custom_id of a request body, as one string (a board's start wh:b:, a prompt's wh:p:)."""
    found: list[str] = []

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            if isinstance(node.get("custom_id"), str):
                found.append(node["custom_id"])
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk((body or {}).get("components") or [])
    return " ".join(found)


def inject_everywhere(fake: Any, thread_id: int, code: int) -> dict[str, Any]:
    """The refusal ``code``, three times, on each kind of message; the faults by kind."""
    in_thread_post = f"/channels/{thread_id}/messages"
    in_thread_edit = f"/channels/{thread_id}/messages/{{mid}}"
    return {
        "board edit": fake.fail("PATCH", in_thread_edit, code, times=3, when=lambda b: "wh:b:" in _ids(b)),
        "phase post edit": fake.fail("PATCH", in_thread_edit, code, times=3, when=lambda b: not _ids(b)),
        "phase post": fake.fail("POST", in_thread_post, code, times=3, when=lambda b: not _ids(b)),
        "dm post": fake.fail("POST", "/channels/{id}/messages", code, times=3, when=lambda b: "wh:p:" in _ids(b)),
        "dm edit": fake.fail("PATCH", "/channels/{id}/messages/{mid}", code, times=3,
                             when=lambda b: "wh:p:" in _ids(b)),
    }


@pytest.mark.fakediscord(bot_permissions=INVITE_PERMISSIONS)
@pytest.mark.parametrize("code", REFUSALS)
async def test_every_refusal_on_every_kind_of_message_and_the_match_still_finishes(
    fake, start_bot, alice, bob, tmp_path, code
) -> None:
    db = tmp_path / "w.db"
    bot = await start_bot(factory(settings_for(fake, db, delivery_probe_seconds=0.5, delivery_probe_max_seconds=1.0)))
    thread, lobby = await open_match(alice, "Tiny Big Wars #1")
    assert (await bob.click("Join", message=lobby)).ok
    await bob.wait_for(lambda m: m.id == lobby.id and "bob joined" in m.content)
    await set_deadline_hours(db, 0.004)  # a prompt left out is answered by the AI at its deadline
    faults = inject_everywhere(fake, thread.channel.id, code)
    assert (await alice.click("Start", message=lobby)).ok

    await play_until(fake, [AutoPlayer(alice), AutoPlayer(bob)],
                     lambda: any(OVER in m.content for m in thread.messages), timeout=300)

    hit = {kind for kind, fault in faults.items() if fault.hits}
    assert {"dm post", "phase post"} <= hit, hit  # every match meets these; edits as the match goes
    async with bot.svc.store.read() as session:
        rows = (await session.exec(select(Notice).where(Notice.delivery_ref == "refused"))).all()
    told = [m for m in alice.dm.messages if "could not be delivered" in m.content]
    if code in (50035, 30046, 50083):  # not a thread's or a permission's refusal: left out, reason kept
        assert rows and all(f"error {code}" in (r.parked_reason or "") for r in rows)
        assert len(told) == 1, "the host is told once per match"
        assert f"error {code}" in told[0].content and "#1" in told[0].content
    if code == 160005:  # a locked thread parks the match's posts; the players hear why by DM
        assert any("thread is locked" in m.content for m in bob.dm.messages)
    if code == 50013:
        assert any("can't post in" in m.content for m in alice.dm.messages)
    fake.allow("missing_permissions")  # a probe may meet the refusal
