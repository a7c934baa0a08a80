"""Notice payloads are typed per kind (notices.py): every notice a match writes has exactly its
kind's fields, a payload of the wrong shape is refused when it is built, and the markup of the
texts (commands, emphasis) is the front-end's Wording, the chat markup when it passes none."""

from __future__ import annotations

import pytest

from bot.service import MatchService, notices
from bot.service.notices import PAYLOADS, LobbyNotice, TimeoutNotice
from bot.service.wording import ACT, Wording
from db import Store
from tests.service.conftest import Clock
from tests.service.helpers import BOB, CHANNEL, HOST, lobby
from tests.service.test_ratings import play_out

PLAIN = Wording(commands={ACT: "/act"}, strong=lambda text: f"<{text}>")


async def test_every_notice_of_a_match_has_exactly_the_fields_of_its_kind(svc: MatchService, clock: Clock) -> None:
    info = await lobby(svc, [HOST, BOB], ais=1, rounds=2)
    await svc.extend(CHANNEL, HOST, 2)
    await svc.pause(CHANNEL, HOST)
    await svc.resume(CHANNEL, HOST)
    clock.advance(30)
    await svc.tick()  # the deadline passes: the AI chooses for both
    await svc.go_away(CHANNEL, BOB, 1)
    await play_out(svc, info.id, [HOST, BOB])
    written = await svc.outbox(limit=1000)
    kinds = {n.kind for n in written}
    assert {"lobby", "phase", "prompt", "timeout", "result", "replay", "turn"} <= kinds
    for notice in written:
        shape = PAYLOADS[notice.kind]
        assert shape.__required_keys__ <= set(notice.payload) <= shape.__required_keys__ | shape.__optional_keys__


def test_a_payload_of_the_wrong_shape_is_refused_where_it_is_built() -> None:
    notices.check("timeout", TimeoutNotice(text="t", user_ids=[]))
    with pytest.raises(TypeError, match="lacks"):
        notices.check("lobby", {"text": "t", "status": "lobby"})
    with pytest.raises(TypeError, match="unknown"):
        notices.check("lobby", {**LobbyNotice(text="t", status="lobby", seats=[]), "colour": "red"})
    with pytest.raises(TypeError, match="unknown notice kind"):
        notices.check("lobbby", {"text": "t"})


async def test_without_a_wording_the_texts_are_the_chat_markup(svc: MatchService) -> None:
    info = await lobby(svc, [HOST, BOB], rounds=1)
    await play_out(svc, info.id, [HOST, BOB])
    written = await svc.outbox(limit=1000)
    turn = next(n for n in written if n.kind == "turn")
    assert turn.payload["text"] == "your turn: your DMs do not reach you, so use `/game act` to choose."
    result = next(n for n in written if n.kind == "result")
    assert result.payload["text"].startswith("**The match is over: ")
    assert any(n.payload["text"].startswith("**Round 1") for n in written if n.kind in ("phase", "events"))


async def test_a_front_end_wording_writes_its_commands_and_emphasis(store: Store, clock: Clock) -> None:
    svc = MatchService(store, clock=clock, wording=PLAIN)
    info = await lobby(svc, [HOST, BOB], rounds=1)
    await svc.go_away(CHANNEL, BOB, 1)
    await play_out(svc, info.id, [HOST])
    written = await svc.outbox(limit=1000)
    texts = [str(n.payload.get("text", "")) for n in written]
    assert not any("**" in text or "`" in text for text in texts)
    turn = next(n for n in written if n.kind == "turn")
    assert turn.payload["text"] == "your turn: your DMs do not reach you, so use /act to choose."
    assert any(text.endswith("They take the seat back by acting (/act).") for text in texts)
    result = next(n for n in written if n.kind == "result")
    assert result.payload["text"].startswith("<The match is over: ")
    assert any(text.startswith("<Round 1") for text in texts)
