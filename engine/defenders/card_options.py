"""What a seat may do on an AP card (its own Defender card or All Defenders): the AP costs,
the option lists its prompt offers, and the cheap checks of whether it can do anything at all
(asked of every seat after every step, so they build no option)."""

from __future__ import annotations

from typing import Any

from engine.contract import Option
from engine.defenders import board, effects, rules
from engine.defenders.board import CAPITAL
from engine.defenders.content import content
from engine.defenders.names import caravans, region_name
from engine.defenders.prompting import MAX_OPTIONS, dname, fit
from engine.defenders.state import Defender, DefendersState
from engine.kit import opt

# ---------------------------------------------------------------------------- costs


def free_move(d: Defender) -> bool:
    """The swift passive's first move of the Turn (no AP) is still open."""
    return not d.moved_free and bool(rules.passive(d, "swift"))


def move_cost(state: DefendersState, d: Defender, to: str, escort: bool = False) -> int:
    """An escort rides only on a regular Move that spends its AP (R: Escorting Caravans): an
    escorting first move pays, and the swift passive's free first move is then used up."""
    return (0 if not escort and free_move(d) else 1) + leaving_cost(state, d) + arriving_cost(state, to)


def leaving_cost(state: DefendersState, d: Defender) -> int:
    """What leaving `d`'s place adds to any move: a storm there, the hostile Forest's grip."""
    frm = d.region
    if frm == CAPITAL:
        return 0
    region = state.regions[frm]
    cost = 1 if region.storm else 0
    if frm == "forest" and region.war and region.side == "hostile" and region.threat > 0:
        cost += 1
    return cost


def arriving_cost(state: DefendersState, to: str) -> int:
    """What entering ``to`` adds to any move: a storm there, the boss's fog."""
    cost = 1 if to != CAPITAL and state.regions[to].storm else 0
    boss = state.boss
    if boss.revealed and boss.region == to and content().boss(boss.key).passive == "fog":
        cost += 1
    return cost


# ---------------------------------------------------------------------------- option lists


def defender_actions(state: DefendersState, d: Defender, own_card: bool, compact: bool = False) -> list[Option]:
    """Everything `d` may do on a card that gives them AP (their own card or All Defenders).
    `compact` offers one escort count per road (as many as possible) to fit a crowded prompt.
    The sections come in a fixed order (`SECTIONS`); an answer is checked against its own
    act's section alone (answer_check.py)."""
    assert state.active is not None
    ap = state.active.ap
    return (movement_options(state, d, ap, compact) + secure_options(state, d, ap) + fight_options(state, d, ap)
            + prepare_options(state, d, ap, own_card) + ability_options(state, d, own_turn=True, ap=ap))


Movement = tuple[str, str, int, int]
"""One movement a Defender may make: its act ("fly" or "move"), where to, the Caravans escorted
and its AP cost."""


def movement_options(state: DefendersState, d: Defender, ap: int, compact: bool = False,
                     only_to: object = None) -> list[Option]:
    """Flights (riding the Manticore) or moves, with the escorts each road allows; with
    ``only_to``, just those to that place."""
    out: list[Option] = []
    n = dname(d)
    for act, to, escort, cost in movements(state, d, ap, compact, only_to):
        place = region_name(state, to)
        if act == "fly":
            out.append(opt(f"fly:{d.idx}:{to}", f"{n}: fly the Manticore to {place} (1 AP)",
                           {"act": "fly", "d": d.idx, "to": to}))
        elif not escort:
            price = "free first move" if cost == 0 else f"{cost} AP"
            out.append(opt(f"move:{d.idx}:{to}", f"{n}: move to {place} ({price})",
                           {"act": "move", "d": d.idx, "to": to, "escort": 0}))
        else:
            out.append(opt(f"move:{d.idx}:{to}:{escort}",
                           f"{n}: move to {place} escorting {caravans(escort)} ({cost} AP, {escort} XP)",
                           {"act": "move", "d": d.idx, "to": to, "escort": escort}))
    return out


