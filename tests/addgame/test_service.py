"""Step 10 through the service: a whole Lantern Hunt match, opened, joined, started and
played to its result by the players' answers, with the notices the players would be sent."""

from __future__ import annotations

from pathlib import Path

from bot.service import MatchService
from db import Store
from tests.addgame.lanterns import LanternHunt

GUILD, CHANNEL, HOST, GUEST = 1, 10, 100, 200


async def test_a_whole_match_through_the_service(lanterns: LanternHunt, tmp_path: Path) -> None:
    store = await Store.open(f"sqlite+aiosqlite:///{tmp_path / 'warhost.db'}")
    try:
        svc = MatchService(store)
        info = await svc.create(GUILD, CHANNEL, HOST, "host", "lanterns", {"round_limit": 2}, seed=4)
        assert info.title == "Lantern Hunt" and info.options["round_limit"] == 2
        await svc.join(CHANNEL, GUEST, "guest")
        await svc.start(CHANNEL, HOST)
        seen: list[str] = []
        for _ in range(20):
            match = await svc.get_match(info.id)
            if match.status == "finished":
                break
            for user in (HOST, GUEST):
                pending = await svc.pending_prompt(info.id, user)
                if pending is None or pending.prompt.answered:
                    continue
                seen.append(pending.prompt.kind)
                public = await svc.public_view(info.id)
                assert "you" not in public and all(seat["hidden"] in (True, False) for seat in public["seats"])
                hides, searches = ("mill", "well") if user == HOST else ("well", "mill")
                place = hides if pending.prompt.kind == "hide" else searches
                await svc.submit(info.id, user, {"place": place}, version=pending.version)
        match = await svc.get_match(info.id)
        assert match.status == "finished" and match.result is not None
        assert seen == ["hide", "hide", "seek", "seek"] * 2
        # The host searched the well where the guest hid: 1 glow a round; the guest found 2 a round.
        assert {int(seat): points for seat, points in match.result["scores"].items()} == {0: 2, 1: 4}
        assert match.result["winners"] == [1]
        kinds = {notice.kind for notice in await svc.outbox(limit=10_000)}
        assert {"prompt", "phase", "result"} <= kinds, kinds
    finally:
        await store.close()
