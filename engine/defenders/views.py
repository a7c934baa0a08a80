"""What players see (docs/design/defenders-view.md).

Hidden from everyone: the Turn Deck's order, the Horde, the caravan pile, the face-down boss of
this and later battles, and the Skill and Artifact decks. Only their sizes are shown. Each part
is built into its view model (engine/defenders/view_models.py), the allow-list; the contract
sends the model's dump.
"""

from __future__ import annotations

from typing import Any

from engine.defenders import actions, board, names, rules
from engine.defenders.content import content
from engine.defenders.state import DefendersState
from engine.defenders.view_models import (
    ActiveView,
    ArtifactView,
    AttackView,
    CapitalView,
    CaravansView,
    CardInPlay,
    DeckView,
    DefenderView,
    HiddenBoss,
    PublicView,
    RegionView,
    ResultView,
    RevealedBoss,
    SeatView,
    SkillView,
    WarView,
    You,
)
from engine.view_model import PromptView


def phase_label(state: DefendersState) -> str:
    if state.phase == "setup":
        return "Setup - choose your first skills"
    if state.phase == "over":
        return ("Victory" if state.won else "Defeat") + f" - {state.reason}"
    if state.phase == "rebuild":
        return f"After battle {state.battle} - Rebuild, Regroup, Reconcile"
    head = f"Battle {state.battle} - Round {state.round}"
    if state.attacks:
        attack = state.attacks[0]
        return f"{head} - {attack.source} attack {names.region_name(state, attack.region)}"
    current = current_view(state)
    if current is not None:
        return f"{head} - {current.name}"
    return head


def region_view(state: DefendersState, key: str) -> RegionView:
    c = content()
    region = state.regions[key]
    if region.war:
        war = c.war_region(key)
        name, terrain = war.name, key.capitalize()
        ability = war.hostile_name if region.side == "hostile" else war.friendly_name
        text = war.hostile_text if region.side == "hostile" else war.friendly_text
    else:
        card = c.region(key)
        side = card.a if region.side == "A" else card.b
        name, terrain, ability, text = card.name, key.capitalize(), side.ability.name, side.ability.text
    return RegionView(
        pos=region.pos, key=key, name=name, terrain=terrain, side=region.side, war=region.war,
        ability=ability, ability_text=text, threat=region.threat, max_threat=state.options.outer_max,
        destroyed=region.destroyed, caravans=region.caravans, ward=region.wards > 0, storm=region.storm,
        fleet_die=region.fleet_die, adjacent=board.adjacent(state, key),
    )


def defender_view(state: DefendersState, idx: int) -> DefenderView:
    c = content()
    defender = state.defenders[idx]
    card = c.defender(defender.key)
    return DefenderView(
        idx=defender.idx, seat=defender.seat, key=defender.key, name=card.name, region=defender.region,
        hp=defender.hp, max_hp=rules.max_hp(defender), xp=defender.xp, xp_max=rules.XP_MAX,
        exhausted=defender.hp == 0, death_tokens=defender.death_tokens, in_tree=defender.in_tree,
        riding=defender.riding, shield=defender.shield, ability=card.ability.name, ability_text=card.ability.text,
        artifacts=[ArtifactView(key=key, name=c.artifact(key).name, slot=c.artifact(key).slot,
                                text=c.artifact(key).ability.text) for key in defender.artifacts],
        skills=[SkillView(key=key, name=c.skill(key).name, cost=c.skill(key).ability.xp,
                          text=c.skill(key).ability.text, own_turn=c.skill(key).ability.own_turn)
                for key in defender.skills],
    )


def boss_view(state: DefendersState) -> RevealedBoss | HiddenBoss:
    boss = state.boss
    if not boss.revealed:
        return HiddenBoss(kind=boss.kind, revealed=False)
    card = content().boss(boss.key)
    return RevealedBoss(kind=boss.kind, revealed=True, key=boss.key, name=card.name, hp=boss.hp, max_hp=boss.max_hp,
                        region=boss.region, text=f"{card.round_text} {card.passive_text}",
                        held=boss.hp == 1 and not rules.all_home(state))


def current_view(state: DefendersState) -> CardInPlay | None:
    card = state.current
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
        name = c.defender(state.defenders[int(card[2:])].key).name  # the card's kind says "Defender card"
    return CardInPlay(kind=kind, name=name, regions=regions)


def _public(state: DefendersState) -> dict[str, Any]:
    """The public view's fields, parts already typed."""
    active = state.active
    attack = state.attacks[0] if state.attacks else None
    manticore: str | int = state.manticore
    if state.manticore.startswith("rider:"):
        manticore = int(state.manticore[6:])
    return {
        "game": "defenders", "mode": state.options.mode, "difficulty": state.options.difficulty,
        "battle": state.battle, "battles": 3 if state.options.mode == "campaign" else 1,
        "round": state.round, "phase": phase_name(state), "phase_label": phase_label(state),
        "capital": CapitalView(name=content().capital.name, threat=state.capital_threat,
                               destruction=state.options.destruction, caravans=state.capital_caravans),
        "ring": [region_view(state, key) for key in state.ring],
        "war": WarView(fleet_dice=state.fleet_dice, storms=state.storms, tree=state.tree, manticore=manticore,
                       soldiers=state.soldiers,
                       deserters=state.turn_deck.count("deserter") + state.discard.count("deserter"),
                       death_tokens=state.death_tokens),
        "defenders": [defender_view(state, defender.idx) for defender in state.defenders],
        "boss": boss_view(state),
        "deck": DeckView(turn=len(state.turn_deck), discard=len(state.discard), horde=len(state.horde),
                         round_cards=len(state.turn_deck) + len(state.discard) + (1 if state.current else 0),
                         current=current_view(state)),
        "caravans": CaravansView(pile=len(state.caravan_pile), home=state.capital_caravans, total=rules.CARAVANS,
                                 on_map={key: region.caravans for key, region in state.regions.items()
                                         if region.caravans}),
        "active": None if active is None else ActiveView(card=active.card, defender=active.defender, ap=active.ap,
                                                         passed=list(active.passed)),
        "attack": None if attack is None else AttackView(
            region=attack.region, source=attack.source, dire=attack.kind == "dire",
            cost=min((rules.defend_cost(state, defender, attack) for defender in state.defenders), default=0),
            declined=list(attack.declined)),
        "prompts": [PromptView(**prompt.public()) for prompt in actions.prompts(state)],
        "log": list(state.log),
        "result": None if state.phase != "over" else ResultView(won=bool(state.won), reason=state.reason),
    }


def public_view_model(state: DefendersState) -> PublicView:
    """The public view, typed."""
    return PublicView(**_public(state))


def public_view(state: DefendersState) -> dict[str, Any]:
    """The public view as the JSON dict the contract sends."""
    return public_view_model(state).model_dump()


def phase_name(state: DefendersState) -> str:
    if state.phase in ("setup", "rebuild", "over"):
        return state.phase
    if state.artifact_offer is not None:
        return "artifact"
    if state.attacks:
        return "defend"
    if state.active is not None:
        return state.active.card if state.active.card == "all" else "turn"
    return "turn"


def seat_view_model(state: DefendersState, seat: int) -> SeatView:
    """The public view plus the seat and its Defenders, typed."""
    you = You(seat=seat, defenders=[defender.idx for defender in state.of_seat(seat)])
    return SeatView(**_public(state), you=you)


def seat_view(state: DefendersState, seat: int) -> dict[str, Any]:
    """The seat view as the JSON dict the contract sends."""
    return seat_view_model(state, seat).model_dump()
