"""Board queries shared by the phases, combat and views: control, income, influence, abilities."""

from __future__ import annotations

from engine.text import seat_ref
from engine.tinybigwars.content import HeroCard, LocationCard, content
from engine.tinybigwars.state import CARD_DEALS, Hero, Location, TBWState, hero_index


def hero_card(hero: Hero) -> HeroCard:
    return content().heroes[hero.card]


_LAST_CARDS: list[tuple[list[Location], int, int, dict[str, LocationCard]] | None] = [None]
"""The locations list asked of last, its length, `CARD_DEALS` then, and each location's card
by id: a match keeps its list and its cards all along (the rules never deal a card again),
and rules, prompts and the heuristic ask a location's card tens of times a choice."""


def loc_card(state: TBWState, node: str) -> LocationCard:
    locations = state.locations
    last = _LAST_CARDS[0]
    if last is None or last[0] is not locations or last[1] != len(locations) or last[2] != CARD_DEALS[0]:
        cards = content().locations
        last = _LAST_CARDS[0] = (locations, len(locations), CARD_DEALS[0],
                                 {loc.id: cards[loc.card] for loc in locations})
    return last[3][node]


def loc_name(state: TBWState, node: str) -> str:
    return loc_card(state, node).name


def hero_name(hero: Hero) -> str:
    return f"{hero_card(hero).name} ({seat_ref(hero.seat)})"


def ability_for(state: TBWState, node: str, seat: int) -> str | None:
    """The location's ability if ``seat`` controls it; contested or foreign = none."""
    if state.controller(node) != seat:
        return None
    return loc_card(state, node).ability


def controlled(state: TBWState, seat: int) -> list[str]:
    """The locations where ``seat`` alone has units (``presence`` is ``[seat]``), in map order;
    one pass that builds no seat list per location (rules ask it several times a choice)."""
    if isinstance(state, TBWState):
        return _controlled(state, seat)
    return [node for node, seats in state.presence().items()  # the AI's snapshot
            if len(seats) == 1 and seats[0] == seat]


def _controlled(state: TBWState, seat: int) -> list[str]:
    with_heroes = hero_index(state).seats
    others = [other for other in range(state.seats_n) if other != seat]
    out = []
    for loc in state.locations:
        minions = loc.minions
        heroes = with_heroes.get(loc.id)
        if heroes is None:
            if minions[seat] > 0 and not any(minions[other] > 0 for other in others):
                out.append(loc.id)
        elif (minions[seat] > 0 or seat in heroes) and not any(
                minions[other] > 0 or other in heroes for other in others):
            out.append(loc.id)
    return out


def influence(state: TBWState, seat: int, held: list[str] | None = None) -> int:
    """Influence of controlled locations, Dojos and the Sky Temple bonus included (``held``:
    the seat's `controlled` locations, when the caller has them)."""
    total = 0
    for node in controlled(state, seat) if held is None else held:
        card = loc_card(state, node)
        total += card.influence + (1 if state.loc(node).infrastructure == "dojo" else 0)
        if card.ability == "hero_influence" and state.heroes_at(node, seat):
            total += 1
    return total


def location_influence(state: TBWState, node: str) -> int:
    return influence_at(loc_card(state, node), state.loc(node))


def influence_at(card: LocationCard, location: Location) -> int:
    """A location's influence, its Dojo's included (for a caller that holds both already)."""
    return card.influence + (1 if location.infrastructure == "dojo" else 0)


def location_coins(state: TBWState, node: str) -> int:
    return coins_at(loc_card(state, node), state.loc(node))


def coins_at(card: LocationCard, location: Location) -> int:
    """A location's coins, its Market's included (for a caller that holds both already)."""
    return card.coin + (1 if location.infrastructure == "market" else 0)


def income(state: TBWState, seat: int, held: list[str] | None = None) -> int:
    """Coins of the Clan Phase: controlled locations, Markets and coin abilities (``held``:
    the seat's `controlled` locations, when the caller has them)."""
    total = 0
    for node in controlled(state, seat) if held is None else held:
        total += location_coins(state, node)
        if loc_card(state, node).ability == "hero_coin" and state.heroes_at(node, seat):
            total += 1
    total += sum(1 for h in state.live_heroes(seat) if hero_card(h).ability == "clan_coin")
    return total


def recruit_sites(state: TBWState, seat: int, held: list[str] | None = None) -> list[str]:
    """Controlled locations holding one of the seat's heroes (or the Open Gate)."""
    out = []
    for node in controlled(state, seat) if held is None else held:
        if state.heroes_at(node, seat) or loc_card(state, node).ability == "recruit_no_hero":
            out.append(node)
    return out


def build_cost(state: TBWState, node: str, seat: int) -> int:
    return 1 if ability_for(state, node, seat) == "build_discount" else 2


def build_sites(state: TBWState, seat: int, held: list[str] | None = None) -> list[str]:
    coins = state.seats[seat].coins
    return [
        node
        for node in (controlled(state, seat) if held is None else held)
        if state.heroes_at(node, seat)
        and state.loc(node).infrastructure is None
        and coins >= build_cost(state, node, seat)
    ]


def charter_sites(state: TBWState, seat: int, held: list[str] | None = None) -> list[str]:
    """Where the clan may place its Building card's infrastructure: a controlled location with
    one of its heroes and no infrastructure (no coins needed)."""
    return [
        node
        for node in (controlled(state, seat) if held is None else held)
        if state.heroes_at(node, seat) and state.loc(node).infrastructure is None
    ]


def units(state: TBWState, node: str, seat: int) -> int:
    return state.loc(node).minions[seat] + len(state.heroes_at(node, seat))

