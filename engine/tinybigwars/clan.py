"""The Clan Phase: energy and location effects, coins, recruiting, building, Building cards.

The phase machine in ``rules`` asks these functions for prompts and hands them answers;
it ends the phase once every clan is done.
"""

from __future__ import annotations

from engine.contract import Event, IllegalChoice, NumberField, Option, Prompt
from engine.kit import emit, opt
from engine.text import seat_ref
from engine.tinybigwars.answers import BuildAnswer, ClanAnswer, RecruitAnswer
from engine.tinybigwars.board import (
    ability_for,
    build_cost,
    build_sites,
    charter_sites,
    controlled,
    hero_card,
    income,
    loc_card,
    loc_name,
    recruit_sites,
)
from engine.tinybigwars.state import LOG_FIELD, TBWState
from engine.words import counted


def begin(s: TBWState, events: list[Event], presence: dict[str, list[int]] | None = None) -> None:
    """Start of the Clan Phase: energy, location effects, coins; clans with nothing to do are done.

    Who controls what is read once (``presence``: the state's, when the caller has it):
    nothing here moves a unit off a location or onto one another clan holds (a free minion
    joins its own clan's hold).
    """
    owners = {node: seats[0] if len(seats) == 1 else None
              for node, seats in (s.presence() if presence is None else presence).items()}
    held: dict[int, list[str]] = {clan.seat: [] for clan in s.seats}
    for node, owner in owners.items():
        if owner is not None:
            held[owner].append(node)

    def ability(node: str, seat: int) -> str | None:
        return loc_card(s, node).ability if owners.get(node) == seat else None

    for h in s.heroes:
        if h.activated:
            h.activated = False
    for clan in s.seats:
        clan.activations, clan.passed, clan.clan_done, clan.pending, clan.pending_location = 0, False, False, None, None
    for h in s.heroes:
        if h.defeated:
            continue
        card = hero_card(h)
        gain = 2 if card.ability == "double_energy" else 1
        here = ability(h.location or "", h.seat)
        if here == "clan_energy":
            gain += 1
        if here == "clan_heal":
            h.health = min(card.health, h.health + 1)
        h.energy = min(card.max_energy, h.energy + gain)
    for node, owner in owners.items():
        if owner is not None and ability(node, owner) == "free_minion" and s.heroes_at(node, owner):
            s.loc(node).minions[owner] += 1
    for clan in s.seats:
        clan.coins = 0 if clan.eliminated else income(s, clan.seat, held[clan.seat])
        maybe_done(s, clan.seat, held[clan.seat])
    emit(
        s,
        LOG_FIELD,
        events,
        "clan_start",
        f"Round {s.round}: heroes gain energy; coins: "
        + ", ".join(f"{seat_ref(clan.seat)} {clan.coins}" for clan in s.seats),
        data={"coins": [clan.coins for clan in s.seats]},
    )


def maybe_done(s: TBWState, seat: int, held: list[str] | None = None) -> None:
    """A clan with nothing left to spend and no Building card to place is done (``held``:
    the seat's `controlled` locations, when the caller has them)."""
    clan = s.seats[seat]
    if held is None and (clan.coins > 0 or clan.charters):
        held = controlled(s, seat)
    if (clan.coins <= 0 or not recruit_sites(s, seat, held)) and not (clan.charters and charter_sites(s, seat, held)):
        clan.clan_done = True


def clan_prompt(s: TBWState, seat: int) -> Prompt:
    clan = s.seats[seat]
    if clan.pending == "recruit":
        node = clan.pending_location or ""
        per = 2 if ability_for(s, node, seat) == "recruit_double" else 1
        return Prompt(
            seat=seat,
            kind="recruit",
            text=f"How many coins to spend recruiting at {loc_name(s, node)} ({per} minion per coin)?",
            answer=RecruitAnswer,
            input="numbers",
            fields=[NumberField(name="count", label="Coins to spend", min=1, max=clan.coins)],
            default={"count": clan.coins},
        )
    if clan.pending == "build":
        node = clan.pending_location or ""
        opts: list[Option] = [
            opt("dojo", "Dojo", {"infrastructure": "dojo"}, "+1 influence"),
            opt("market", "Market", {"infrastructure": "market"}, "+1 coin"),
            opt("watchtower", "Watchtower", {"infrastructure": "watchtower"}, "+1 die when defending here"),
        ]
        return Prompt(
            seat=seat,
            kind="build",
            text=f"Build which infrastructure at {loc_name(s, node)} ({counted(build_cost(s, node, seat), 'coin')})?",
            answer=BuildAnswer,
            options=opts,
            default={"infrastructure": "dojo"},
        )
    opts = []
    held = controlled(s, seat)
    builds = set(build_sites(s, seat, held))
    places = set(charter_sites(s, seat, held)) if clan.charters else set()
    for node in recruit_sites(s, seat, held)[: 8 if places else 12]:
        name = loc_name(s, node)
        if clan.coins > 0:
            opts.append(
                opt(f"recruit:{node}", f"Recruit at {name}", {"action": "recruit", "location": node},
                    "1 coin per recruit")
            )
        if node in builds:
            opts.append(
                opt(f"build:{node}", f"Build at {name}", {"action": "build", "location": node},
                    f"{counted(build_cost(s, node, seat), 'coin')}: Dojo, Market or Watchtower")
            )
        if node in places:
            infrastructure = clan.charters[0].title()
            opts.append(
                opt(f"charter:{node}", f"Place your {infrastructure} at {name}",
                    {"action": "charter", "location": node}, "Your Building card: free, once")
            )
    opts.append(opt("done", "Done", {"action": "done"}, "Unspent coins are lost"))
    return Prompt(
        seat=seat,
        kind="clan",
        text=f"Clan Phase: you have {counted(clan.coins, 'coin')}"
        + (f" and a {clan.charters[0].title()} to place" if clan.charters else "")
        + ". Recruit, build, or finish.",
        answer=ClanAnswer,
        options=opts,
        default={"action": "done"},
    )


