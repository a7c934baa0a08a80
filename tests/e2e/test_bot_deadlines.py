"""Deadlines fire in the Discord bot: the bot's tick loop and the service's tick share one lease holder."""

from __future__ import annotations

from tests.e2e.harness import factory, set_deadline_hours, settings_for


async def test_expired_deadline_is_played_by_the_ai_and_posted_once(fake, start_bot, alice, tmp_path) -> None:
    db = tmp_path / "w.db"
    await start_bot(factory(settings_for(fake, db)))
    await alice.slash("game new", game="tinybigwars", round_limit=1)
    await alice.wait_for(lambda m: m.button("Join") is not None)
    # The slash command allows 3 minutes at least; the test shortens the stored deadline to 1.8 s.
    await set_deadline_hours(db, 0.0005)
    await alice.click("Add AI")
    await alice.click("Start")
    # Her first decision, or (on a slow machine, 1.8 s are soon gone) what the AI chose for her.
    await alice.dm.wait_for(lambda m: m.selects or "Time was up" in m.content, timeout=60)

    # Two missed deadlines in a row hand the seat to the AI, which then plays the match to its end.
    first = await alice.wait_for("Time is up for alice", timeout=60)
    assert "the AI chose for them" in first.content
    second = await alice.wait_for(lambda m: "missed deadlines in a row" in m.content, timeout=60, after=first)
    await alice.wait_for("The match is over", timeout=60)
    await fake.quiesce(quiet=0.3, timeout=3)
    posts = [m.content for m in fake.channel_messages(fake.channel) if "Time is up" in m.content]
    assert posts == [first.content, second.content]
    # Her DMs say what the AI chose for her; none still asks, and no reminder still says the match
    # waits (the DMs are brought up to date after the last posts: wait for that, however slow).
    def stale() -> list[str]:
        return [m.content for m in alice.dm.messages if not m.deleted and "still waits for your choice" in m.content]

    await fake.wait_until(lambda: not stale(), timeout=60)
    dms = [m for m in alice.dm.messages if not m.deleted]
    assert any("Time was up: the AI chose **" in m.content and "for you." in m.content for m in dms), \
        [m.content for m in dms]
    assert [m.content for m in dms if m.selects or any((b.custom_id or "").startswith("wh:p:") for b in m.buttons)] == []
    assert stale() == []
