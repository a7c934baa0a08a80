"""Actions 3 to 6 behind the screens: build, levy units and place them, hire and hide
ronin, hire the ninja.

Two paces (option `steps`). "classic" follows the player aid step by step: builds one at a
time in turn order, then everyone levies, then everyone places, then everyone hides ronin,
each a separate wait for every player. "combined" (the default) asks each player for his
whole muster in one sealed sequence: build, levy, place, hide ronin. Nothing one player
does in these actions depends on another's secret choices (units go only to his own
provinces; ronin are hired by the public bins in turn order), so the game can wait for
everyone once instead of four times. The one dependency, castles and fortress bases running
short, is kept exact: when the builders could outnumber the supply, the builds are made one
at a time in turn order first, as in the classic pace.

A seat's draft holds: "build" (None = owed, "" = nothing, or a province), "levy" (the units
bought), "todo"/"placed" (units still to place, placements made), "ronin_todo"/
"ronin_placed" (ronin still to hide, hidings made) and "last" (the kind of the last part
answered, which the sealed review prompt keeps so that a revision is seen as one).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from engine.contract import Event, IllegalChoice, NumberField, Option, Prompt
from engine.kit.events import emit
from engine.kit.prompting import opt
from engine.samurai import losses_order
from engine.samurai.answers import LevyAnswer, Pick
from engine.samurai.board import (
    BEST_FIRST,
    PLURAL,
    active,
    armies_by_spot,
    army_at,
    army_room,
    check_province,
    end_phase,
    garrison_size,
    held_count,
    locked_plan,
    owned,
    paged,
    paged_lazily,
    player_of,
    province_name,
    region_hint,
    regulars_in,
    who,
)
from engine.samurai.content import content
from engine.samurai.state import Army, SamuraiState, no_units, owner_index

LEVY_KINDS = ("spearman", "gunner", "swordsman", "bowman")


# ---------------------------------------------------------------- build


def build_targets(state: SamuraiState, seat: int) -> list[tuple[str, str]]:
    out = []
    for pid in owned(state, seat):
        fort = state.provinces[pid].fort
        if fort == 0 and state.castles > 0:
            out.append((pid, "castle"))
        elif fort == 1 and state.bases > 0:
            out.append((pid, "fortress"))
    return out


def builders(state: SamuraiState) -> list[int]:
    return [seat for seat in active(state) if locked_plan(player_of(state, seat)).build == 2]


def build_short(state: SamuraiState) -> bool:
    """Whether the builders could want more castles or fortress bases than are left: then
    the builds go one at a time in turn order, as the rules serve a short supply."""
    seats = builders(state)
    castle_owners = [seat for seat in seats if any(state.provinces[pid].fort == 1 for pid in owned(state, seat))]
    return len(seats) > state.castles or len(castle_owners) > state.bases


def build_prompt(state: SamuraiState, seat: int, secret: bool) -> Prompt:
    candidates = []
    for pid, what in build_targets(state, seat):
        label = f"{'Castle' if what == 'castle' else 'Fortress'} in {province_name(pid)}"
        candidates.append((pid, opt(f"build:{pid}", label, {"act": "build", "province": pid})))
    forfeit = opt("forfeit", "Build nothing (the 2 koku are lost)", {"act": "forfeit"})
    options = paged(state, seat, candidates, [forfeit])
    default = candidates[0][1].choice if candidates else forfeit.choice
    return Prompt(seat=seat, kind="build", text="Build: place a castle or upgrade a castle to a fortress." + region_hint(state, seat, options),
                  answer=Pick, options=options, secret=secret, default=default)


def check_build(state: SamuraiState, seat: int, answer: Pick) -> str:
    """The province to build in ("" = nothing), if the build can be made."""
    if answer.act == "forfeit":
        return ""
    if answer.act != "build":
        raise IllegalChoice("choose a province to build in, or build nothing")
    pid = check_province(answer.province)
    if pid not in dict(build_targets(state, seat)):
        prov = state.provinces[pid]
        if prov.owner != seat:
            raise IllegalChoice(f"you do not own {province_name(pid)}")
        if prov.fort == 2:
            raise IllegalChoice(f"{province_name(pid)} already has a fortress")
        raise IllegalChoice("no castle or fortress base is left in the supply for that")
    return pid


def make_build(state: SamuraiState, events: list[Event], seat: int, pid: str) -> None:
    if not pid:
        emit(state, "log", events, "info", f"{who(seat)} builds nothing; 2 koku are lost.")
        return
    what = dict(build_targets(state, seat)).get(pid)
    if what is None:
        emit(state, "log", events, "info",
             f"{who(seat)} cannot build in {province_name(pid)} any more: 2 koku are lost.")
        return
    if what == "castle":
        state.castles -= 1
        state.provinces[pid].fort = 1
    else:
        state.bases -= 1
        state.provinces[pid].fort = 2
    emit(state, "log", events, "info", f"{who(seat)} builds a {what} in {province_name(pid)}.")


# ---------------------------------------------------------------- levy and placement


def levy_prompt(state: SamuraiState, seat: int) -> Prompt:
    player = player_of(state, seat)
    budget = player.plan.levy if player.plan else 0
    costs = state.options.levy_costs
    n_prov = held_count(state, seat)
    fields = [NumberField(name=kind, label=f"{PLURAL[kind].capitalize()} ({costs[kind]} koku each)",
                          max=max(0, min(player.tray[kind], n_prov, budget // max(1, costs[kind]))))
              for kind in LEVY_KINDS]
    answered = "levy" in player.draft and state.phase == "levy"
    text = (f"Levy: spend up to {budget} koku on units; at most one unit per province you own "
            f"({n_prov}). Unspent levy koku is lost.")
    return Prompt(seat=seat, kind="levy", text=text, answer=LevyAnswer, input="numbers", fields=fields,
                  secret=True, answered=answered, default=player.draft.get("levy") or no_units())


def check_levy(state: SamuraiState, seat: int, answer: LevyAnswer) -> dict[str, int]:
    player = player_of(state, seat)
    got = answer.model_dump()
    costs = state.options.levy_costs
    budget = player.plan.levy if player.plan else 0
    cost = sum(costs[kind] * count for kind, count in got.items())
    if cost > budget:
        raise IllegalChoice(f"those units cost {cost} koku but your levy bin holds {budget}")
    n_prov = held_count(state, seat)
    if sum(got.values()) > n_prov:
        raise IllegalChoice(f"you may levy at most one unit per province you own ({n_prov})")
    for kind, count in got.items():
        if count > player.tray[kind]:
            raise IllegalChoice(f"only {player.tray[kind]} {PLURAL[kind]} are left in your tray")
    return got


def start_placing(state: SamuraiState, seat: int, levied: dict[str, int]) -> None:
    """The levied units wait behind the screen to be placed, the strongest first."""
    player = player_of(state, seat)
    player.levied = dict(levied)
    player.draft["todo"] = [kind for kind in BEST_FIRST for _ in range(levied[kind])]
    player.draft["placed"] = []


def place_spots(state: SamuraiState, seat: int, kind: str) -> list[tuple[str, str]]:
    """Where a levied unit may go: one new unit per province, garrison or the army there
    (`_spots_in` of every province the seat owns, spelled out: a placement's prompt and the
    heuristic each list some twenty provinces)."""
    draft = player_of(state, seat).draft
    used = {placement[1] for placement in draft.get("placed", [])}
    armies = armies_by_spot(state)
    limit = content().units.limits.garrison
    provinces = state.provinces
    spots = []
    for pid in owner_index(state).owned.get(seat, ()):
        if pid in used:
            continue
        get = provinces[pid].garrison.get
        if get("spearman", 0) + get("gunner", 0) + get("swordsman", 0) + get("bowman", 0) < limit:
            spots.append((pid, "garrison"))
        army = armies.get(pid)
        if army and army[0] == seat and army_room(army[1], kind) > 0:
            spots.append((pid, "army"))
    return spots


def _spots_in(state: SamuraiState, seat: int, kind: str, pid: str, army: tuple[int, Army] | None,
              limit: int) -> list[tuple[str, str]]:
    """`place_spots` in one province the seat owns, ``army`` the army there (`army_at`),
    ``limit`` a garrison's size limit."""
    spots = []
    if garrison_size(state.provinces[pid].garrison) < limit:
        spots.append((pid, "garrison"))
    if army and army[0] == seat and army_room(army[1], kind) > 0:
        spots.append((pid, "army"))
    return spots