def movement_choices(state: DefendersState, d: Defender, ap: int, only_to: object = None) -> list[dict[str, Any]]:
    """The choices of `movement_options` (not compact), without their labels."""
    return [{"act": "fly", "d": d.idx, "to": to} if act == "fly" else {"act": "move", "d": d.idx, "to": to, "escort": escort}
            for act, to, escort, _cost in movements(state, d, ap, only_to=only_to)]


def movements(state: DefendersState, d: Defender, ap: int, compact: bool = False, only_to: object = None) -> list[Movement]:
    """What `movement_options` offers, in its order: every flight, or every affordable road and
    then the escorts it allows (as many as possible alone when ``compact``)."""
    out: list[Movement] = []
    here = d.region
    if d.riding:
        if ap >= 1:
            out.extend(("fly", to, 0, 1) for to in [CAPITAL, *state.ring]
                       if to != here and (only_to is None or to == only_to))
        return out
    region = None if here == CAPITAL else state.regions[here]
    escorts = region is not None and region.caravans and d.xp
    first = 0 if free_move(d) else 1
    leaving = leaving_cost(state, d)
    for to in board.adjacent(state, here):
        if only_to is not None and to != only_to:
            continue
        extra = leaving + arriving_cost(state, to)
        cost = first + extra
        if cost > ap:
            continue
        out.append(("move", to, 0, cost))
        if not escorts:
            continue
        assert region is not None
        regular = 1 + extra
        if regular <= ap:
            # Any number may be escorted; three counts keep the prompt within Discord's 25 options.
            out.extend(("move", to, escort, regular) for escort in escort_counts(region.caravans, d.xp, compact))
    return out


def escort_counts(caravans_here: int, xp: int, compact: bool = False) -> list[int]:
    """The escort counts offered on a road: 1, 2 and as many as possible (the last alone when
    compact)."""
    most = min(caravans_here, xp)
    return [most] if compact else sorted({1, min(2, most), most})


def secure_open(state: DefendersState, d: Defender, ap: int) -> bool:
    """Whether `d` may Secure (or clear a storm) where they stand: `secure_options` offers it."""
    here = d.region
    if here == CAPITAL:
        return False
    region = state.regions[here]
    return ap >= 1 and d.hp > 0 and not region.destroyed and (region.threat > 0 or region.storm)


def secure_options(state: DefendersState, d: Defender, ap: int) -> list[Option]:
    if not secure_open(state, d, ap):
        return []
    here = d.region
    region = state.regions[here]
    extra = rules.passive(d, "secure_bonus")
    what = "clear the storm" if region.storm else f"Secure {min(region.threat, 1 + extra)} Threat"
    return [opt(f"secure:{d.idx}", f"{dname(d)}: {what} in {region_name(state, here)} (1 AP)",
                {"act": "secure", "d": d.idx})]


def fight_open(state: DefendersState, d: Defender, ap: int) -> bool:
    """Whether `d` may Fight the boss: `fight_options` offers it."""
    boss = state.boss
    return ap >= 1 and d.hp > 0 and boss.revealed and boss.region == d.region and boss.hp > rules.boss_floor(state)


def fight_options(state: DefendersState, d: Defender, ap: int) -> list[Option]:
    if not fight_open(state, d, ap):
        return []
    boss = state.boss
    dmg = 1 + rules.passive(d, "fight_bonus")
    return [opt(f"fight:{d.idx}", f"{dname(d)}: Fight {content().boss(boss.key).name} ({dmg} damage, 1 AP)",
                {"act": "fight", "d": d.idx})]


def prepare_open(d: Defender, ap: int, own_card: bool) -> bool:
    """Whether `d` may Prepare (only on their own card): `prepare_options` offers it."""
    return own_card and ap >= 1 and d.xp < rules.XP_MAX