def submit_clan(s: TBWState, seat: int, ans: ClanAnswer, events: list[Event]) -> None:
    clan = s.seats[seat]
    if ans.action == "done":
        if ans.location is not None:
            raise IllegalChoice("Finishing the Clan Phase takes no location.")
        clan.clan_done = True
        emit(s, LOG_FIELD, events, "clan_done", f"{seat_ref(seat)} finishes the Clan Phase.")
    else:
        node = ans.location
        if node is None or node not in {loc.id for loc in s.locations}:
            raise IllegalChoice("Name a location of the city.")
        if ans.action == "charter":
            _place_charter(s, seat, node, events)
            return
        if clan.coins <= 0:
            raise IllegalChoice("You have no coins to spend.")
        held = controlled(s, seat)
        if node not in recruit_sites(s, seat, held):
            raise IllegalChoice(f"You can only spend coins at a location you control with one of your heroes, not {loc_name(s, node)}.")
        if ans.action == "build" and node not in build_sites(s, seat, held):
            if s.loc(node).infrastructure is not None:
                raise IllegalChoice(f"{loc_name(s, node)} already has infrastructure.")
            raise IllegalChoice(f"You cannot build at {loc_name(s, node)}: it needs one of your heroes and {build_cost(s, node, seat)} coins.")
        clan.pending, clan.pending_location = ans.action, node


def submit_recruit(s: TBWState, seat: int, ans: RecruitAnswer, events: list[Event]) -> None:
    clan = s.seats[seat]
    node = clan.pending_location or ""
    if ans.count < 1 or ans.count > clan.coins:
        raise IllegalChoice(f"Spend between 1 and {clan.coins} coins; you have {clan.coins}.")
    per = 2 if ability_for(s, node, seat) == "recruit_double" else 1
    s.loc(node).minions[seat] += ans.count * per
    clan.coins -= ans.count
    clan.pending, clan.pending_location = None, None
    emit(s, LOG_FIELD, events, "recruit", f"{seat_ref(seat)} recruits {counted(ans.count * per, 'minion')} at {loc_name(s, node)}.")
    maybe_done(s, seat)


def submit_build(s: TBWState, seat: int, ans: BuildAnswer, events: list[Event]) -> None:
    clan = s.seats[seat]
    node = clan.pending_location or ""
    clan.coins -= build_cost(s, node, seat)
    s.loc(node).infrastructure = ans.infrastructure
    clan.pending, clan.pending_location = None, None
    emit(
        s,
        LOG_FIELD,
        events,
        "build",
        f"{seat_ref(seat)} builds a {ans.infrastructure.title()} at {loc_name(s, node)}.",
        data={"seat": seat, "location": node, "infrastructure": ans.infrastructure},
    )
    maybe_done(s, seat)


def _place_charter(s: TBWState, seat: int, node: str, events: list[Event]) -> None:
    """Build the Building card's infrastructure for free where the clan could build."""
    clan = s.seats[seat]
    if not clan.charters:
        raise IllegalChoice("You have no Building card left to place.")
    if node not in charter_sites(s, seat):
        if s.loc(node).infrastructure is not None:
            raise IllegalChoice(f"{loc_name(s, node)} already has infrastructure.")
        raise IllegalChoice(f"Place it at a location you control with one of your heroes, not {loc_name(s, node)}.")
    infrastructure = clan.charters.pop(0)
    s.loc(node).infrastructure = infrastructure
    emit(
        s,
        LOG_FIELD,
        events,
        "build",
        f"{seat_ref(seat)} plays a Building card: a free {infrastructure.title()} at {loc_name(s, node)}.",
        data={"seat": seat, "location": node, "infrastructure": infrastructure, "charter": True},
    )
    maybe_done(s, seat)