def place_prompt(state: SamuraiState, seat: int) -> Prompt:
    """The next levied unit to place (secret), or, with all placed, the sealed review."""
    draft = player_of(state, seat).draft
    todo = draft.get("todo", [])
    undo = opt("undo", "Undo the last placement", {"act": "undo"})
    if not todo:
        keep = opt("keep", "Keep these placements", {"act": "keep"})
        options = [keep] + ([undo] if draft.get("placed") else [])
        return Prompt(seat=seat, kind="place", text="All levied units placed (sealed until everyone is done).",
                      answer=Pick, options=options, secret=True, answered=True, default=keep.choice)
    kind = todo[0]
    spots = place_spots(state, seat, kind)

    def option_at(index: int) -> Option:
        pid, to = spots[index]
        label = (f"{province_name(pid)}: garrison ({garrison_size(state.provinces[pid].garrison)}/5)"
                 if to == "garrison" else f"{province_name(pid)}: army card")
        return opt(f"place:{pid}:{to}", label, {"act": "place", "province": pid, "to": to})

    skip = opt("skip", f"Leave this {kind} in the tray (its koku is lost)", {"act": "skip"})
    back = []
    if draft.get("placed"):
        back = [undo]
    elif "levy" in draft:
        back = [opt("undo", "Change the levy", {"act": "undo"})]
    options = paged_lazily(state, seat, [pid for pid, _ in spots], option_at, back + [skip])
    default = {"act": "place", "province": spots[0][0], "to": spots[0][1]} if spots else skip.choice
    return Prompt(seat=seat, kind="place", text=f"Place your levied {kind} ({len(todo)} left to place).{region_hint(state, seat, options)}",
                  answer=Pick, options=options, secret=True, default=default)


