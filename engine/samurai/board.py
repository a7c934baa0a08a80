"""Small board facts and helpers every part of the Samurai phase machine uses: who owns
what, unit counts in holders, event lines, option lists that fit one Discord select."""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping

from engine.contract import Event, IllegalChoice, Option
from engine.kit.events import emit
from engine.kit.prompting import opt
from engine.samurai.content import content
from engine.samurai.state import Army, Plan, Player, SamuraiState, army_index, owner_index
from engine.text import seat_ref

MAX_OPTIONS = 25
CHEAP_FIRST = ("spearman", "gunner", "swordsman", "bowman")
BEST_FIRST = ("bowman", "swordsman", "gunner", "spearman")
SAMURAI = ("bowman", "swordsman")
ASHIGARU = ("spearman", "gunner")
PLURAL = {"spearman": "spearmen", "gunner": "gunners", "swordsman": "swordsmen", "bowman": "bowmen"}



def province_name(pid: str) -> str:
    """The province's name (event lines name provinces thousands of times a match)."""
    return _names()[pid]


@functools.cache
def _names() -> dict[str, str]:
    return content().names


def who(seat: int | None) -> str:
    return "nobody" if seat is None else seat_ref(seat)


def player_of(state: SamuraiState, seat: int) -> Player:
    return state.players[seat]


def locked_plan(player: Player) -> Plan:
    """The seat's plan of this round, which the steps after Plan read; asked for before the
    plans lock, it is a phase machine bug, not a player's mistake."""
    if player.plan is None:
        raise RuntimeError(f"seat {player.seat} has no locked plan this round")
    return player.plan


def active(state: SamuraiState) -> list[int]:
    """Seats still in the game, in turn order."""
    return [seat for seat in state.order if not state.players[seat].eliminated]


def owned(state: SamuraiState, seat: int) -> list[str]:
    """The provinces ``seat`` holds, in the map's order (from the owner index: no scan)."""
    return list(owner_index(state).owned.get(seat, ()))


def held_count(state: SamuraiState, seat: int | None) -> int:
    """How many provinces ``seat`` holds (None: the unoccupied ones)."""
    return len(owner_index(state).owned.get(seat, ()))


def garrison_size(garrison: dict[str, int]) -> int:
    """Regular units in a holder. Spelled out (REGULAR's four kinds) because prompts call
    it hundreds of times per choice; a generator sum was a tenth of a random match."""
    get = garrison.get
    return get("spearman", 0) + get("gunner", 0) + get("swordsman", 0) + get("bowman", 0)


def army_province(army: Army) -> str:
    """Where an army on the board stands; an army off the board (lost, not yet deployed) has
    no moves, attacks or menus, so asking is a phase machine bug."""
    if army.location is None:
        raise RuntimeError(f"army {army.idx + 1} is not on the board")
    return army.location


def army_regulars(army: Army) -> int:
    """`garrison_size` of the army's units, spelled out (asked of every army many times a
    choice)."""
    get = army.units.get
    return get("spearman", 0) + get("gunner", 0) + get("swordsman", 0) + get("bowman", 0)


def army_at(state: SamuraiState, pid: str) -> tuple[int, Army] | None:
    """The living army in ``pid`` and its seat (from the army index: no scan)."""
    return army_index(state).get(pid)


def armies_by_spot(state: SamuraiState) -> Mapping[str, tuple[int, Army]]:
    """`army_at` of every province holding a living army (the army index: read it, never
    change it), for a caller that asks of many provinces."""
    return army_index(state)


def regulars_in(state: SamuraiState, pid: str) -> int:
    """Regular units standing in a province (garrison + army, daimyo included)."""
    count = garrison_size(state.provinces[pid].garrison)
    found = army_at(state, pid)
    if found:
        count += army_regulars(found[1]) + 1
    return count


def army_room(army: Army, kind: str) -> int:
    limits = content().units.limits
    units = army.units
    if kind in SAMURAI:
        return limits.army_samurai - units["bowman"] - units["swordsman"]  # SAMURAI's two kinds
    return limits.army_ashigaru - units["spearman"] - units["gunner"]  # ASHIGARU's


