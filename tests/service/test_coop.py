"""Co-op play: shared prompts (first answer wins) and optional prompts (never owed)."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from typing import Any

import pytest
import sqlalchemy as sa

import engine
from bot.service import MatchInfo, MatchService, Notice, StalePrompt
from bot.service.core import CLOSED_SHARED, LOST_SHARED
from db import Choice, Store
from tests.service.conftest import Clock
from tests.service.coopgame import GAME as COOP
from tests.service.coopgame import CoopGame, CoopState
from tests.service.helpers import BOB, CAROL, CHANNEL, GUILD, HOST


@pytest.fixture(autouse=True)
def coop_game() -> object:
    return engine.register(COOP)


async def coop(svc: MatchService, users: list[int], *, ais: int = 0, hours: float = 10.0, game: str = "coop",
               **options: Any) -> MatchInfo:
    info = await svc.create(GUILD, CHANNEL, users[0], "host", game, options, deadline_hours=hours, seed=5)
    for n, user in enumerate(users[1:], 1):
        await svc.join(CHANNEL, user, f"player{n}")
    for _ in range(ais):
        await svc.add_ai(CHANNEL, users[0])
    await svc.start(CHANNEL, users[0])
    return await svc.get_match(info.id)


async def log_of(store: Store, match_id: int) -> list[tuple[int, str, str]]:
    async with store.read() as s:
        rows = (await s.exec(sa.select(Choice.seat, Choice.kind, Choice.by).where(Choice.match_id == match_id)
                             .order_by(Choice.seq))).all()
    return [tuple(r) for r in rows]


async def notices(svc: MatchService, kind: str) -> list[Notice]:
    return [n for n in await svc.outbox(limit=100_000) if n.kind == kind]


async def act(svc: MatchService, match_id: int, user: int, action: str) -> None:
    pending = await svc.pending_prompt(match_id, user)
    assert pending is not None, f"{user} has nothing to decide"
    await svc.submit(match_id, user, {"action": action}, version=pending.version)


async def to_solo(svc: MatchService, match_id: int) -> None:
    """Round 1 up to the solo turn (seat 0's): HOST builds all, BOB passes, HOST defends."""
    await act(svc, match_id, BOB, "pass")
    for _ in range(3):
        await act(svc, match_id, HOST, "build")
    await act(svc, match_id, HOST, "defend")
    assert (await svc.public_view(match_id))["phase"] == "solo"


async def test_first_come_first_served(db_url: str) -> None:
    # Two services on two engines: the database decides who was first, not an in-process lock.
    stores = [await Store.open(db_url), await Store.open(db_url, migrate=False)]
    a, b = (MatchService(s) for s in stores)
    info = await coop(a, [HOST, BOB])
    ph, pb = await a.pending_prompt(info.id, HOST), await b.pending_prompt(info.id, BOB)
    assert ph.prompt.shared and pb.prompt.shared and ph.version == pb.version == 0
    before = len(await notices(a, "prompt"))
    results = await asyncio.gather(
        a.submit(info.id, HOST, {"action": "build"}, version=0, interaction_id="h"),
        b.submit(info.id, BOB, {"action": "build"}, version=0, interaction_id="b"),
        return_exceptions=True,
    )
    won = [r for r in results if not isinstance(r, BaseException)]
    lost = [r for r in results if isinstance(r, BaseException)]
    assert len(won) == 1 and len(lost) == 1, results
    assert isinstance(lost[0], StalePrompt) and str(lost[0]) == LOST_SHARED
    winner, loser = (HOST, BOB) if won[0].seat == 0 else (BOB, HOST)
    assert await log_of(stores[0], info.id) == [(won[0].seat, "build", "player")]
    assert (await a.public_view(info.id))["pool"] == 2
    # Both seats have the shrunken pool as a new prompt version; the loser's old one is refused.
    for user in (winner, loser):
        pending = await a.pending_prompt(info.id, user)
        assert pending.version == 1 and "2 AP left" in pending.prompt.text
    line = f"[[seat:{won[0].seat}]] spends 1 AP and builds a wall (2 AP left)."
    assert won[0].version == 1 and won[0].events == [line]
    assert await a.stale_reason(info.id, 1 - won[0].seat, 0) == LOST_SHARED
    with pytest.raises(StalePrompt, match="Someone else answered first"):
        await b.submit(info.id, loser, {"action": "build"}, version=0)
    assert len(await log_of(stores[0], info.id)) == 1
    # The loser gets the new prompt in a DM; nobody is pinged in the channel for a re-issued shared prompt.
    fresh = (await notices(a, "prompt"))[before:]
    assert sorted(n.user_id for n in fresh) == [HOST, BOB]
    assert all(n.payload["shared"] and n.payload["version"] == 1 for n in fresh)
    assert not [n for n in await notices(a, "turn") if n.created_at >= fresh[0].created_at and n.id > fresh[0].id]
    for s in stores:
        await s.close()


async def test_declines_drop_out_and_the_first_defend_closes_the_others(svc: MatchService) -> None:
    info = await coop(svc, [HOST, BOB, CAROL], ap=3)
    for user in (HOST, BOB, CAROL):
        await act(svc, info.id, user, "build")
    view = await svc.public_view(info.id)
    assert view["phase"] == "attack" and view["present"] == [0, 1, 2]
    attack = {u: await svc.pending_prompt(info.id, u) for u in (HOST, BOB, CAROL)}
    await act(svc, info.id, CAROL, "decline")
    assert (await svc.public_view(info.id))["present"] == [0, 1]
    # A decline changes nothing the others see: their prompt (and version) stay.
    assert (await svc.pending_prompt(info.id, BOB)).version == attack[BOB].version
    await act(svc, info.id, BOB, "defend")
    assert (await svc.public_view(info.id))["phase"] == "solo"
    with pytest.raises(StalePrompt) as err:  # HOST's attack prompt: closed, HOST now takes the solo turn
        await svc.submit(info.id, HOST, {"action": "defend"}, version=attack[HOST].version)
    assert str(err.value) == LOST_SHARED
    with pytest.raises(StalePrompt) as err:  # Carol answered it herself: the game just moved on
        await svc.submit(info.id, CAROL, {"action": "defend"}, version=attack[CAROL].version)
    assert str(err.value) == StalePrompt.DEFAULT
    assert await svc.stale_reason(info.id, 2, attack[CAROL].version) is None


async def test_a_closed_shared_prompt_says_so(svc: MatchService) -> None:
    info = await coop(svc, [HOST, BOB], ap=1)
    await svc.submit(info.id, HOST, {"action": "build"}, version=0)
    # The pool is empty: the attack asks only HOST (the one who built); Bob has nothing open.
    assert await svc.pending_prompt(info.id, BOB) is None
    with pytest.raises(StalePrompt) as err:
        await svc.submit(info.id, BOB, {"action": "build"}, version=0)
    assert str(err.value) == CLOSED_SHARED
    assert await svc.stale_reason(info.id, 1, 0) == CLOSED_SHARED
    assert len(await log_of(svc.store, info.id)) == 1


async def test_optional_prompts_are_not_owed(db_url: str, clock: Clock) -> None:
    store = await Store.open(db_url)
    svc = MatchService(store, clock=clock)
    info = await coop(svc, [HOST, BOB], hours=10, rounds=2)
    await to_solo(svc, info.id)
    status = await svc.status(CHANNEL)
    assert [s.user_id for s in status.waiting] == [HOST]
    assert [s.user_id for s in status.may_act] == [BOB]
    assert [p["kind"] for p in status.prompts if p["optional"]] == ["cheer"]
    cheer = [n for n in await notices(svc, "prompt") if n.user_id == BOB][-1]
    assert cheer.payload["optional"] and cheer.payload["deadline"] is None
    # Nobody is pinged for an optional prompt (HOST acted last and is not pinged either).
    assert all(t.id < cheer.id for t in await notices(svc, "turn"))
    # Reminders name only HOST; the expiry plays only HOST's solo turn; Bob's missed count stays 0.
    start = clock.now
    assert status.deadline == start + timedelta(hours=10)
    assert await svc.tick(clock.advance(5)) == 1
    assert await svc.tick(clock.advance(4)) == 1
    reminders = await notices(svc, "reminder")
    assert all(r.payload["user_ids"] == [HOST] for r in reminders[-2:])
    assert all("player1" not in r.payload["text"] for r in reminders[-2:])
    assert await svc.tick(clock.advance(1)) == 1
    timeouts = await notices(svc, "timeout")
    assert [t.payload["seat"] for t in timeouts] == [0]
    seats = {s.user_id: s for s in (await svc.get_match(info.id)).seats}
    assert seats[BOB].missed == 0 and not seats[BOB].ai_takeover
    assert [c for c in await log_of(store, info.id) if c[2] == "deadline"] == [(0, "solo", "deadline")]
    # The solo turn ended: Bob's optional prompt went with it; the game went on without him.
    view = await svc.public_view(info.id)
    assert view["round"] == 2 and view["phase"] == "build"
    await store.close()


async def test_only_optional_prompts_left_sets_no_deadline(svc: MatchService) -> None:
    info = await coop(svc, [HOST, BOB], ais=1, rounds=1)
    await act(svc, info.id, HOST, "pass")
    await act(svc, info.id, BOB, "pass")  # the AI built its share; attack: the AI was present and defended
    view = await svc.public_view(info.id)
    assert view["phase"] == "solo"
    status = await svc.status(CHANNEL)
    assert [s.user_id for s in status.waiting] == [HOST] and [s.user_id for s in status.may_act] == [BOB]
    # Bob skips: still only HOST is waited for; HOST's solo turn ends the game.
    await act(svc, info.id, BOB, "skip")
    assert (await svc.pending_prompt(info.id, BOB)) is None
    await act(svc, info.id, HOST, "scout")
    assert (await svc.get_match(info.id)).status == "finished"
    result = (await svc.get_match(info.id)).result
    assert result["winners"] == [0, 1, 2]


async def test_expiry_on_a_shared_step(db_url: str, clock: Clock) -> None:
    store = await Store.open(db_url)
    svc = MatchService(store, clock=clock)
    info = await coop(svc, [HOST, BOB], hours=10, ap=5)
    # Nobody touches the shared pool. One expiry plays each late seat once, even though the
    # AI's spend for HOST re-issued Bob's prompt (a new version, after the deadline started).
    assert await svc.tick(clock.advance(10)) == 2
    assert await log_of(store, info.id) == [(0, "build", "deadline"), (1, "build", "deadline")]
    assert (await svc.public_view(info.id))["pool"] == 3
    assert await svc.tick(clock.now) == 0  # nothing fires twice; a fresh deadline runs
    assert (await svc.status(CHANNEL)).deadline == clock.now + timedelta(hours=10)
    # The second expiry: both seats missed twice, the AI takes over and finishes the pool at once.
    assert await svc.tick(clock.advance(10)) == 2
    seats = {s.user_id: s for s in (await svc.get_match(info.id)).seats}
    assert seats[HOST].ai_takeover and seats[BOB].ai_takeover
    assert (await svc.get_match(info.id)).status == "finished"
    timeouts = await notices(svc, "timeout")
    assert len(timeouts) == 4 and "until they are back" in timeouts[-1].payload["text"]
    await store.close()


async def test_expiry_on_an_attack_plays_one_defence(svc: MatchService, store: Store, clock: Clock) -> None:
    info = await coop(svc, [HOST, BOB], hours=10, ap=2)
    await act(svc, info.id, HOST, "build")
    await act(svc, info.id, BOB, "build")
    assert (await svc.public_view(info.id))["phase"] == "attack"
    # The AI defends for the first late seat; that closes Bob's copy: one choice, one timeout.
    assert await svc.tick(clock.advance(10)) == 1
    assert (await log_of(store, info.id))[-1] == (0, "attack", "deadline")
    seats = {s.user_id: s for s in (await svc.get_match(info.id)).seats}
    assert seats[HOST].missed == 1 and seats[BOB].missed == 0
    assert (await svc.public_view(info.id))["phase"] == "solo"


async def test_ai_seats_share_and_finish(svc: MatchService) -> None:
    for n, policy in enumerate(("heuristic", "random")):
        info = await svc.create(GUILD, CHANNEL + n, HOST, "host", "coop", {"rounds": 5, "ap": 4},
                                seed=n, host_plays=False)
        for _ in range(3):
            await svc.add_ai(CHANNEL + n, HOST, policy=policy)
        await svc.start(CHANNEL + n, HOST)
        done = await svc.get_match(info.id)
        assert done.status == "finished" and done.result["winners"] in ([], [0, 1, 2])


class StickyCheer(CoopGame):
    """A careless variant: cheering does not use the cheer up, so the same optional prompt
    is offered again and again. The AI must not loop on it."""

    key = "coop_sticky"

    def submit(self, state: CoopState, seat: int, choice: dict[str, Any]) -> Any:
        step = super().submit(state, seat, choice)
        if state.phase == "solo" and seat != (state.round - 1) % state.seats and choice == {"action": "cheer"}:
            step.state.cheered = [s for s in step.state.cheered if s != seat]
        return step


async def test_ai_answers_a_repeated_optional_prompt_once(svc: MatchService, store: Store) -> None:
    engine.register(StickyCheer())
    info = await coop(svc, [HOST], ais=2, game="coop_sticky", rounds=1)
    await act(svc, info.id, HOST, "pass")
    view = await svc.public_view(info.id)
    assert view["phase"] == "solo"  # the AIs built, one defended; HOST is on its solo turn
    cheers = [c for c in await log_of(store, info.id) if c[1] == "cheer"]
    assert sorted(c[0] for c in cheers) == [1, 2]  # each AI cheered once, then left the prompt open
    await act(svc, info.id, HOST, "fortify")
    assert (await svc.get_match(info.id)).status == "finished"


class LingeringState(CoopState):
    skipped: list[int] = []
    """Seats that said "Not now" to the cheer this solo turn; their cheer stays open."""


class LingeringCheer(CoopGame):
    """Like Tiny Epic Defenders' any-turn skills: "Not now" does not close the optional cheer;
    it stays open, marked answered, until the solo turn ends."""

    key = "coop_lingering"

    def state_model(self) -> type[LingeringState]:
        return LingeringState

    def setup(self, seats: int, options: Any, seed: int) -> LingeringState:
        return LingeringState(**super().setup(seats, options, seed).model_dump())

    def prompts(self, state: LingeringState) -> list[Any]:
        out = super().prompts(state)
        for p in out:
            if p.kind == "cheer" and p.seat in state.skipped:
                p.answered = True
        return out

    def submit(self, state: LingeringState, seat: int, choice: dict[str, Any]) -> Any:
        mine = next((p for p in self.prompts(state) if p.seat == seat), None)
        if mine is not None and mine.kind == "cheer" and choice == {"action": "skip"}:
            new = state.model_copy(deep=True)
            new.step += 1
            new.skipped = sorted({*new.skipped, seat})
            return engine.Step(state=new, events=[])
        step = super().submit(state, seat, choice)
        if step.state.phase != "solo":
            step.state.skipped = []
        return step


async def test_an_optional_prompt_passed_on_stays_live_without_a_new_dm(svc: MatchService) -> None:
    engine.register(LingeringCheer())
    info = await coop(svc, [HOST, BOB], game="coop_lingering", rounds=2)
    await to_solo(svc, info.id)
    cheer = await svc.pending_prompt(info.id, BOB)
    assert cheer is not None and cheer.prompt.kind == "cheer"
    sent = len([n for n in await notices(svc, "prompt") if n.user_id == BOB])
    await svc.submit(info.id, BOB, {"action": "skip"}, version=cheer.version)
    # Bob is no longer listed as one who may act, gets no second DM, and his buttons still work.
    status = await svc.status(CHANNEL)
    assert [s.user_id for s in status.may_act] == []
    assert len([n for n in await notices(svc, "prompt") if n.user_id == BOB]) == sent
    again = await svc.pending_prompt(info.id, BOB)
    assert again is not None and again.version == cheer.version and again.prompt.answered
    await svc.submit(info.id, BOB, {"action": "cheer"}, version=cheer.version)
    assert (await svc.public_view(info.id))["walls"] >= 1
