"""The load benchmark's returning players: the bot finds every player's DM channel stored (it
opens none), and the earlier match's notices count in no lag of the run."""

from __future__ import annotations

from pathlib import Path

from benchmarks.discord_load import first_dm_floor, seed_returning
from benchmarks.load_figures import outbox_lag
from bot.service import MatchService
from db import Store
from tests.fakediscord.server import FakeDiscord


async def test_returning_players_have_their_dm_channels_stored_and_their_old_notices_are_left_out(
        tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'bench.db'}"
    fake = FakeDiscord(guilds=0)
    people = [fake.user(f"p{i}") for i in range(4)]
    newest = await seed_returning(url, fake, people, 2)
    store = await Store.open(url)
    try:
        svc = MatchService(store)
        for player in people:
            assert await svc.user_dm_channel(player.user.id) == fake.dm_channel(player.user).id
        assert await svc.outbox() == [], "the earlier match's notices went in that earlier week"
    finally:
        await store.close()
    assert newest > 0
    assert (await outbox_lag(url, after_id=newest)).all == [], "none of them is in the run's lag"
    assert len((await outbox_lag(url)).all) == newest, "without the cut they would all count"


def test_the_first_dms_floor_is_the_dm_open_buckets_pace() -> None:
    assert first_dm_floor(80, 5, 5.0) == (37.5, 75.0), "the k-th open waits 5 s for each 5 before it"
    assert first_dm_floor(0, 5, 5.0) == (0.0, 0.0), "returning players: nothing to open"
