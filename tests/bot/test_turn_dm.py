"""A seat's turn DM says what the match says (issue 25): a sealed choice after the reveal or the
end no longer offers [Change] nor says it can be changed; a timeout says what the AI chose; the
"everyone else has chosen" line and a live prompt come only to a seat that still owes when the
DM is written; a prompt the seat no longer owes is not sent."""

from __future__ import annotations

import contextlib
from dataclasses import replace
from datetime import UTC, datetime
from types import SimpleNamespace
from typing import Any

import engine
from bot.discord import turn_dm
from bot.discord.delivery import Delivery
from bot.discord.sending import SUPERSEDED
from bot.service.announce import LAST_TO_CHOOSE
from bot.service.notify import NotifyPrefs
from bot.service.turn_views import SeatTurn, TurnChoice, TurnSubject
from bot.service.types import Notice

DM = 321
ENERGY = {"attack": 1, "guard": 0}


def energy_prompt() -> dict[str, Any]:
    """A sealed numbers prompt as the engine writes it (Tiny Big Wars' fight energy)."""
    game = engine.get("tinybigwars")
    prompt = game.prompts(game.setup(3, {}, 1))[0].model_dump(mode="json")
    return {**prompt, "kind": "energy", "input": "numbers", "text": "Fight at Sky Temple: spend energy in secret.",
            "options": [], "secret": True,
            "fields": [{"name": "attack", "label": "Energy for extra hits", "min": 0, "max": 2},
                       {"name": "guard", "label": "Energy to cancel hits", "min": 0, "max": 2}]}


def sealed_turn(**facts: Any) -> SeatTurn:
    """Seat 0 (alice) sealed 1 attack energy on the prompt of version 4; ``facts`` say what happened since."""
    payload = {"version": 4, "prompt": energy_prompt(), "news": [], "deadline": None, "shared": False, "optional": False}
    base = SeatTurn(match_id=7, seat=0, user_id=11, channel_id=500, title="Tiny Big Wars", status="active",
                    names=["alice", "bob", "AI 1"], version=4, answered=True, secret=True, waits_alone=False,
                    ai_driven=False, deadline=None, subject=TurnSubject(40, DM, payload),
                    choices=[TurnChoice(5, "energy", "player", ENERGY)])
    return replace(base, **facts)


def buttons(rendered: turn_dm.Rendered) -> list[str]:
    return [] if rendered.view is None else [str(getattr(item, "label", "")) for item in rendered.view.children]


def test_a_sealed_choice_waiting_for_the_others_can_be_changed() -> None:
    shown = turn_dm.render(sealed_turn())
    assert shown.live and buttons(shown) == ["Change"]
    assert "Energy for extra hits 1, Energy to cancel hits 0" in shown.content
    assert "you can change it until then" in shown.content


def test_after_the_reveal_the_sealed_dm_says_what_was_chosen_and_asks_nothing() -> None:
    shown = turn_dm.render(sealed_turn(version=9, answered=False, secret=False))  # the seat moved on
    assert not shown.live and shown.view is None
    assert "you can change it" not in shown.content
    assert "You chose: **Energy for extra hits 1, Energy to cancel hits 0**." in shown.content
    assert "the sealed choices were revealed" in shown.content


def test_after_the_match_ended_the_sealed_dm_says_so() -> None:
    shown = turn_dm.render(sealed_turn(status="finished", version=None, answered=False, secret=False))
    assert shown.view is None and "you can change it" not in shown.content
    assert "The match is over." in shown.content
    aborted = turn_dm.render(sealed_turn(status="aborted", version=None, answered=False, secret=False, choices=[]))
    assert aborted.view is None and "The match was aborted before you chose." in aborted.content


def test_a_timeout_tells_the_seat_what_the_ai_chose() -> None:
    late = sealed_turn(version=9, answered=False, choices=[TurnChoice(6, "energy", "deadline", {"attack": 0, "guard": 2})])
    shown = turn_dm.render(late)
    assert shown.view is None
    assert "Time was up: the AI chose **Energy for extra hits 0, Energy to cancel hits 2** for you." in shown.content
    assert turn_dm.reminder_text(late) == ("Reminder about **Tiny Big Wars**: time was up: the AI chose "
                                           "**Energy for extra hits 0, Energy to cancel hits 2** for you.")