def do_place(state: SamuraiState, seat: int, answer: Pick) -> None:
    draft = player_of(state, seat).draft
    todo: list[str] = draft.setdefault("todo", [])
    placed: list[list[str]] = draft.setdefault("placed", [])
    if answer.act == "keep":
        return
    if answer.act == "undo":
        if not placed and "levy" not in draft:
            raise IllegalChoice("nothing to undo")
        undo_last(state, seat)
        return
    if not todo:
        raise IllegalChoice("all your levied units are placed; undo one first")
    if answer.act == "skip":
        placed.append([todo.pop(0), "", "tray"])
        return
    if answer.act != "place":
        raise IllegalChoice(f"unknown action {answer.act!r} here")
    pid = check_province(answer.province)
    to = answer.to or "garrison"
    kind = todo[0]
    if state.provinces[pid].owner != seat:
        raise IllegalChoice(f"you do not own {province_name(pid)}")
    if any(placement[1] == pid for placement in placed):
        raise IllegalChoice(f"you already place a new unit in {province_name(pid)} (one per province)")
    limit = content().units.limits.garrison
    if (pid, to) not in _spots_in(state, seat, kind, pid, army_at(state, pid), limit):  # place_spots in pid alone
        if to == "army":
            raise IllegalChoice(f"no army of yours in {province_name(pid)} has room for a {kind}")
        raise IllegalChoice(f"the garrison of {province_name(pid)} is full (5 units)")
    placed.append([todo.pop(0), pid, to])


