"""The answer handlers of the Samurai Swords phase table (engine/samurai/phases.py): each hands
a parsed answer to the rules' module for that part of the round (setup, plans, swords, muster,
Wage War) or for an interrupt (a ninja strike, a counter-strike, a rebuilt army); the table says
which phase and kind each serves. `look_at_region` is the table's glance: a region picked in a
paged province list only moves that seat's view."""

from __future__ import annotations

from typing import Any

from engine.contract import IllegalChoice
from engine.kit import Asked, Flow
from engine.samurai.answers import Pick
from engine.samurai.battle import choose_losses
from engine.samurai.bids import answer_spy, check_plan, lock_plans
from engine.samurai.board import player_of
from engine.samurai.content import content
from engine.samurai.elimination import rebuild
from engine.samurai.garrison_forces import choose_units
from engine.samurai.hand_limit import discard_card
from engine.samurai.muster import check_levy, do_muster, do_place, do_ronin
from engine.samurai.ninja import send_ninja, strike_back
from engine.samurai.setup_placement import do_claim_wish, do_placement, do_screen
from engine.samurai.setup_tasks import do_task
from engine.samurai.state import SamuraiState
from engine.samurai.turn_order import want_sword
from engine.samurai.war_answers import handle_war

SamuraiFlow = Flow[SamuraiState]


def answer_task(flow: SamuraiFlow, seat: int, asked: Asked, answer: Pick) -> None:
    """A queued task (classic pace) is served, then leaves the queue."""
    do_task(flow.state, seat, flow.state.queue[0], answer, flow.events)
    flow.state.queue.pop(0)


def answer_claim(flow: SamuraiFlow, seat: int, asked: Asked, answer: Pick) -> None:
    do_claim_wish(flow.state, seat, answer)


def answer_placement(flow: SamuraiFlow, seat: int, asked: Asked, answer: Pick) -> None:
    do_placement(flow.state, seat, answer)


def answer_muster(flow: SamuraiFlow, seat: int, asked: Asked, answer: Any) -> None:
    do_muster(flow.state, seat, answer)


def answer_sword(flow: SamuraiFlow, seat: int, asked: Asked, answer: Pick) -> None:
    """A sealed sword wish (combined steps), or the queued bidder's pick (classic)."""
    if flow.state.options.steps == "combined":
        want_sword(flow.state, seat, answer)
    else:
        answer_task(flow, seat, asked, answer)


def answer_screen(flow: SamuraiFlow, seat: int, asked: Asked, answer: Any) -> None:
    do_screen(flow.state, seat, answer)


def answer_discard(flow: SamuraiFlow, seat: int, asked: Asked, answer: Pick) -> None:
    discard_card(flow.state, flow.events, seat, answer)


def answer_plan(flow: SamuraiFlow, seat: int, asked: Asked, answer: Any) -> None:
    player_of(flow.state, seat).draft["plan"] = check_plan(flow.state, seat, answer)


def answer_spying(flow: SamuraiFlow, seat: int, asked: Asked, answer: Pick) -> None:
    answer_spy(flow.state, seat, answer, flow.events, flow.rng)


def answer_plan_revise(flow: SamuraiFlow, seat: int, asked: Asked, answer: Any) -> None:
    """The spy's holder revises last, so the plans are revealed at once."""
    player_of(flow.state, seat).draft["plan"] = check_plan(flow.state, seat, answer)
    lock_plans(flow.state, flow.events, flow.rng)


def answer_levy(flow: SamuraiFlow, seat: int, asked: Asked, answer: Any) -> None:
    player_of(flow.state, seat).draft["levy"] = check_levy(flow.state, seat, answer)


def answer_place(flow: SamuraiFlow, seat: int, asked: Asked, answer: Pick) -> None:
    do_place(flow.state, seat, answer)


def answer_ronin(flow: SamuraiFlow, seat: int, asked: Asked, answer: Pick) -> None:
    do_ronin(flow.state, seat, answer)


def answer_casualties(flow: SamuraiFlow, seat: int, asked: Asked, answer: Any) -> None:
    choose_losses(flow.state, flow.events, seat, answer, flow.rng)


def answer_ninja_offer(flow: SamuraiFlow, seat: int, asked: Asked, answer: Pick) -> None:
    send_ninja(flow.state, flow.events, seat, answer, flow.rng, from_offer=True)


def answer_units(flow: SamuraiFlow, seat: int, asked: Asked, answer: Any) -> None:
    """Which units go: a garrison's attacking force, a garrison's move, an army's gathering."""
    choose_units(flow.state, flow.events, seat, asked.kind, answer)


def answer_war(flow: SamuraiFlow, seat: int, asked: Asked, answer: Pick) -> None:
    """Any Wage War turn prompt: war_answers' tables by step and by menu."""
    handle_war(flow.state, seat, asked.kind, answer, flow.events, flow.rng)


def look_at_region(flow: SamuraiFlow, seat: int, asked: Asked, answer: object) -> bool:
    """Choosing a region of a paged province list only moves that seat's view of the list;
    any other answer returns the seat's lists to all regions."""
    state = flow.state
    if isinstance(answer, Pick) and answer.act == "region":
        region = answer.region or ""
        if region and region not in content().map.regions:
            raise IllegalChoice(f"there is no region called {region!r}")
        state.nav[str(seat)] = region
        return True
    if state.nav:
        state.nav.pop(str(seat), None)
    return False


# ---------------------------------------------------------------- interrupts


def answer_ninja(flow: SamuraiFlow, seat: int, asked: Asked, answer: Pick) -> None:
    send_ninja(flow.state, flow.events, seat, answer, flow.rng, from_offer=False)


def answer_counter(flow: SamuraiFlow, seat: int, asked: Asked, answer: Pick) -> None:
    strike_back(flow.state, flow.events, seat, flow.state.interrupts[0].data["holder"], answer, flow.rng)


def answer_rebuild(flow: SamuraiFlow, seat: int, asked: Asked, answer: Pick) -> None:
    rebuild(flow.state, flow.events, seat, answer)
