"""Undo consent DMs and vote DMs are sent, kept and closed by one part (asked_dms.py): each keeps
its own buttons and wording, and once its seat can no longer answer it loses its buttons and says
why, except after the seat's own click (whose reply already said it)."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from typing import Any

from bot.discord import asked_dms
from bot.discord.senders import SENDERS
from bot.discord.undo_ui import CONSENT
from bot.discord.vote_ui import VOTE
from bot.service.consents import ANSWERED
from bot.service.types import Notice

DUE = "2026-01-02T00:00:00+00:00"


def notice(kind: str, notice_id: int, payload: dict[str, Any]) -> Notice:
    return Notice(id=notice_id, match_id=7, key=f"{kind}:{notice_id}", kind=kind, channel_id=500, user_id=11,
                  seat=0, payload=payload, created_at=datetime(2026, 1, 1, tzinfo=UTC))


class Message:
    def __init__(self, channel: DmChannel, ref: int) -> None:
        self.channel, self.id = channel, ref

    async def edit(self, **fields: Any) -> None:
        self.channel.edits.append((self.id, fields))


class DmChannel:
    def __init__(self) -> None:
        self.edits: list[tuple[int, dict[str, Any]]] = []

    def get_partial_message(self, ref: int) -> Message:
        return Message(self, ref)


class Service:
    """Whether the seat can still answer: ``why[request]`` (None while it can)."""

    def __init__(self) -> None:
        self.undos: dict[int, str | None] = {}
        self.votes: dict[int, str | None] = {}

    async def undo_closed(self, match_id: int, undo_id: int, seat: int) -> str | None:
        return self.undos.get(undo_id)

    async def vote_closed(self, match_id: int, vote_id: int, seat: int) -> str | None:
        return self.votes.get(vote_id)


class Delivery:
    def __init__(self) -> None:
        self.asked: dict[int, dict[int, asked_dms.SentAsk]] = {}
        self.gate = asyncio.Semaphore(1)
        self.svc = Service()
        self.dm = DmChannel()
        self.sent: list[dict[str, Any]] = []

    async def send_dm(self, notice: Notice, content: str, **kwargs: Any) -> str | None:
        self.sent.append({"content": content, **kwargs})
        return str(900 + len(self.sent))

    async def dm_channel_for(self, match_id: int, seat: int | None, user_id: int) -> DmChannel:
        return self.dm


def labels_and_ids(sent: dict[str, Any]) -> list[tuple[str, str]]:
    return [(item.label, item.custom_id) for item in sent["view"].children]


async def test_consent_and_vote_dms_ask_with_their_own_buttons_and_close_with_their_own_words() -> None:
    delivery = Delivery()
    consent = notice("consent", 1, {"who": "alice", "summary": "the last move", "why": "a misclick", "due": DUE,
                                    "undo_id": 3})
    vote = notice("vote", 2, {"who": "bob", "kind": "draw", "due": DUE, "vote_id": 4})
    assert await SENDERS["consent"](delivery, consent) == "901"  # type: ignore[arg-type]
    assert await SENDERS["vote"](delivery, vote) == "902"  # type: ignore[arg-type]
    assert labels_and_ids(delivery.sent[0]) == [("Agree", "wh:u:7:3:agree"), ("Refuse", "wh:u:7:3:refuse")]
    assert labels_and_ids(delivery.sent[1]) == [("Yes", "wh:v:7:4:yes"), ("No", "wh:v:7:4:no")]
    assert "alice" in delivery.sent[0]["content"] and "bob" in delivery.sent[1]["content"]

    await asked_dms.close(delivery, 7)  # type: ignore[arg-type]
    assert delivery.dm.edits == [] and set(delivery.asked[7]) == {901, 902}, "both still ask"

    delivery.svc.undos[3] = "it expired"
    await asked_dms.close(delivery, 7)  # type: ignore[arg-type]
    [(ref, edit)] = delivery.dm.edits
    assert ref == 901 and edit["view"] is None and edit["content"] == CONSENT.closed_text(consent, "it expired")
    assert "it expired" in edit["content"] and set(delivery.asked[7]) == {902}

    delivery.svc.votes[4] = ANSWERED  # bob clicked: his click's reply is the DM's last word
    await asked_dms.close(delivery, 7)  # type: ignore[arg-type]
    assert len(delivery.dm.edits) == 1 and 7 not in delivery.asked
    assert VOTE.closed_text(vote, "it passed") != CONSENT.closed_text(consent, "it passed")
