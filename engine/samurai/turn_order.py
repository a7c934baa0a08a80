"""Action 2, the swords, at the "combined" pace: every bidder names the sword he wants at
the same time, sealed, instead of choosing one after another.

The bidders are served in the order the rules give them (highest bid first, ties by the
seeded draw made when the plans were revealed): each gets the sword he named if it is still
free, else the free sword nearest to it, the earlier of two equally near. Most bidders want
to act first or last, and for them this gives what choosing in turn would; the classic pace
(option `steps`) keeps the choice one bidder at a time.
"""

from __future__ import annotations

from engine.contract import Event, IllegalChoice, Prompt
from engine.kit.events import emit
from engine.kit.prompting import opt
from engine.samurai.answers import Pick
from engine.samurai.board import active, locked_plan, player_of, who
from engine.samurai.state import SamuraiState


def sealed_sword_prompt(state: SamuraiState, seat: int) -> Prompt:
    count = len(active(state))
    wanted = player_of(state, seat).draft.get("sword")
    bid = locked_plan(player_of(state, seat)).swords
    options = [opt(f"sword:{position}", f"Sword {position}" + (" (acts first)" if position == 1 else " (acts last)" if position == count else ""),
                   {"act": "sword", "position": position}) for position in range(1, count + 1)]
    text = (f"You bid {bid} koku: name the sword you want. Bidders are served from the highest bid; "
            "if yours is taken you get the nearest free one.")
    if wanted is not None:
        text = f"You asked for sword {wanted} (sealed until every bidder has chosen). Choose again to change."
    return Prompt(seat=seat, kind="sword", text=text, answer=Pick, options=options, secret=True,
                  answered=wanted is not None, default={"act": "sword", "position": wanted or 1})


def want_sword(state: SamuraiState, seat: int, answer: Pick) -> None:
    count = len(active(state))
    if answer.act != "sword" or answer.position is None:
        raise IllegalChoice("choose a sword by its position")
    if not 1 <= answer.position <= count:
        raise IllegalChoice(f"there are swords 1 to {count}, not {answer.position}")
    player_of(state, seat).draft["sword"] = answer.position


def swords_sealed(state: SamuraiState) -> bool:
    return all("sword" in player_of(state, seat).draft for seat in state.sword_bidders)


def serve_swords(state: SamuraiState, events: list[Event]) -> None:
    """Give every bidder, in bid order, the sword he named or the nearest free one."""
    free = list(range(1, len(active(state)) + 1))
    for seat in state.sword_bidders:
        player = player_of(state, seat)
        wanted = player.draft.pop("sword")
        got = min(free, key=lambda position: (abs(position - wanted), position))
        free.remove(got)
        player.sword = got
        emit(state, "log", events, "info", f"{who(seat)} asked for sword {wanted} and takes sword {got}.")