def test_the_ai_taking_the_seat_over_leaves_no_live_select() -> None:
    taken = sealed_turn(answered=False, ai_driven=True, choices=[TurnChoice(6, "energy", "ai", {"attack": 0, "guard": 0})])
    shown = turn_dm.render(taken)
    assert shown.view is None and "The AI chose **Energy for extra hits 0, Energy to cancel hits 0** for you" in shown.content


def test_the_last_to_choose_line_only_while_the_seat_still_owes() -> None:
    owing = turn_dm.render(sealed_turn(answered=False, waits_alone=True, choices=[]))
    assert owing.content.startswith(f"**{LAST_TO_CHOOSE}**") and buttons(owing) == ["Enter numbers"]
    sealed = turn_dm.render(sealed_turn(waits_alone=False))
    assert LAST_TO_CHOOSE not in sealed.content and buttons(sealed) == ["Change"]


class FakeDm:
    """The seat's DM channel: records what is sent and edited."""

    def __init__(self) -> None:
        self.sent: list[str] = []
        self.edits: list[tuple[int, dict[str, Any]]] = []

    async def send(self, content: str, **_kwargs: Any) -> Any:
        self.sent.append(content)
        return SimpleNamespace(id=900 + len(self.sent))

    def get_partial_message(self, ref: int) -> Any:
        channel = self

        class Message:
            async def edit(self, **kwargs: Any) -> None:
                channel.edits.append((ref, kwargs))

        return Message()


def delivery_for(turn: SeatTurn) -> tuple[Delivery, FakeDm]:
    dm = FakeDm()

    async def seat_turn(_match_id: int, _seat: int, before_id: int | None = None) -> SeatTurn:
        return turn

    async def seat_turns(_match_id: int) -> dict[int, SeatTurn]:
        return {turn.seat: turn}

    async def get_match(_match_id: int) -> Any:
        return SimpleNamespace(seats=[SimpleNamespace(seat=0, user_id=11)])

    async def user_dm_channel(_user_id: int) -> int:
        return 900

    async def dms_closed(_match_id: int, _seat: int) -> bool:
        return False

    async def newer_prompt(_match_id: int, _seat: int, _notice_id: int) -> bool:
        return False

    async def notify_prefs(_match_id: int, _user_id: int) -> NotifyPrefs:
        return NotifyPrefs()  # the defaults: turns by DM, no quiet hours

    svc = SimpleNamespace(seat_turn=seat_turn, seat_turns=seat_turns, get_match=get_match, user_dm_channel=user_dm_channel,
                          dms_closed=dms_closed,
                          newer_prompt=newer_prompt, notify_prefs=notify_prefs, clock=lambda: datetime.now(UTC),
                          seat_fence=lambda _match_id, _seat: contextlib.nullcontext(),  # one process here
                          seats_fence=lambda _match_id, _seats: contextlib.nullcontext())
    async def holds_lease(_name: str) -> bool:
        return bot.lease

    bot = SimpleNamespace(svc=svc, get_partial_messageable=lambda _id, type=None: dm, holds_lease=holds_lease,
                          lease=True)
    return Delivery(bot), dm  # type: ignore[arg-type]


def notice(kind: str, payload: dict[str, Any]) -> Notice:
    return Notice(id=50, match_id=7, key=f"v9:0:{kind}", kind=kind, channel_id=500, user_id=11, seat=0,
                  payload=payload, created_at=datetime(2026, 1, 1, tzinfo=UTC))


