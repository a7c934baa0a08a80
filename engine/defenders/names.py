"""How the Defenders engine names things in prompts and events: Defenders with their seat,
regions by their current side, Turn Deck cards, Caravan counts."""

from __future__ import annotations

from functools import lru_cache

from engine.defenders.board import CAPITAL
from engine.defenders.content import content
from engine.defenders.state import Defender, DefendersState
from engine.text import seat_ref


def caravans(n: int) -> str:
    return f"{n} Caravan" + ("" if n == 1 else "s")


def who(d: Defender) -> str:
    return _who(d.key, d.seat)


@lru_cache(maxsize=256)
def _who(key: str, seat: int) -> str:
    """`who` of a Defender card and seat (named in most events: worked out once)."""
    return f"{content().defender(key).name} ({seat_ref(seat)})"


def region_name(state: DefendersState, key: str) -> str:
    if key == CAPITAL:
        return content().capital.name
    r = state.regions[key]
    c = content()
    return c.war_region(key).name if r.war else c.region(key).name


def card_name(card: str) -> str:
    c = content()
    if card.startswith("d:"):
        return "Defender card"
    if card == "all":
        return "All Defenders card"
    if card.startswith("e:"):
        return f"Enemy: {c.enemy(card[2:]).name}"
    if card.startswith("x:"):
        return f"Dire Enemy: {c.dire_card(card[2:]).name}"
    return {"soldier": "Soldier card", "deserter": "Deserter card"}[card]
