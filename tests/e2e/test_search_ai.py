"""A search AI seated from `/game addai` plays its turns like any AI seat."""

from __future__ import annotations

from tests.e2e.harness import factory, settings_for


async def test_a_search_ai_takes_a_seat_and_plays(fake, start_bot, alice, tmp_path) -> None:
    await start_bot(factory(settings_for(fake, tmp_path / "w.db")))
    await alice.slash("game new", game="tinybigwars", seats=2)
    assert (await alice.slash("game addai", policy="search")).content == (
        "AI Ayame took a seat; it plays each move out in its head first, so its turns take a moment longer.")
    assert "has started" in (await alice.slash("game start")).content
    dm = await alice.dm.wait_for(lambda m: m.selects)
    assert "Deadline <t:" in dm.content
    status = await alice.slash("game status")
    assert "AI Ayame: AI" in status.content
