"""A search AI seated from `/game addai` plays its turns like any AI seat; the host may choose it
for the seats the AI takes over (`/game new takeover:`)."""

from __future__ import annotations

from tests.e2e.harness import factory, settings_for
from tests.e2e.test_errors import forged_slash


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


async def test_the_host_chooses_the_thinking_ai_for_late_or_away_seats(fake, start_bot, alice, tmp_path) -> None:
    await start_bot(factory(settings_for(fake, tmp_path / "w.db")))
    opened = await alice.slash("game new", game="tinybigwars", seats=2, takeover="search")
    assert opened.ephemeral and "the AI that thinks ahead plays late or away seats" in opened.content, opened.content
    lobby = await alice.wait_for(lambda m: m.button("Join") is not None)
    assert "Late or away seats are played by the AI that thinks ahead (the search AI)." in lobby.content
    forged = await forged_slash(alice, "game new", game="tinybigwars", takeover="genius")
    assert forged.ephemeral and "went wrong" not in forged.content and "late or away seats" in forged.content, (
        forged.content)
