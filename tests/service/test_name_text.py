"""Names chosen by players reach notice texts through the front-end's ``name_text`` (a chat
front-end escapes markup there); maps and payload names keep the names as chosen."""

from __future__ import annotations

from bot.service import MatchService
from db import Store
from tests.service.conftest import Clock
from tests.service.helpers import BOB, CHANNEL, GUILD, HOST


async def test_names_in_texts_go_through_name_text(store: Store, clock: Clock) -> None:
    svc = MatchService(store, clock=clock, name_text=lambda name: f"[{name}]")
    info = await svc.create(GUILD, CHANNEL, HOST, "**host**", "toy", {"rounds": 2}, seed=7)
    await svc.join(CHANNEL, BOB, "@everyone")
    await svc.start(CHANNEL, HOST)
    await svc.submit(info.id, HOST, {"bid": 1})
    await svc.submit(info.id, BOB, {"bid": 0})
    notices = await svc.outbox(limit=1000)
    lobby = [n.payload["text"] for n in notices if n.kind == "lobby"]
    assert lobby[0].startswith("[**host**] opened") and "[@everyone] joined." in lobby
    texts = [n.payload.get("text", "") for n in notices if n.user_id is None]
    assert not any("@everyone" in t.replace("[@everyone]", "") for t in texts)
    assert all(n.payload["names"] == ["**host**", "@everyone"] for n in notices if "names" in n.payload)