def income(state: SamuraiState, seat: int) -> int:
    count = max(3, held_count(state, seat) // 3)
    if state.options.mode == "lwtv" and state.provinces["settsu"].owner == seat:
        count += 1
    return count


def incomes(state: SamuraiState) -> dict[int, int]:
    """`income` of every seat, read from the owner index."""
    held = owner_index(state).owned
    bonus = state.provinces["settsu"].owner if state.options.mode == "lwtv" else None
    return {seat: max(3, len(held.get(seat, ())) // 3) + (1 if seat == bonus else 0) for seat in range(state.seats)}


def end_phase(events: list[Event], state: SamuraiState, text: str, kind: str = "phase") -> None:
    emit(state, "log", events, kind, text, phase_end=True)


def units_text(units: dict[str, int]) -> str:
    parts = [f"{count} {kind}" for kind, count in units.items() if count]
    return ", ".join(parts) or "none"


def paged(state: SamuraiState, seat: int, candidates: list[tuple[str, Option]],
          extras: list[Option]) -> list[Option]:
    """Fit a long province list into one select: group by region, then list one region."""
    return paged_lazily(state, seat, [pid for pid, _ in candidates], lambda index: candidates[index][1], extras)


def paged_lazily(state: SamuraiState, seat: int, pids: list[str], option_at: Callable[[int], Option],
                 extras: list[Option]) -> list[Option]:
    """`paged` of the candidates ``pids`` (a province may stand twice), the option of the
    ``index``-th built by ``option_at(index)`` only if it is listed: a long list shows
    regions, not its options, and prompts are built once or more a choice."""
    if len(pids) + len(extras) <= MAX_OPTIONS:
        return [option_at(index) for index in range(len(pids))] + extras
    region_of = content().region_of
    region = state.nav.get(str(seat), "")
    inside = [option_at(index) for index, pid in enumerate(pids) if region_of[pid] == region] if region else []
    if inside:
        back = opt("region:", "Back to all regions", {"act": "region", "region": ""})
        return (inside + [back] + extras)[:MAX_OPTIONS]
    members: dict[str, list[str]] = {}
    for pid in pids:
        names = members.setdefault(region_of[pid], [])
        if province_name(pid) not in names:
            names.append(province_name(pid))
    groups = [opt(f"region:{name}", f"{name}: {len(members[name])} province{'s' if len(members[name]) != 1 else ''}",
                  {"act": "region", "region": name}, listed(members[name], 100))
              for name in content().map.regions if name in members]
    return (groups + extras)[:MAX_OPTIONS]


def listed(names: list[str], limit: int) -> str:
    """Names joined by commas within `limit` characters; "and N more" says what did not fit."""
    text = ", ".join(names)
    for shown in range(len(names) - 1, 0, -1):
        if len(text) <= limit:
            break
        text = ", ".join(names[:shown]) + f" and {len(names) - shown} more"
    return text[:limit]


def region_hint(state: SamuraiState, seat: int, options: list[Option]) -> str:
    """What a paged province list asks first: a region (named on the map), or a province in the region chosen."""
    if any(entry.choice.get("act") == "region" and entry.choice.get("region") for entry in options):
        return " Pick the region first (the map names the eight regions); each lists your provinces in it."
    region = state.nav.get(str(seat), "")
    if region and any(entry.choice.get("act") == "region" for entry in options):
        return f" Provinces in {region}:"
    return ""


def check_province(pid: str | None) -> str:
    if pid is None:
        raise IllegalChoice("name a province")
    if pid not in content().provinces:
        raise IllegalChoice(f"there is no province called {pid!r}")
    return pid


def vacate_if_empty(state: SamuraiState, pid: str) -> None:
    """A province with no unit left is unoccupied; lone ronin leave with it."""
    prov = state.provinces[pid]
    if prov.owner is not None and regulars_in(state, pid) == 0:
        prov.owner = None
        state.ronin_pool += prov.ronin
        prov.ronin = 0
        prov.ronin_revealed = False


def deploy_targets(state: SamuraiState, seat: int) -> list[str]:
    spots = armies_by_spot(state)
    return [pid for pid in owned(state, seat) if pid not in spots]