async def test_everyone_else_has_chosen_never_reopens_a_sealed_choice() -> None:
    """The seat sealed between the notice's writing and its delivery: its DM keeps its sealed
    form ([Change], no "waits for you", no [Enter numbers])."""
    delivery, dm = delivery_for(sealed_turn())
    delivery.turns.shown[DM] = turn_dm.Shown(digest=turn_dm.render(sealed_turn()).digest)
    await delivery.deliver(notice("last_to_choose", {"text": LAST_TO_CHOOSE}))
    assert dm.edits == [] and dm.sent == [], "nothing to change: the DM already shows the seal"
    owing = sealed_turn(answered=False, waits_alone=True, choices=[])
    delivery, dm = delivery_for(owing)
    await delivery.deliver(notice("last_to_choose", {"text": LAST_TO_CHOOSE}))
    [(ref, edit)] = dm.edits
    assert ref == DM and LAST_TO_CHOOSE in edit["content"]


async def test_a_prompt_the_seat_no_longer_owes_is_not_sent() -> None:
    moved_on = sealed_turn(version=12, answered=False)  # the seat's open prompt is newer than this notice
    delivery, dm = delivery_for(moved_on)
    payload = {**moved_on.subject.payload, "version": 9, "in_place": False, "news": [], "names": moved_on.names,
               "title": "Tiny Big Wars", "game": "tinybigwars", "view": {}}  # type: ignore[union-attr]
    assert await delivery.deliver(notice("prompt", payload)) == SUPERSEDED
    assert dm.sent == [] and dm.edits == []


async def test_reconciling_finalizes_a_sealed_dm_once() -> None:
    over = sealed_turn(status="finished", version=None, answered=False, secret=False)
    delivery, dm = delivery_for(over)
    await delivery.reconcile(7)
    await delivery.reconcile(7)
    [(ref, edit)] = dm.edits
    assert ref == DM and edit["view"] is None and "The match is over." in edit["content"]


async def test_a_process_that_lost_the_delivery_lease_reconciles_no_dm() -> None:
    """Paused past its lease and resumed after a drain, a process must not edit DMs: the holder does."""
    over = sealed_turn(status="finished", version=None, answered=False, secret=False)
    delivery, dm = delivery_for(over)
    delivery.bot.lease = False  # type: ignore[attr-defined]
    await delivery.reconcile(7)
    assert dm.edits == []


async def test_a_prompt_the_ai_answered_before_it_went_out_says_what_the_ai_chose() -> None:
    late = sealed_turn(version=12, answered=False, choices=[TurnChoice(10, "energy", "deadline", {"attack": 2, "guard": 0})])
    delivery, dm = delivery_for(replace(late, subject=None))
    payload = {**late.subject.payload, "version": 9, "in_place": False, "news": [], "names": late.names,  # type: ignore[union-attr]
               "title": "Tiny Big Wars", "game": "tinybigwars", "view": {}}
    ref = await delivery.deliver(notice("prompt", payload))
    [content] = dm.sent
    assert ref == "901" and "Time was up: the AI chose **Energy for extra hits 2, Energy to cancel hits 0** for you." in content


async def test_a_new_decision_takes_back_the_reminders_of_the_one_the_ai_took() -> None:
    """A reminder said the decision still waited; time ran out, the AI chose, and a newer decision
    came as a new DM: the reminder now says how the old one ended, not that it still waits."""
    missed = sealed_turn(version=12, answered=False, reminders=[555],
                         choices=[TurnChoice(6, "energy", "deadline", {"attack": 0, "guard": 2})])
    delivery, dm = delivery_for(missed)
    payload = {**energy_prompt(), "version": 12}
    notice_payload = {"version": 12, "prompt": payload, "in_place": False, "news": [], "names": missed.names,
                      "title": "Tiny Big Wars", "game": "tinybigwars", "view": {}, "shared": False, "optional": False}
    assert await delivery.deliver(notice("prompt", notice_payload)) == "901"
    edited = dict(dm.edits)
    assert edited[555]["content"] == ("Reminder about **Tiny Big Wars**: time was up: the AI chose "
                                      "**Energy for extra hits 0, Energy to cancel hits 2** for you.")
    assert edited[DM]["view"] is None, "the old turn DM took its final form"


