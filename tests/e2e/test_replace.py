"""`/game replace` and the Take seat button, through the fake Discord: the host opens bob's seat,
bob's turn DM passes on, carol takes the seat and gets its panel and decision, and every wrong
click (bob's old select, a seated player, a second taker, a forged id, a match over) is refused."""

from __future__ import annotations

from typing import Any

from tests.e2e.harness import ephemeral_reply
from tests.e2e.test_undo_away import _match


async def _forged(fake: Any, player: Any, custom_id: str, message: Any) -> str:
    rec = fake.new_interaction(3, player.user, message.channel, {"custom_id": custom_id, "component_type": 2},
                               message=message)
    return await ephemeral_reply(await player._run(rec, True))


async def test_a_replaced_seat_is_taken_by_the_first_member_to_click(fake, start_bot, alice, bob, carol, dave,
                                                                      tmp_path) -> None:
    bot = await _match(fake, start_bot, alice, bob, tmp_path)
    info = await bot.svc.find_match(fake.channel.id)
    old = next(m for m in bob.dm.messages if m.selects)
    old_select = old.selects[0]

    opened = await alice.slash("game replace", player=bob)
    assert opened.ephemeral and "bob's seat (seat 2) is open for a replacement" in opened.content
    post = await alice.wait_for(lambda m: m.button("Take seat 2") is not None and "open for a replacement" in m.content
                                and "(match #" not in m.content and "waits for a replacement" not in m.content)
    lobby = await alice.wait_for(lambda m: "waits for a replacement" in m.content and m.button("Take seat 2"))
    # bob's turn DM says the seat passed on and keeps no component
    await bob.dm.wait_for(lambda m: m.id == old.id and not m.selects and not m.buttons
                          and "You no longer play seat 2" in m.content)
    step = (await bot.svc.get_match(info.id)).step

    # bob's old select, clicked anyway, is refused and changes nothing
    rec = fake.new_interaction(3, bob.user, old.channel, {"custom_id": old_select.custom_id, "component_type": 3,
                                                          "values": [old_select.options[0]["value"]]}, message=old)
    refused = await ephemeral_reply(await bob.dm._run(rec, True))
    assert "You no longer play this seat: it is open for a replacement." in refused and "Nothing was done" in refused
    # a seated player cannot take a second seat; a forged id names no open seat
    seated = await ephemeral_reply(await alice.click("Take seat 2", message=post))
    assert "You already play seat 1 in this match; one seat each." in seated
    assert "This seat is not open for a replacement." in await _forged(fake, dave, f"wh:s:{info.id}:0:take", post)
    assert "not part of an open warhost match" in await _forged(fake, dave, f"wh:s:{info.id}:x:take", post)
    assert (await bot.svc.get_match(info.id)).step == step

    taken = await ephemeral_reply(await carol.click("Take seat 2", message=lobby))
    assert "You now play seat 2 of **Tiny Big Wars**" in taken and "in place of bob" in taken
    welcome = await carol.dm.wait_for(lambda m: "You now play seat 2" in m.content)
    assert welcome.attachments, "the seat's private panel"
    await carol.dm.wait_for(lambda m: m.id != welcome.id and "Tiny Big Wars" in m.content
                            and (m.selects or m.button("Change")))
    await alice.wait_for(lambda m: m.id == post.id and not m.buttons and "carol took it" in m.content)
    await alice.wait_for(lambda m: m.id == lobby.id and not m.buttons)
    await alice.wait_for(lambda m: "carol takes over bob's seat (seat 2)" in m.content and not m.ephemeral_to)
    second = await _forged(fake, dave, f"wh:s:{info.id}:1:take", post)
    assert "carol took this seat first; it is not open any more." in second
    after = await bot.svc.get_match(info.id)
    assert after.seat_of(carol.id) == 1 and after.seat_of(dave.id) is None and after.seat_of(bob.id) is None
    again = await ephemeral_reply(await bob.dm._run(
        fake.new_interaction(3, bob.user, old.channel, {"custom_id": old_select.custom_id, "component_type": 3,
                                                        "values": [old_select.options[0]["value"]]}, message=old), True))
    assert "carol plays it now" in again

    # a Take seat click after the match ended is refused
    await alice.slash("game replace", player=carol)
    await alice.slash("game abort")
    await alice.wait_for(lambda m: "aborted" in m.content and not m.ephemeral_to)
    await alice.wait_for(lambda m: "the match ended before anyone took it" in m.content and not m.buttons)
    over = await _forged(fake, dave, f"wh:s:{info.id}:1:take", post)
    assert "not part of an open warhost match" in over or "This match is over" in over
    assert (await bot.svc.get_match(info.id)).seat_of(dave.id) is None
