"""A co-op match through the fake Discord: shared action points (first come, first served)
and an optional prompt nobody waits for."""

from __future__ import annotations

import io
from types import SimpleNamespace
from typing import Any

import pytest
from PIL import Image

import engine
import render
from tests.e2e.harness import ephemeral_reply, factory, settings_for
from tests.service.coopgame import GAME as COOP

BUILD, PASS = "Spend 1 AP: build", "Pass"


def _png(*_args: Any) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (8, 8)).save(out, "PNG")
    return out.getvalue()


@pytest.fixture(autouse=True)
def coop_game(monkeypatch: pytest.MonkeyPatch) -> None:
    """The toy is registered for this test's bot only, with a stand-in map renderer."""
    engine.register(COOP)
    monkeypatch.setitem(render.RENDERERS, "coop", SimpleNamespace(draw=_png, draw_private=_png))


def live(label: str):
    return lambda m: any(b.label == label for b in m.buttons)


async def test_shared_points_and_an_optional_prompt(fake, start_bot, alice, bob, tmp_path) -> None:
    bot = await start_bot(factory(settings_for(fake, tmp_path / "w.db")))
    # /game new lists the real games only; the toy match is opened through the service.
    info = await bot.svc.create(fake.guilds[0].id, fake.channel.id, alice.id, alice.name, "coop",
                                {"rounds": 2, "ap": 3}, seed=3)
    bot.wake_delivery()
    await alice.wait_for(lambda m: m.button("Join") is not None)
    await bob.click("Join")
    await alice.wait_for(lambda m: "joined" in m.content and m.button("Start"))
    await alice.click("Start")

    a_dm = await alice.dm.wait_for(live(BUILD))
    b_old = await bob.dm.wait_for(live(BUILD))
    for dm in (a_dm, b_old):
        assert "3 AP left" in dm.content and "first come, first served" in dm.content
    b_old_id = next(b.custom_id for b in b_old.buttons if b.label == BUILD)
    step = (await bot.svc.get_match(info.id)).step

    # Alice spends first from her DM.
    await alice.dm.click(BUILD, message=a_dm)
    # Her next decision comes in the same DM, edited in place, saying what she chose.
    await alice.dm.wait_for(lambda m: m.id == a_dm.id and m.content.startswith(f"You chose: **{BUILD}**")
                            and "2 AP left" in m.content)
    # Bob's button from before is refused with a clear word, and changes nothing.
    rec = fake.new_interaction(3, bob.user, b_old.channel, {"custom_id": b_old_id, "component_type": 2},
                               message=b_old)
    refusal = await ephemeral_reply(await bob.dm._run(rec, True))
    assert "Someone else answered first" in refusal, refusal
    assert (await bot.svc.get_match(info.id)).step == step + 1
    # Bob's DM, edited in place, offers the shrunken pool (he had not answered: no new DM).
    b_new = await bob.dm.wait_for(lambda m: live(BUILD)(m) and "2 AP left" in m.content)
    assert b_new.id == b_old.id
    assert b_old_id not in [b.custom_id for b in b_new.buttons], "the stale button is gone"
    await bob.dm.click(BUILD, message=b_new)
    await bob.dm.wait_for(lambda m: m.id == b_new.id and m.content.startswith(f"You chose: **{BUILD}**"))
    assert (await bot.svc.public_view(info.id))["pool"] == 1
    await fake.wait_until(lambda: any("spends 1 AP" in m.content and "(1 AP left)" in m.content
                                      for m in fake.channel_messages(fake.channel)), 60)

    # Both pass; the attack asks both; Alice defends; her solo turn: Bob may cheer.
    await alice.dm.click(PASS, message=await alice.dm.wait_for(lambda m: live(PASS)(m) and "1 AP left" in m.content))
    await bob.dm.click(PASS, message=await bob.dm.wait_for(lambda m: live(PASS)(m) and "1 AP left" in m.content))
    await alice.dm.click("Defend", message=await alice.dm.wait_for(live("Defend")))
    cheer = await bob.dm.wait_for(live("Not now"))
    assert "Optional" in cheer.content and "goes on without you" in cheer.content and "Deadline" not in cheer.content
    status = await alice.slash("game status")
    assert "may act" in status.content and "owes a choice" in status.content
    # Skipping it does not block anything: Alice's solo turn goes on.
    await bob.dm.click("Not now", message=cheer)
    await bob.dm.wait_for(lambda m: m.id == cheer.id and "You chose: **Not now**" in m.content)
    await alice.dm.click("Fortify", message=await alice.dm.wait_for(live("Fortify")))

    # Round 2: Bob's solo turn; Alice leaves her optional cheer alone and the game still ends.
    await alice.dm.wait_for(lambda m: live(PASS)(m) and "Round 2" in m.content)
    for player in (alice, bob):
        await player.dm.click(PASS, message=await player.dm.wait_for(lambda m: live(PASS)(m) and "Round 2" in m.content))
    await bob.dm.click("Defend", message=await bob.dm.wait_for(lambda m: live("Defend")(m) and "Round 2" in m.content))
    a_cheer = await alice.dm.wait_for(lambda m: live("Not now")(m) and "Round 2" in m.content)
    await bob.dm.click("Scout", message=await bob.dm.wait_for(live("Scout")))
    over = await alice.wait_for(lambda m: "The match is over" in m.content)
    assert "a shared win for alice and bob" in over.content
    assert (await bot.svc.get_match(info.id)).status == "finished"
    # The leftover optional prompt is simply closed now: its DM says so and offers nothing.
    closed = await alice.dm.wait_for(lambda m: m.id == a_cheer.id and not m.buttons and not m.selects)
    assert "The match ended before you chose." in closed.content