def prepare_options(state: DefendersState, d: Defender, ap: int, own_card: bool) -> list[Option]:
    if not prepare_open(d, ap, own_card):
        return []
    return [opt(f"prepare:{d.idx}", f"{dname(d)}: Prepare, 1 AP for 1 XP ({d.xp} XP now)",
                {"act": "prepare", "d": d.idx})]


def ability_options(state: DefendersState, d: Defender, own_turn: bool, ap: int,
                    only_src: object = None) -> list[Option]:
    """Level Up and the usable abilities; with ``only_src``, just the ability of that source
    (and Level Up)."""
    out: list[Option] = []
    n = dname(d)
    if d.xp >= rules.XP_MAX:
        out.append(opt(_level_value(d), f"{n}: Level up (8 XP: a new skill and full HP)",
                       {"act": "level", "d": d.idx}))
    for src, ab in effects.usable_sources(state, d, own_turn, ap, only_src):
        out.append(opt(_use_value(d, src), f"{n}: {ab.name}",
                       {"act": "use", "d": d.idx, "src": src}, ab.text))
    return out


def _level_value(d: Defender) -> str:
    return f"level:{d.idx}"


def _use_value(d: Defender, src: str) -> str:
    return f"use:{d.idx}:{src}"


def ability_values(state: DefendersState, d: Defender, own_turn: bool, ap: int) -> list[str]:
    """The values of `ability_options` (as `opt` cuts them), without building the options:
    whether a seat said "Not now" to these very options is read from them."""
    out = [_level_value(d)[:50]] if d.xp >= rules.XP_MAX else []
    out.extend(_use_value(d, src)[:50] for src, _ in effects.usable_sources(state, d, own_turn, ap))
    return out


def ability_choices(state: DefendersState, d: Defender, own_turn: bool, ap: int,
                    only_src: object = None) -> list[dict[str, Any]]:
    """The choices of `ability_options`, without their labels (an answer is checked against
    them: answer_check.py)."""
    out: list[dict[str, Any]] = [{"act": "level", "d": d.idx}] if d.xp >= rules.XP_MAX else []
    out.extend({"act": "use", "d": d.idx, "src": src} for src, _ in effects.usable_sources(state, d, own_turn, ap, only_src))
    return out


def card_defenders(state: DefendersState, seat: int) -> tuple[list[Defender], list[Defender]]:
    """A seat's Defenders on the current AP card: those who take its actions (the card's own
    Defender, or all of the seat's on All Defenders) and those who may only use abilities."""
    act = state.active
    assert act is not None
    mine = state.of_seat(seat)
    if act.card != "defender":
        return mine, []
    active = state.defenders[act.defender or 0]
    return ([active] if active.seat == seat else []), [d for d in mine if d.idx != active.idx]


def seat_card_options(state: DefendersState, seat: int) -> list[Option]:
    """A seat's answers on the current AP card (their own card or All Defenders)."""
    act = state.active
    assert act is not None
    main, others = card_defenders(state, seat)
    def collect(compact: bool) -> dict[int, list[Option]]:
        per = {d.idx: defender_actions(state, d, act.card == "defender", compact) for d in main}
        for d in others:
            per[d.idx] = ability_options(state, d, own_turn=False, ap=act.ap)
        return per

    per = collect(False)
    if sum(map(len, per.values())) + 1 > MAX_OPTIONS:
        per = collect(True)
    end = (opt("end", "End the Turn", {"act": "end"}) if act.card == "defender"
           else opt("pass", "Pass (leave the rest to the others)", {"act": "pass"}))
    flat = [o for opts in per.values() for o in opts]
    if len(flat) + 1 <= MAX_OPTIONS or len(per) < 2:
        return fit(flat, [end])
    focus = act.focus.get(str(seat), next(iter(per)))
    switch = [opt(f"focus:{i}", f"Show {dname(state.defenders[i])}'s actions", {"act": "focus", "d": i})
              for i in per if i != focus]
    return fit(per[focus], switch + [end])


