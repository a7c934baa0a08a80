"""Undo with consent, time away, `/game mine` and spectators, through the fake Discord."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from tests.e2e.harness import ephemeral_reply, factory, settings_for


class Clock:
    """A clock the test moves by hand; the bot's deadline tick reads it."""

    def __init__(self) -> None:
        self.now = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


async def _match(fake: Any, start_bot: Any, alice: Any, bob: Any, tmp_path: Any, clock: Clock | None = None,
                 **options: Any) -> Any:
    """A Tiny Big Wars match of alice (host) and bob, both asked for their sealed force."""
    kwargs = {"clock": clock} if clock is not None else {}
    bot = await start_bot(factory(settings_for(fake, tmp_path / "w.db"), **kwargs))
    await alice.slash("game new", game="tinybigwars", round_limit=2, **options)
    await alice.wait_for(lambda m: m.button("Join") is not None)
    await bob.click("Join")
    await alice.wait_for(lambda m: "bob joined" in m.content)
    await alice.click("Start")
    await alice.dm.wait_for(lambda m: m.selects)
    await bob.dm.wait_for(lambda m: m.selects)
    return bot


async def _seal(player: Any) -> Any:
    """Pick the first force in the newest force DM; returns that DM."""
    force = [m for m in player.dm.messages if m.selects][-1]
    r = await player.dm.select(None, [force.selects[0].options[0]["value"]], message=force)
    assert r.ok
    # Sealed; or, for the last to seal, its next decision on the same DM saying what was sealed.
    # (or, when the other seal comes at once, already its final form after the reveal)
    await player.dm.wait_for(lambda m: m.id == force.id and ("stays sealed" in m.content
                                                             or m.content.startswith("You sealed a force")
                                                             or "Everyone has chosen" in m.content))
    return force


async def test_the_hosts_own_sealed_choice_undoes_at_once_and_old_buttons_go_stale(fake, start_bot, alice, bob,
                                                                                  tmp_path) -> None:
    bot = await _match(fake, start_bot, alice, bob, tmp_path)
    old = await _seal(alice)
    change_id = old.button("Change").custom_id
    await alice.wait_for("1 of 2 have chosen")
    undone = await alice.slash("game undo")
    assert undone.ephemeral and "Undone: alice's" in undone.content and "same dice" in undone.content
    post = await alice.wait_for(lambda m: "alice undid alice's" in m.content and not m.ephemeral_to
                                and "(match #" not in m.content)  # the phase post, not the status board
    assert post.attachments, "the map after the undo"
    again = await alice.dm.wait_for(lambda m: m.selects and m.id != old.id)
    assert "Tiny Big Wars" in again.content
    # The old DM loses its Change button to the new DM; that button (the same prompt version as
    # the new DM's, but sent before the undo), clicked anyway, is refused as stale and changes nothing.
    await alice.dm.wait_for(lambda m: m.id == old.id and not m.buttons)
    step = (await bot.svc.find_match(fake.channel.id)).step
    forged = fake.new_interaction(3, alice.user, old.channel, {"custom_id": change_id, "component_type": 2},
                                  message=old)
    r = await alice.dm._run(forged, True)
    assert "undone after this message was sent" in await ephemeral_reply(r)
    assert (await bot.svc.find_match(fake.channel.id)).step == step == 0
    log = await alice.slash("game log")
    assert "alice undid alice's" in log.content
    board = await alice.wait_for(lambda m: "(match #" in m.content and "Latest: alice undid" in m.content)
    assert "alice (host): owes a choice" in board.content
    await _seal(alice)  # the new DM works
    info = await bot.svc.find_match(fake.channel.id)
    trail = await bot.svc.undo_trail(info.id)
    assert [(t.status, t.to_step) for t in trail] == [("done", 0)]


async def test_undo_after_a_reveal_asks_bob_and_his_refusal_changes_nothing(fake, start_bot, alice, bob, carol,
                                                                            tmp_path) -> None:
    bot = await _match(fake, start_bot, alice, bob, tmp_path)
    await _seal(alice)
    await _seal(bob)
    await alice.wait_for("Forces revealed", timeout=60)
    info = await bot.svc.find_match(fake.channel.id)
    step = info.step
    refused = await bob.slash("game undo")
    assert refused.ephemeral and "Only the host (now alice)" in refused.content
    past = await alice.slash("game undo", back=5)
    assert "cannot go back past the start" in past.content
    asked = await alice.slash("game undo")
    assert "Asked bob to agree" in asked.content and "other players' choices would be undone" in asked.content
    await alice.wait_for(lambda m: "asks to undo bob's" in m.content and not m.ephemeral_to)
    consent = await bob.dm.wait_for(lambda m: m.button("Agree") is not None)
    assert "Undo in" in consent.content and [b.label for b in consent.buttons] == ["Agree", "Refuse"]
    assert not any(m.button("Agree") for m in [*alice.dm.messages, *carol.dm.messages]), "only bob is asked"
    # A forged answer from carol (not asked) is refused.
    rec = fake.new_interaction(3, carol.user, consent.channel,
                               {"custom_id": consent.buttons[0].custom_id, "component_type": 2}, message=consent)
    assert "no seat in this match" in await ephemeral_reply(await carol.dm._run(rec, True))
    r = await bob.dm.click("Refuse", message=consent)
    assert r.ok
    await bob.dm.wait_for(lambda m: m.id == consent.id and "You refused" in m.content and not m.buttons)
    await alice.wait_for(lambda m: "is cancelled: bob refused. Nothing was changed." in m.content)
    assert (await bot.svc.find_match(fake.channel.id)).step == step

    await alice.slash("game undo")
    consent = await bob.dm.wait_for(lambda m: m.button("Agree") is not None and m.id != consent.id)
    await bob.dm.click("Agree", message=consent)
    await bob.dm.wait_for(lambda m: m.id == consent.id and "the undo is done" in m.content)
    await alice.wait_for(lambda m: "alice undid bob's" in m.content and "(agreed by bob)" in m.content)
    assert (await bot.svc.find_match(fake.channel.id)).step < step
    await bob.dm.wait_for(lambda m: m.selects and m.id > consent.id)  # bob's force is asked again
    statuses = [t.status for t in await bot.svc.undo_trail(info.id)]
    assert statuses == ["refused", "done"]