def test_an_optional_decision_passed_on_stays_open_and_says_so() -> None:
    prompt = {**energy_prompt(), "kind": "cheer", "input": "choose", "secret": False, "optional": True, "fields": [],
              "options": [{"value": "no", "label": "Not now", "choice": {"use": False}},
                          {"value": "yes", "label": "Cheer", "choice": {"use": True}}]}
    base = sealed_turn(secret=False, choices=[TurnChoice(5, "cheer", "player", {"use": False})])
    assert base.subject is not None
    passed = replace(base, subject=replace(base.subject, payload={**base.subject.payload, "prompt": prompt}))
    shown = turn_dm.render(passed)
    assert shown.live and buttons(shown) == ["Not now", "Cheer"] and "You chose: **Not now**." in shown.content
    over = turn_dm.render(replace(passed, status="finished", version=None, answered=False, choices=[]))
    assert over.view is None and "The match ended before you chose." in over.content


async def test_a_prompt_the_seats_own_click_closed_before_it_went_is_not_read_again() -> None:
    """The seat answered the decision on its DM before delivery reached the notice (the click
    claimed the DM for it), and its decision is closed: delivery has nothing to write and reads
    nothing for it, once; without that record it reads and finds the notice superseded."""
    moved_on = sealed_turn(version=12, answered=False, choices=[TurnChoice(10, "energy", "player", ENERGY)])
    delivery, dm = delivery_for(moved_on)
    reads: list[int | None] = []
    read = delivery.bot.svc.seat_turn  # type: ignore[attr-defined]

    async def counted(match_id: int, seat: int, before_id: int | None = None) -> SeatTurn:
        reads.append(before_id)
        return await read(match_id, seat, before_id)

    delivery.bot.svc.seat_turn = counted  # type: ignore[attr-defined]
    payload = {**moved_on.subject.payload, "version": 9, "in_place": True, "news": [], "names": moved_on.names,  # type: ignore[union-attr]
               "title": "Tiny Big Wars", "game": "tinybigwars", "view": {}}
    delivery.turns.closed_by_click(50)
    assert await delivery.deliver(notice("prompt", payload)) == SUPERSEDED
    assert reads == [] and dm.sent == [] and dm.edits == [], "no read, no DM written"
    assert await delivery.deliver(notice("prompt", payload)) == SUPERSEDED, "the read finds the same"
    assert reads == [50] and dm.sent == [] and dm.edits == []


def test_a_turn_dm_written_again_after_a_seat_changed_hands_names_its_new_player() -> None:
    """A subject keeps its prompt parsed for the next render of it (``TurnSubject.parsed``); a
    render with other names (the seat's player replaced) still writes those names, as labels and
    as text."""
    prompt = {**energy_prompt(), "secret": False, "text": "Help [[seat:1]] at Sky Temple"}
    prompt["fields"][0]["label"] = "Energy for [[seat:1]]"
    payload = {"version": 4, "prompt": prompt, "news": [], "deadline": None, "shared": False, "optional": False}
    first = sealed_turn(answered=False, secret=False, choices=[], subject=TurnSubject(40, DM, payload))
    assert "Help bob at Sky Temple" in turn_dm.render(first).content
    assert turn_dm.subject_prompt(first, plain=False).fields[0].label == "Energy for bob"
    replaced = replace(first, names=["alice", "carol", "AI 1"])
    assert replaced.subject is first.subject
    assert "Help carol at Sky Temple" in turn_dm.render(replaced).content
    assert turn_dm.subject_prompt(replaced, plain=False).fields[0].label == "Energy for carol"
    assert "Help bob at Sky Temple" in turn_dm.render(first).content


def test_a_subject_copied_with_another_prompt_shows_that_prompt() -> None:
    first = sealed_turn(answered=False, secret=False, choices=[])
    assert first.subject is not None and "Fight at Sky Temple" in turn_dm.render(first).content
    other = {**first.subject.payload, "prompt": {**energy_prompt(), "secret": False, "text": "Fight at Moon Gate"}}
    moved = replace(first, subject=replace(first.subject, payload=other))
    assert "Fight at Moon Gate" in turn_dm.render(moved).content