def resolve_place(state: SamuraiState, events: list[Event]) -> None:
    """Every placement is revealed at once; units left in the tray lose their koku."""
    lines = []
    for seat in active(state):
        player = player_of(state, seat)
        for unit, count in player.levied.items():
            player.tray[unit] -= count
        count = 0
        for kind, pid, to in player.draft.get("placed", []):
            if to == "tray":
                player.tray[kind] += 1
                continue
            count += 1
            if to == "army":
                found = army_at(state, pid)
                assert found is not None
                found[1].units[kind] += 1
            else:
                state.provinces[pid].garrison[kind] += 1
        player.levied = no_units()
        for key in ("levy", "todo", "placed"):
            player.draft.pop(key, None)
        if count:
            lines.append(who(seat))
    end_phase(events, state, "Levied units are placed" + (f" ({', '.join(lines)})." if lines else ": nobody levied."),
              kind="levy")


# ---------------------------------------------------------------- ronin


def hire_ronin(state: SamuraiState, events: list[Event]) -> None:
    """Two ronin per koku, from a shared pool of 26, served in turn order."""
    for seat in active(state):
        player = player_of(state, seat)
        want = 2 * locked_plan(player).ronin
        got = min(want, state.ronin_pool)
        state.ronin_pool -= got
        player.ronin_hired = got
        if got:
            player.draft["ronin_todo"] = got
            player.draft["ronin_placed"] = []
        if want:
            emit(state, "log", events, "info",
                 f"{who(seat)} hires {got} ronin" + (" (the pool ran short)" if got < want else "") + ".")


def ronin_spots(state: SamuraiState, seat: int, only: str | None = None) -> list[tuple[str, str, int]]:
    """(province, garrison|army, room): ronin never outnumber the regulars there, counting
    the seat's own new units placed behind the screen but not yet on the board. ``only``: in
    that one province (which the seat owns) alone."""
    draft = player_of(state, seat).draft
    drafted: Counter[str] = Counter()
    for pid, _, count in draft.get("ronin_placed", []):
        drafted[pid] += count
    new_units: Counter[str] = Counter()
    new_in_garrison: Counter[str] = Counter()
    for _, pid, to in draft.get("placed", []):
        if to != "tray":
            new_units[pid] += 1
            new_in_garrison[pid] += to == "garrison"
    out = []
    for pid in owned(state, seat) if only is None else [only]:
        prov = state.provinces[pid]
        found = army_at(state, pid)
        ronin_now = prov.ronin + (found[1].ronin if found else 0) + drafted[pid]
        room = regulars_in(state, pid) + new_units[pid] - 1 - ronin_now
        if room <= 0:
            continue
        if garrison_size(prov.garrison) + new_in_garrison[pid] > 0:
            out.append((pid, "garrison", room))
        if found and found[0] == seat:
            out.append((pid, "army", room))
    return out


def ronin_prompt(state: SamuraiState, seat: int) -> Prompt:
    draft = player_of(state, seat).draft
    todo = draft.get("ronin_todo", 0)
    undo = opt("undo", "Undo the last ronin placement", {"act": "undo"})
    if todo <= 0:
        keep = opt("keep", "Keep these placements", {"act": "keep"})
        options = [keep] + ([undo] if draft.get("ronin_placed") else [])
        return Prompt(seat=seat, kind="ronin", text="All hired ronin placed (hidden from the others).",
                      answer=Pick, options=options, secret=True, answered=True, default=keep.choice)
    candidates = []
    for pid, to, room in ronin_spots(state, seat):
        count = min(room, todo)
        where = "garrison" if to == "garrison" else "army"
        candidates.append((pid, opt(f"ronin:{pid}:{to}", f"{count} ronin to {province_name(pid)} ({where})",
                               {"act": "ronin", "province": pid, "to": to, "count": count})))
    release = opt("release", f"Send the other {todo} ronin away", {"act": "release"})
    back = [undo] if draft.get("ronin_placed") else []
    if not back and (draft.get("placed") or "levy" in draft):
        back = [opt("undo", "Back to the levied units", {"act": "undo"})]
    options = paged(state, seat, candidates, back + [release])
    default = candidates[0][1].choice if candidates else release.choice
    return Prompt(seat=seat, kind="ronin", text=f"Hidden ronin: place {todo} ronin (never as many as your "
                  "regular units in a province).", answer=Pick, options=options, secret=True, default=default)