async def test_an_unanswered_undo_expires_and_changes_nothing(fake, start_bot, alice, bob, tmp_path) -> None:
    clock = Clock()
    bot = await _match(fake, start_bot, alice, bob, tmp_path, clock=clock, deadline_hours=48)
    await _seal(alice)
    await _seal(bob)
    await alice.wait_for("Forces revealed", timeout=60)
    step = (await bot.svc.find_match(fake.channel.id)).step
    await alice.slash("game undo")
    consent = await bob.dm.wait_for(lambda m: m.button("Agree") is not None)
    agree_id = consent.button("Agree").custom_id
    clock.now += timedelta(hours=25)  # the consent time is the decision time, at most 24 h
    await alice.wait_for(lambda m: "is cancelled: not everyone agreed in time" in m.content, timeout=60)
    closed = await bob.dm.wait_for(lambda m: m.id == consent.id and not m.buttons, timeout=60)
    assert "The request is closed (it expired)" in closed.content, closed.content
    # A click that was already on its way when the buttons went is refused with the reason.
    late = fake.new_interaction(3, bob.user, consent.channel,
                                {"custom_id": agree_id, "component_type": 2}, message=consent)
    assert "closed (it expired)" in await ephemeral_reply(await bob.dm._run(late, True))
    assert (await bot.svc.find_match(fake.channel.id)).step == step


async def test_away_hands_bob_to_the_ai_until_he_acts(fake, start_bot, alice, bob, carol, tmp_path) -> None:
    bot = await _match(fake, start_bot, alice, bob, tmp_path)
    outsider = await carol.slash("game away", hours=2)
    assert outsider.ephemeral and "You have no seat in this match." in outsider.content
    away = await bob.slash("game away", hours=2)
    assert "You are away until <t:" in away.content and "the AI plays your seat" in away.content
    await alice.wait_for(lambda m: "bob is away until" in m.content and "the AI plays for them" in m.content)
    await alice.wait_for(lambda m: "(match #" in m.content and "bob: away until <t:" in m.content)
    await _seal(alice)
    await alice.wait_for("Forces revealed", timeout=60)  # the AI sealed bob's force
    act = await bob.slash("game act")  # asking is coming back
    assert act.ephemeral
    info = await bot.svc.find_match(fake.channel.id)
    seat = next(s for s in info.seats if s.user_id == bob.id)
    assert seat.away_until is None and not seat.is_ai
    await alice.wait_for(lambda m: "(match #" in m.content and "bob: away" not in m.content
                         and "bob:" in m.content)


async def test_mine_lists_my_matches_with_their_deadlines(fake, start_bot, alice, bob, carol, tmp_path) -> None:
    await _match(fake, start_bot, alice, bob, tmp_path, away="pause")
    mine = await bob.slash("game mine")
    assert mine.ephemeral and "Your open matches:" in mine.content
    assert f"<#{fake.channel.id}>" in mine.content and "**your turn**" in mine.content and "<t:" in mine.content
    await _seal(bob)
    mine = await bob.slash("game mine", everywhere=True)
    assert "waiting for alice" in mine.content and "**your turn**" not in mine.content
    nothing = await carol.slash("game mine")
    assert "You hold no seat in an open match on this server." in nothing.content
    away = await bob.slash("game away", hours=3)
    assert "your deadlines wait for you" in away.content
    assert "you are away until <t:" in (await bob.slash("game mine")).content


async def test_spectators_see_the_map_and_status_but_never_a_prompt(fake, start_bot, alice, bob, carol,
                                                                   tmp_path) -> None:
    await _match(fake, start_bot, alice, bob, tmp_path)
    shown = await carol.slash("game map")
    assert shown.ephemeral and shown.message.image().size[0] > 0
    status = await carol.slash("game status")
    assert status.ephemeral and "alice (host): owes a choice" in status.content
    board = await carol.wait_for(lambda m: "(match #" in m.content and m.button("Map") is not None)
    assert (await carol.click("Map", message=board)).message.image().size[0] > 0
    act = await carol.click("Act", message=board)
    assert "You have no seat in this match." in await ephemeral_reply(act)
    assert not [m for m in carol.dm.messages if m.selects or m.buttons], "no prompt ever reaches a spectator"


async def test_an_unanswered_consent_dm_loses_its_buttons_once_the_request_cannot_be_answered(
        fake, start_bot, alice, bob, tmp_path) -> None:
    await _match(fake, start_bot, alice, bob, tmp_path)
    await _seal(alice)
    await _seal(bob)
    await alice.wait_for("Forces revealed", timeout=60)
    await alice.slash("game undo")
    consent = await bob.dm.wait_for(lambda m: m.button("Agree") is not None)
    await alice.slash("game abort")
    closed = await bob.dm.wait_for(lambda m: m.id == consent.id and not m.buttons, timeout=60)
    assert "The request is closed (the match was aborted)" in closed.content, closed.content
    # The abort closes his turn DM too, in its own edit: it may land a moment after this one.
    await fake.wait_until(lambda: not any(m.buttons or m.selects for m in bob.dm.messages), timeout=60)
