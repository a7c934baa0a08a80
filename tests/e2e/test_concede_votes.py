"""Conceding and votes to end a match (draw, abandon), through the fake Discord."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from tests.e2e.harness import ephemeral_reply, factory, settings_for
from tests.e2e.test_undo_away import Clock


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


async def _follow_up(r: Any) -> str:
    """The private follow-up answering a click acknowledged as a deferred update (a refusal)."""
    if not r.followups:
        await r.wait_followup()
    assert r.followups[-1].ephemeral_to is not None
    return str(r.followups[-1].content)


def _lobby_post(message: Any) -> bool:
    """The lobby post of a started match (the status board has no "Players:" line)."""
    return not message.ephemeral_to and "\nPlayers: " in message.content


async def test_conceding_asks_to_confirm_and_hands_the_seat_to_the_ai(fake, start_bot, alice, bob, carol,
                                                                      tmp_path) -> None:
    bot = await _match(fake, start_bot, alice, bob, tmp_path)
    stranger = await carol.slash("game concede")
    assert stranger.ephemeral and "no seat in this match" in stranger.content
    asked = await bob.slash("game concede")
    assert asked.ephemeral and "cannot take it back" in asked.content
    info = await bot.svc.find_match(fake.channel.id)
    assert info.seat_user(1) == bob.user.id, "nothing changes before the confirmation"
    confirm = next(m for m in bob.messages if m.button("Concede") is not None)
    concede_id = confirm.button("Concede").custom_id
    # Alice clicking a copy of bob's button (a forged click) changes nothing.
    forged = fake.new_interaction(3, alice.user, confirm.channel,
                                  {"custom_id": concede_id, "component_type": 2}, message=confirm)
    assert "made for another seat" in await _follow_up(await alice._run(forged, True))
    r = await bob.click("Concede", message=confirm)
    assert r.ok
    done = await bob.wait_for(lambda m: m.id == confirm.id and "You conceded" in m.content and not m.buttons)
    assert "bob (AI) plays your seat" in done.content
    await alice.wait_for(lambda m: "bob conceded: the AI plays their seat" in m.content and not m.ephemeral_to)
    info = await bot.svc.find_match(fake.channel.id)
    assert info.status == "active" and info.seat_user(1) is None
    again = fake.new_interaction(3, bob.user, confirm.channel, {"custom_id": concede_id, "component_type": 2},
                                 message=confirm)
    assert "already conceded" in await _follow_up(await bob._run(again, True))
    late = await bob.slash("game propose draw")
    assert "Only the players of this match" in late.content


async def test_a_no_ends_the_vote_then_an_agreed_abandon_ends_the_match(fake, start_bot, alice, bob, carol,
                                                                        tmp_path) -> None:
    bot = await _match(fake, start_bot, alice, bob, tmp_path)
    asked = await alice.slash("game propose draw")
    assert asked.ephemeral and "Asked bob to end the match as a draw" in asked.content
    await alice.wait_for(lambda m: "alice proposes to end the match as a draw" in m.content and not m.ephemeral_to)
    vote = await bob.dm.wait_for(lambda m: m.button("Yes") is not None)
    assert [b.label for b in vote.buttons] == ["Yes", "No"] and "Vote in" in vote.content
    yes_id = vote.button("Yes").custom_id
    assert not any(m.button("Yes") for m in alice.dm.messages), "the proposer is not asked"
    second = await bob.slash("game propose abandon")
    assert "already open" in second.content
    outsider = await carol.slash("game propose abandon")
    assert "Only the players of this match" in outsider.content
    forged = fake.new_interaction(3, carol.user, vote.channel,
                                  {"custom_id": vote.button("Yes").custom_id, "component_type": 2}, message=vote)
    assert "no seat in this match" in await ephemeral_reply(await carol.dm._run(forged, True))
    await bob.dm.click("No", message=vote)
    await bob.dm.wait_for(lambda m: m.id == vote.id and "You said no" in m.content and not m.buttons)
    await alice.wait_for(lambda m: "is over: bob said no. The match goes on." in m.content)
    await alice.wait_for(lambda m: _lobby_post(m) and "Vote: The vote alice opened" in m.content
                         and "someone said no" in m.content, timeout=30)
    stale = fake.new_interaction(3, bob.user, vote.channel, {"custom_id": yes_id, "component_type": 2}, message=vote)
    assert "closed (someone said no)" in await ephemeral_reply(await bob.dm._run(stale, True))

    match_id = (await bot.svc.find_match(fake.channel.id)).id
    await bob.slash("game propose abandon")
    vote = await alice.dm.wait_for(lambda m: m.button("Yes") is not None)
    await alice.dm.click("Yes", message=vote)
    await alice.dm.wait_for(lambda m: m.id == vote.id and "so did everyone: the match is over" in m.content)
    await alice.wait_for(lambda m: "bob and alice agreed to abandon the match" in m.content and not m.ephemeral_to)
    await alice.wait_for(lambda m: _lobby_post(m) and "agreed to abandon it" in m.content, timeout=30)
    assert (await bot.svc.get_match(match_id)).status == "aborted"
    history = await alice.slash("game history")
    assert "abandoned by its players" in history.content


async def test_an_unanswered_vote_expires_and_an_agreed_draw_finishes_the_match(fake, start_bot, alice, bob,
                                                                                tmp_path) -> None:
    clock = Clock()
    bot = await _match(fake, start_bot, alice, bob, tmp_path, clock=clock, deadline_hours=48)
    await alice.slash("game propose draw")
    vote = await bob.dm.wait_for(lambda m: m.button("Yes") is not None)
    clock.now += timedelta(hours=25)  # a vote has the decision time, at most 24 h
    await alice.wait_for(lambda m: "is over: not everyone answered in time" in m.content, timeout=60)
    closed = await bob.dm.wait_for(lambda m: m.id == vote.id and not m.buttons, timeout=60)
    assert "The vote is closed (its time ran out)" in closed.content
    match_id = (await bot.svc.find_match(fake.channel.id)).id
    await bob.slash("game propose draw")
    vote = await alice.dm.wait_for(lambda m: m.button("Yes") is not None)
    await alice.dm.click("Yes", message=vote)
    result = await alice.wait_for(lambda m: "The match is over: a draw" in m.content and not m.ephemeral_to)
    assert "bob and alice agreed to it" in result.content
    await alice.wait_for(lambda m: _lobby_post(m) and "a draw" in m.content, timeout=30)
    assert (await bot.svc.get_match(match_id)).status == "finished"