def do_ronin(state: SamuraiState, seat: int, answer: Pick) -> None:
    draft = player_of(state, seat).draft
    placed: list[list[Any]] = draft.setdefault("ronin_placed", [])
    if answer.act == "keep":
        return
    if answer.act == "undo":
        if not placed and not draft.get("placed") and "levy" not in draft:
            raise IllegalChoice("nothing to undo")
        undo_last(state, seat)
        return
    if draft.get("ronin_todo", 0) <= 0:
        raise IllegalChoice("all your ronin are placed; undo first")
    if answer.act == "release":
        placed.append(["", "away", draft["ronin_todo"]])
        draft["ronin_todo"] = 0
        return
    if answer.act != "ronin":
        raise IllegalChoice(f"unknown action {answer.act!r} here")
    pid = check_province(answer.province)
    to = answer.to or "garrison"
    count = answer.count or 1
    if state.provinces[pid].owner != seat:
        raise IllegalChoice(f"you do not own {province_name(pid)}")
    rooms = {(province, destination): room for province, destination, room in ronin_spots(state, seat, pid)}
    if (pid, to) not in rooms:
        raise IllegalChoice(f"no more ronin fit in {province_name(pid)}: they may never outnumber your units there")
    if count > draft["ronin_todo"]:
        raise IllegalChoice(f"you have only {draft['ronin_todo']} ronin left to place")
    if count > rooms[(pid, to)]:
        raise IllegalChoice(f"only {rooms[(pid, to)]} more ronin fit in {province_name(pid)}")
    placed.append([pid, to, count])
    draft["ronin_todo"] -= count


def resolve_ronin(state: SamuraiState, events: list[Event]) -> None:
    """The ronin go where they were hidden; the single highest ninja bid hires the ninja."""
    for seat in active(state):
        player = player_of(state, seat)
        for pid, to, count in player.draft.get("ronin_placed", []):
            if to == "away":
                state.ronin_pool += count
            elif to == "army":
                found = army_at(state, pid)
                assert found is not None
                found[1].ronin += count
                found[1].ronin_revealed = False
            else:
                state.provinces[pid].ronin += count
                state.provinces[pid].ronin_revealed = False
        player.draft = {}
    bids = {seat: locked_plan(player_of(state, seat)).ninja for seat in active(state)}
    top = max(bids.values(), default=0)
    winners = [seat for seat, bid in bids.items() if bid == top]
    if top > 0 and len(winners) == 1:
        state.ninja = winners[0]
        state.ninja_fresh = True
        text = f"Ronin are hidden. {who(winners[0])} hires the ninja with {top} koku."
    else:
        text = "Ronin are hidden. Nobody hires the ninja" + (" (tied bids)." if top > 0 else ".")
    end_phase(events, state, text, kind="ronin")


# ---------------------------------------------------------------- the combined muster


def undo_last(state: SamuraiState, seat: int) -> None:
    """Take back the latest part of the seat's sealed muster: a ronin hiding, a placement, the
    levy, the build, in that order."""
    player = player_of(state, seat)
    draft = player.draft
    if draft.get("ronin_placed"):
        _, _, count = draft["ronin_placed"].pop()
        draft["ronin_todo"] = draft.get("ronin_todo", 0) + count
    elif draft.get("placed"):
        kind, _, _ = draft["placed"].pop()
        draft["todo"].insert(0, kind)
    elif "levy" in draft:
        for key in ("levy", "todo", "placed"):
            draft.pop(key, None)
        player.levied = no_units()
    elif draft.get("build") is not None:
        draft["build"] = None
    else:
        raise IllegalChoice("nothing to undo")


