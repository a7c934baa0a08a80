"""The read a seat's turn DM is rendered from (``MatchService.seat_turn``): which message holds
the turn, whether it still asks, whether the table waits for that seat alone, and who chose."""

from __future__ import annotations

from bot.service import MatchService
from tests.service.conftest import Clock
from tests.service.helpers import BOB, CAROL, HOST, lobby


async def deliver_prompts(svc: MatchService, first_ref: int = 500) -> dict[int, int]:
    """Mark every waiting prompt notice delivered into its own message; seat -> message id."""
    refs: dict[int, int] = {}
    for n, notice in enumerate(await svc.outbox(limit=1000)):
        if notice.kind == "prompt" and notice.seat is not None:
            refs[notice.seat] = first_ref + n
            await svc.delivered(notice.id, str(first_ref + n))
        else:
            await svc.delivered(notice.id, "x")
    return refs


async def test_a_seat_turn_follows_the_sealed_step_to_its_end(svc: MatchService, clock: Clock) -> None:
    info = await lobby(svc, [HOST, BOB, CAROL], hours=10)
    refs = await deliver_prompts(svc)
    bob = info.seat_of(BOB)
    assert bob is not None
    turn = await svc.seat_turn(info.id, bob)
    assert turn is not None and turn.subject is not None
    assert turn.subject.dm == refs[bob] and turn.live and not turn.answered and not turn.waits_alone

    await svc.submit(info.id, HOST, {"bid": 1})
    assert not (await svc.seat_turn(info.id, bob)).waits_alone  # type: ignore[union-attr]
    await svc.submit(info.id, CAROL, {"bid": 2})
    waiting = await svc.seat_turn(info.id, bob)
    assert waiting is not None and waiting.waits_alone and waiting.live, "everyone else has chosen"

    await svc.submit(info.id, BOB, {"bid": 1})  # the last bid: the step is revealed
    carol = info.seat_of(CAROL)
    assert carol is not None
    revealed = await svc.seat_turn(info.id, carol)
    assert revealed is not None and revealed.subject is not None and revealed.subject.dm == refs[carol]
    assert not revealed.live, "a revealed sealed step no longer asks"
    assert [(c.kind, c.by, c.choice) for c in revealed.choices][:1] == [("bid", "player", {"bid": 2})]


async def test_a_timeout_is_told_as_the_ais_choice(svc: MatchService, clock: Clock) -> None:
    info = await lobby(svc, [HOST, BOB], hours=10)
    refs = await deliver_prompts(svc)
    bob = info.seat_of(BOB)
    assert bob is not None
    await svc.submit(info.id, HOST, {"bid": 1})
    assert await svc.tick(clock.advance(11)) >= 1
    turn = await svc.seat_turn(info.id, bob)
    assert turn is not None and turn.subject is not None and turn.subject.dm == refs[bob]
    assert not turn.live
    assert [(c.kind, c.by) for c in turn.choices][:1] == [("bid", "deadline")]


async def test_a_prompt_never_sent_holds_no_turn(svc: MatchService) -> None:
    info = await lobby(svc, [HOST, BOB], hours=10)
    bob = info.seat_of(BOB)
    assert bob is not None
    for notice in await svc.outbox(limit=1000):
        await svc.delivered(notice.id, "superseded" if notice.kind == "prompt" else "x")
    turn = await svc.seat_turn(info.id, bob)
    assert turn is not None and turn.subject is None and turn.live is False


async def test_a_click_on_a_dm_whose_delivery_was_never_marked_makes_it_the_turn_dm(svc: MatchService) -> None:
    """The delivery stopped between sending a prompt DM and marking it; the player answered on
    that DM. Its notice is then marked "superseded" (nothing left to ask), yet the DM is the
    seat's turn DM: the next prompt edits it instead of sending a second one."""
    info = await lobby(svc, [HOST, BOB], hours=10)
    bob = info.seat_of(BOB)
    assert bob is not None
    pending = await svc.outbox(limit=1000)
    prompt = next(n for n in pending if n.kind == "prompt" and n.seat == bob)
    before = await svc.seat_turn(info.id, bob)
    assert before is not None and before.subject is None, "no DM holds the turn yet"
    result = await svc.submit(info.id, BOB, {"bid": 1}, version=prompt.payload["version"], interaction_id="i-1",
                              message_id=777)
    assert result.claimed == prompt.id, "the click says which notice it claimed (its delivery finds nothing to write)"
    await svc.delivered(prompt.id, "superseded")
    turn = await svc.seat_turn(info.id, bob)
    assert turn is not None and turn.subject is not None and turn.subject.dm == 777
    assert [(c.by, c.choice) for c in turn.choices][:1] == [("player", {"bid": 1})]


async def test_an_answer_in_the_channel_claims_no_message(svc: MatchService) -> None:
    info = await lobby(svc, [HOST, BOB], hours=10)
    bob = info.seat_of(BOB)
    assert bob is not None
    prompt = next(n for n in await svc.outbox(limit=1000) if n.kind == "prompt" and n.seat == bob)
    result = await svc.submit(info.id, BOB, {"bid": 1}, version=prompt.payload["version"], interaction_id="i-2",
                              in_guild=True, message_id=888)
    assert result.claimed is None
    await svc.delivered(prompt.id, "superseded")
    turn = await svc.seat_turn(info.id, bob)
    assert turn is not None and turn.subject is None


async def test_a_seat_turn_says_whether_a_newer_prompt_was_written(svc: MatchService) -> None:
    """The read a prompt DM is written from also says whether a newer prompt of the seat was
    written since (then the older one must not edit the DM the newer one edits)."""
    info = await lobby(svc, [HOST, BOB], hours=10)
    bob = info.seat_of(BOB)
    assert bob is not None
    first = next(n for n in await svc.outbox(limit=1000) if n.kind == "prompt" and n.seat == bob)
    turn = await svc.seat_turn(info.id, bob, before_id=first.id)
    assert turn is not None and not turn.newer_prompt(first.id)
    await deliver_prompts(svc)
    await svc.submit(info.id, HOST, {"bid": 1})
    await svc.submit(info.id, BOB, {"bid": 1})  # revealed: the host moves first (ties go to the lower seat)
    await svc.submit(info.id, HOST, {"action": "gather"})  # then bob's next decision is written
    newer = [n for n in await svc.outbox(limit=1000) if n.kind == "prompt" and n.seat == bob]
    assert newer, "bob has a next decision"
    later = await svc.seat_turn(info.id, bob, before_id=newer[-1].id)
    assert later is not None and later.newer_prompt(first.id) and not later.newer_prompt(newer[-1].id)
    assert later.newer_prompt(first.id) == await svc.newer_prompt(info.id, bob, first.id)
