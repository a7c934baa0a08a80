"""The standing losses order a player keeps behind his screen (option losses="standing").

When he defends in another player's turn, his units fall kind by kind in this order, so the
game need not wait for him in the middle of that turn (two handoffs each time: to him and
back). It is his own choice, made ahead: the muster's sealed review offers to change it, one
kind at a time ("which kind falls first?"), or to be asked in every battle instead. A player
who never changes it keeps the deadline default's order (ronin, spearmen, gunners,
swordsmen, bowmen), the choice the game made for a defender who did not answer in time.
The fortification's defenders still fall first and the daimyo last.
"""

from __future__ import annotations

from engine.contract import IllegalChoice, Option, Prompt
from engine.kit.prompting import opt
from engine.samurai.answers import Pick
from engine.samurai.board import player_of
from engine.samurai.casualties import LOSS_KINDS, NAMES
from engine.samurai.state import SamuraiState

DRAFT = "losses_order"
"""The draft key holding the order being chosen (present only while it is)."""


def offered(state: SamuraiState) -> bool:
    """Whether the muster offers the standing order (the option and the combined steps)."""
    options = state.options
    return options.losses == "standing" and options.steps == "combined" and options.edition >= 2


def order_text(order: list[str]) -> str:
    return ", ".join(NAMES[kind] for kind in order) if order else "asked in each battle"


def change_option(state: SamuraiState, seat: int) -> Option:
    """The review's option that starts choosing the order anew."""
    now = order_text(player_of(state, seat).losses_order)
    return opt("losses", "Change my losses order", {"act": "losses"},
               description=f"now: {now}")


def start(state: SamuraiState, seat: int) -> None:
    player_of(state, seat).draft[DRAFT] = []


def choosing(state: SamuraiState, seat: int) -> bool:
    return DRAFT in player_of(state, seat).draft


def order_prompt(state: SamuraiState, seat: int) -> Prompt:
    """The next kind of the order being chosen (sealed, like the rest of the muster)."""
    picked: list[str] = player_of(state, seat).draft[DRAFT]
    left = [kind for kind in LOSS_KINDS if kind not in picked]
    options = [opt(f"fall:{kind}", f"{NAMES[kind].capitalize()}", {"act": "fall", "unit": kind}) for kind in left]
    if not picked:
        options.append(opt("ask", "Ask me in every battle", {"act": "ask"},
                           description="the game waits for your choice after each combat step"))
        text = ("Your losses order, used when you defend in another player's turn (fortification "
                "defenders still fall first, your daimyo last): which units fall first?")
    else:
        text = f"Losses order so far: {order_text(picked)}. Which units fall next?"
    return Prompt(seat=seat, kind="losses_order", text=text, answer=Pick, options=options, secret=True,
                  default=options[0].choice)


def choose(state: SamuraiState, seat: int, answer: Pick) -> None:
    """One pick of the order; with one kind left it is complete and replaces the old one."""
    player = player_of(state, seat)
    picked: list[str] = player.draft[DRAFT]
    if answer.act == "ask" and not picked:
        player.losses_order = []
        del player.draft[DRAFT]
        return
    left = [kind for kind in LOSS_KINDS if kind not in picked]
    if answer.act != "fall" or answer.unit not in left:
        raise IllegalChoice("choose which of the units left fall next: " + ", ".join(NAMES[kind] for kind in left))
    picked.append(answer.unit)
    if len(picked) == len(LOSS_KINDS) - 1:
        player.losses_order = picked + [kind for kind in LOSS_KINDS if kind not in picked]
        del player.draft[DRAFT]