def seat_card_choices(state: DefendersState, seat: int) -> list[dict[str, Any]] | None:
    """The choices of `seat_card_options`, in its order, without building an option (their
    labels name places and Defenders): what the heuristic scores. None when the options do not
    fit one prompt uncut (`seat_card_options` then shortens them: read its options)."""
    act = state.active
    assert act is not None
    main, others = card_defenders(state, seat)
    ap = act.ap
    own_card = act.card == "defender"
    flat: list[dict[str, Any]] = []
    for d in main:
        idx = d.idx
        flat += movement_choices(state, d, ap)
        if secure_open(state, d, ap):
            flat.append({"act": "secure", "d": idx})
        if fight_open(state, d, ap):
            flat.append({"act": "fight", "d": idx})
        if prepare_open(d, ap, own_card):
            flat.append({"act": "prepare", "d": idx})
        flat += ability_choices(state, d, own_turn=True, ap=ap)
    for d in others:
        flat += ability_choices(state, d, own_turn=False, ap=ap)
    if len(flat) + 1 > MAX_OPTIONS:
        return None
    flat.append({"act": "end"} if own_card else {"act": "pass"})
    return flat


PASSING = ("end", "pass", "focus")


def has_action(options: list[Option]) -> bool:
    """Whether a card prompt offers anything but ending, passing or switching focus."""
    return any(o.choice["act"] not in PASSING for o in options)


def idle_on_card(state: DefendersState, seat: int) -> bool:
    """On the current AP card this seat could only pass (or end): it is not asked.

    Asked of every seat after every step, so it looks for one action without building the
    options; only when the seat's shown Defender (``focus``) has none while another has some
    does it build them, since a crowded prompt then shows the focused Defender's alone."""
    act = state.active
    assert act is not None
    main, others = card_defenders(state, seat)
    if not main and not others:
        return True
    own_card = act.card == "defender"
    if len(main) + len(others) == 1:
        # One Defender: the prompt lists its options alone, whichever it shows.
        return not (defender_can_act(state, main[0], own_card) if main
                    else abilities_open(state, others[0], own_turn=False, ap=act.ap))
    able = {d.idx: defender_can_act(state, d, own_card) for d in main}
    for d in others:
        able[d.idx] = abilities_open(state, d, own_turn=False, ap=act.ap)
    focus = act.focus.get(str(seat), next(iter(able)))
    if able.get(focus):
        return False
    if not any(able.values()):
        return True
    return not has_action(seat_card_options(state, seat))


def defender_can_act(state: DefendersState, d: Defender, own_card: bool) -> bool:
    """Whether `defender_actions` offers `d` anything, without building a single option (the
    cheapest checks first: any one will do)."""
    assert state.active is not None
    ap = state.active.ap
    if own_card and ap >= 1 and d.xp < rules.XP_MAX:
        return True
    here = d.region
    region = None if here == CAPITAL else state.regions[here]
    if ap >= 1 and d.hp > 0 and region is not None and not region.destroyed and (region.threat > 0 or region.storm):
        return True
    if d.riding:
        if ap >= 1 and any(to != here for to in [CAPITAL, *state.ring]):
            return True
    else:
        leaving = leaving_cost(state, d)
        # A paid first move and arriving (at most a storm and the fog) cost at most 3 AP more
        # than leaving: with that to spare any road will do.
        if leaving + 3 <= ap:
            return True
        least = (0 if free_move(d) else 1) + leaving
        if least + 2 <= ap or (least <= ap and any(least + arriving_cost(state, to) <= ap
                                                   for to in board.adjacent(state, here))):
            return True
    boss = state.boss
    if ap >= 1 and d.hp > 0 and boss.revealed and boss.region == here and boss.hp > rules.boss_floor(state):
        return True
    return abilities_open(state, d, own_turn=True, ap=ap)


def abilities_open(state: DefendersState, d: Defender, own_turn: bool, ap: int) -> bool:
    """Whether `ability_options` offers `d` anything, without building a single option."""
    if d.xp >= rules.XP_MAX:
        return True
    return next(effects.usable_sources(state, d, own_turn, ap), None) is not None