def start_muster(state: SamuraiState, events: list[Event], builds_inside: bool) -> None:
    """Open the sealed muster of every seat; ronin are hired first (their number is public)."""
    for seat in active(state):
        player = player_of(state, seat)
        player.draft = {}
        if builds_inside and locked_plan(player).build == 2:
            if build_targets(state, seat):
                player.draft["build"] = None
            else:
                emit(state, "log", events, "info", f"{who(seat)} cannot build anything: 2 koku are lost.")
    hire_ronin(state, events)
    state.phase = "muster"


def muster_stage(state: SamuraiState, seat: int) -> str | None:
    """The part of the muster the seat owes next; "review" when it is all sealed; None if the
    seat has nothing to muster this round."""
    player = player_of(state, seat)
    draft = player.draft
    if losses_order.choosing(state, seat):
        return "losses_order"
    if "build" in draft and draft["build"] is None:
        return "build"
    if locked_plan(player).levy > 0 and "levy" not in draft:
        return "levy"
    if draft.get("todo"):
        return "place"
    if draft.get("ronin_todo", 0) > 0:
        return "ronin"
    if locked_plan(player).levy > 0 or "build" in draft or "ronin_placed" in draft:
        return "review"
    return None


def muster_prompt(state: SamuraiState, seat: int) -> Prompt | None:
    stage = muster_stage(state, seat)
    if stage is None:
        return None
    if stage == "build":
        return build_prompt(state, seat, secret=True)
    if stage == "levy":
        return levy_prompt(state, seat)
    if stage == "place":
        return place_prompt(state, seat)
    if stage == "ronin":
        return ronin_prompt(state, seat)
    if stage == "losses_order":
        return losses_order.order_prompt(state, seat)
    draft = player_of(state, seat).draft
    keep = opt("keep", "Keep my muster", {"act": "keep"})
    undo = opt("undo", "Undo the last step", {"act": "undo"})
    options = [keep, undo] + ([losses_order.change_option(state, seat)] if losses_order.offered(state) else [])
    parts = []
    if draft.get("build"):
        parts.append(f"build in {province_name(draft['build'])}")
    placed = [placement for placement in draft.get("placed", []) if placement[2] != "tray"]
    if placed:
        parts.append(f"{len(placed)} new units placed")
    hidden = sum(count for pid, _, count in draft.get("ronin_placed", []) if pid)
    if hidden:
        parts.append(f"{hidden} ronin hidden")
    text = "Muster sealed" + (f" ({'; '.join(parts)})" if parts else "") + " until everyone is done."
    return Prompt(seat=seat, kind=draft.get("last", "place"), text=text, answer=Pick, options=options, secret=True,
                  answered=True, default=keep.choice)


def do_muster(state: SamuraiState, seat: int, answer: Any) -> None:
    stage = muster_stage(state, seat)
    draft = player_of(state, seat).draft
    if stage == "review":
        if answer.act == "undo":
            undo_last(state, seat)
        elif answer.act == "losses" and losses_order.offered(state):
            losses_order.start(state, seat)
        elif answer.act != "keep":
            raise IllegalChoice("keep your muster or undo its last step")
        return
    if stage == "build":
        draft["build"] = check_build(state, seat, answer)
    elif stage == "levy":
        levied = check_levy(state, seat, answer)
        draft["levy"] = levied
        start_placing(state, seat, levied)
    elif stage == "place":
        do_place(state, seat, answer)
    elif stage == "ronin":
        do_ronin(state, seat, answer)
    elif stage == "losses_order":
        losses_order.choose(state, seat, answer)
    draft["last"] = stage


def muster_complete(state: SamuraiState) -> bool:
    return all(muster_stage(state, seat) in (None, "review") for seat in active(state))


def finish_muster(state: SamuraiState, events: list[Event]) -> None:
    """Everyone has sealed: the builds in turn order, then the placements, then the ronin and
    the ninja, each revealed as its own action."""
    lines: list[Event] = []
    for seat in active(state):
        pid = player_of(state, seat).draft.get("build")
        if pid is not None:
            make_build(state, lines, seat, pid)
    events.extend(lines)
    if lines:
        end_phase(events, state, "Build done.", kind="build")
    resolve_place(state, events)
    resolve_ronin(state, events)
