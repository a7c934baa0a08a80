"""What players see (docs/design/defenders-view.md).

Hidden from everyone: the Turn Deck's order, the Horde, the caravan pile, the face-down boss of
this and later battles, and the Skill and Artifact decks. Only their sizes are shown.
"""

from __future__ import annotations

from typing import Any

from engine.defenders import actions, board, names, rules
from engine.defenders.content import content
from engine.defenders.state import DefendersState


def phase_label(st: DefendersState) -> str:
    if st.phase == "setup":
        return "Setup - choose your first skills"
    if st.phase == "over":
        return ("Victory" if st.won else "Defeat") + f" - {st.reason}"
    if st.phase == "rebuild":
        return f"After battle {st.battle} - Rebuild, Regroup, Reconcile"
    head = f"Battle {st.battle} - Round {st.round}"
    if st.attacks:
        a = st.attacks[0]
        return f"{head} - {a.source} attack {names.region_name(st, a.region)}"
    current = current_view(st)
    if current is not None:
        return f"{head} - {current['name']}"
    return head


def region_view(st: DefendersState, key: str) -> dict[str, Any]:
    c = content()
    r = st.regions[key]
    if r.war:
        w = c.war_region(key)
        name, terrain = w.name, key.capitalize()
        ability = w.hostile_name if r.side == "hostile" else w.friendly_name
        text = w.hostile_text if r.side == "hostile" else w.friendly_text
    else:
        reg = c.region(key)
        side = reg.a if r.side == "A" else reg.b
        name, terrain, ability, text = reg.name, key.capitalize(), side.ability.name, side.ability.text
    return {
        "pos": r.pos, "key": key, "name": name, "terrain": terrain, "side": r.side, "war": r.war,
        "ability": ability, "ability_text": text, "threat": r.threat, "max_threat": st.options.outer_max,
        "destroyed": r.destroyed, "caravans": r.caravans, "ward": r.wards > 0, "storm": r.storm,
        "fleet_die": r.fleet_die, "adjacent": board.adjacent(st, key),
    }


def defender_view(st: DefendersState, idx: int) -> dict[str, Any]:
    c = content()
    d = st.defenders[idx]
    card = c.defender(d.key)
    return {
        "idx": d.idx, "seat": d.seat, "key": d.key, "name": card.name, "region": d.region,
        "hp": d.hp, "max_hp": rules.max_hp(d), "xp": d.xp, "xp_max": rules.XP_MAX, "exhausted": d.hp == 0,
        "death_tokens": d.death_tokens, "in_tree": d.in_tree, "riding": d.riding, "shield": d.shield,
        "ability": card.ability.name, "ability_text": card.ability.text,
        "artifacts": [{"key": a, "name": c.artifact(a).name, "slot": c.artifact(a).slot,
                       "text": c.artifact(a).ability.text} for a in d.artifacts],
        "skills": [{"key": s, "name": c.skill(s).name, "cost": c.skill(s).ability.xp,
                    "text": c.skill(s).ability.text, "own_turn": c.skill(s).ability.own_turn} for s in d.skills],
    }


def boss_view(st: DefendersState) -> dict[str, Any]:
    b = st.boss
    if not b.revealed:
        return {"kind": b.kind, "revealed": False}
    card = content().boss(b.key)
    return {"kind": b.kind, "revealed": True, "key": b.key, "name": card.name, "hp": b.hp, "max_hp": b.max_hp,
            "region": b.region, "text": f"{card.round_text} {card.passive_text}",
            "held": b.hp == 1 and not rules.all_home(st)}


def current_view(st: DefendersState) -> dict[str, Any] | None:
    card = st.current
    if card is None:
        return None
    c = content()
    kind = {"d": "defender", "e": "enemy", "x": "dire"}.get(card[:1], card) if ":" in card else card
    regions: list[str] = []
    if card.startswith("e:"):
        regions = list(c.enemy(card[2:]).regions)
    elif card.startswith("x:"):
        regions = [c.dire_card(card[2:]).region]
    elif card == "deserter":
        regions = ["plains"]
    name = names.card_name(card)
    if card.startswith("d:"):
        name = f"Defender card: {c.defender(st.defenders[int(card[2:])].key).name}"
    return {"kind": kind, "name": name, "regions": regions}


def public_view(st: DefendersState) -> dict[str, Any]:
    c = content()
    act = st.active
    attack = st.attacks[0] if st.attacks else None
    on_map = {k: r.caravans for k, r in st.regions.items() if r.caravans}
    prompts = actions.prompts(st)
    manticore: str | int = st.manticore
    if st.manticore.startswith("rider:"):
        manticore = int(st.manticore[6:])
    return {
        "game": "defenders", "mode": st.options.mode, "difficulty": st.options.difficulty,
        "battle": st.battle, "battles": 3 if st.options.mode == "campaign" else 1,
        "round": st.round, "phase": phase_name(st), "phase_label": phase_label(st),
        "capital": {"name": c.capital.name, "threat": st.capital_threat,
                    "destruction": st.options.destruction, "caravans": st.capital_caravans},
        "ring": [region_view(st, k) for k in st.ring],
        "war": {"fleet_dice": st.fleet_dice, "storms": st.storms, "tree": st.tree, "manticore": manticore,
                "soldiers": st.soldiers, "deserters": st.turn_deck.count("deserter") + st.discard.count("deserter"),
                "death_tokens": st.death_tokens},
        "defenders": [defender_view(st, d.idx) for d in st.defenders],
        "boss": boss_view(st),
        "deck": {"turn": len(st.turn_deck), "discard": len(st.discard), "horde": len(st.horde),
                 "round_cards": len(st.turn_deck) + len(st.discard) + (1 if st.current else 0),
                 "current": current_view(st)},
        "caravans": {"pile": len(st.caravan_pile), "home": st.capital_caravans, "total": rules.CARAVANS,
                     "on_map": on_map},
        "active": None if act is None else {"card": act.card, "defender": act.defender, "ap": act.ap,
                                            "passed": list(act.passed)},
        "attack": None if attack is None else {
            "region": attack.region, "source": attack.source, "dire": attack.kind == "dire",
            "cost": min((rules.defend_cost(st, d, attack) for d in st.defenders), default=0),
            "declined": list(attack.declined)},
        "prompts": [p.public() for p in prompts],
        "log": list(st.log),
        "result": None if st.phase != "over" else {"won": bool(st.won), "reason": st.reason},
    }


def phase_name(st: DefendersState) -> str:
    if st.phase in ("setup", "rebuild", "over"):
        return st.phase
    if st.artifact_offer is not None:
        return "artifact"
    if st.attacks:
        return "defend"
    if st.active is not None:
        return st.active.card if st.active.card == "all" else "turn"
    return "turn"


def seat_view(st: DefendersState, seat: int) -> dict[str, Any]:
    view = public_view(st)
    view["you"] = {"seat": seat, "defenders": [d.idx for d in st.of_seat(seat)]}
    return view
