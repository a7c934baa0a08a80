"""A round's frame: it begins (LWTV event cards drawn), it ends (ronin leave, new daimyos,
koku collected, the last round scored). The hand limit on event cards: hand_limit.py."""

from __future__ import annotations

import random
from typing import Any

from engine.contract import Event
from engine.kit.events import emit
from engine.samurai.board import (
    CHEAP_FIRST,
    active,
    army_regulars,
    end_phase,
    garrison_size,
    income,
    owned,
    player_of,
    province_name,
    regulars_in,
    who,
)
from engine.samurai.content import content
from engine.samurai.elimination import destroy_army
from engine.samurai.state import SamuraiState, no_units
from engine.samurai.victory import excess, final_scores


def finish_setup(state: SamuraiState, events: list[Event], rng: random.Random) -> None:
    """Setup is over: the first koku are collected and round 1 begins."""
    for seat in active(state):
        player_of(state, seat).koku = income(state, seat)
    end_phase(events, state, "Setup complete: armies deployed, koku collected.", kind="setup")
    start_round(state, events, rng)


def start_round(state: SamuraiState, events: list[Event], rng: random.Random) -> None:
    """A round starts with empty plans; in LWTV each seat draws an event card first."""
    state.round += 1
    for player in state.players:
        player.plan = None
        player.draft = {}
        player.levied = no_units()
        player.ronin_hired = 0
    emit(state, "log", events, "round", f"Round {state.round} begins.")
    if state.options.mode == "lwtv":
        draw_events(state, events, rng)
    state.phase = "plan"


def draw_events(state: SamuraiState, events: list[Event], rng: random.Random) -> None:
    cards = content().cards
    for seat in active(state):
        if not state.deck:
            state.deck, state.discard = state.discard, []
            rng.shuffle(state.deck)
        if not state.deck:
            return
        card_id = state.deck.pop(0)
        card = cards[card_id]
        if card.kind == "objective":
            player_of(state, seat).hand.append(card_id)
            emit(state, "log", events, "info", f"{who(seat)} draws an event card and keeps it secret.")
            emit(state, "log", events, "card", f"You draw {card.title}: {card.text}", seats=[seat])
            if state.options.edition < 2 and excess(state, seat):  # edition 1: checked on this draw only
                player_of(state, seat).draft["discard"] = True
        else:
            emit(state, "log", events, "card", f"{who(seat)} draws {card.title}: {card.text}")
            apply_event(state, events, seat, card)
            state.discard.append(card_id)


def apply_event(state: SamuraiState, events: list[Event], seat: int, card: Any) -> None:
    player = player_of(state, seat)
    limits = content().units.limits
    if card.effect == "koku":
        player.koku = max(0, player.koku + card.amount)
    elif card.effect == "spearmen":
        spots = sorted((garrison_size(state.provinces[pid].garrison), content().order[pid], pid)
                       for pid in owned(state, seat) if garrison_size(state.provinces[pid].garrison) < limits.garrison)
        for _, _, pid in spots[:card.amount]:
            if player.tray["spearman"] > 0:
                player.tray["spearman"] -= 1
                state.provinces[pid].garrison["spearman"] += 1
    elif card.effect == "castle":
        spots = sorted((-regulars_in(state, candidate), content().order[candidate],
                        candidate) for candidate in owned(state, seat) if not state.provinces[candidate].fort)
        if spots and state.castles > 0:
            state.castles -= 1
            state.provinces[spots[0][2]].fort = 1
            emit(state, "log", events, "info", f"A castle rises in {province_name(spots[0][2])}.")
    elif card.effect == "experience":
        alive = sorted((army.level, army.idx) for army in player.armies if army.alive)
        if alive:
            army = player.armies[alive[0][1]]
            army.level = min(limits.max_level, army.level + 1)
    elif card.effect in ("storm", "desertion"):
        for pid, prov in state.provinces.items():
            if prov.owner is None:
                continue
            stormed = card.effect == "storm" and content().region_of[pid] == card.region \
                and garrison_size(prov.garrison) >= 2
            deserted = card.effect == "desertion" and prov.owner == seat and garrison_size(prov.garrison) >= 4
            hit = stormed or deserted
            if hit:
                for kind in CHEAP_FIRST:
                    if prov.garrison[kind]:
                        prov.garrison[kind] -= 1
                        player_of(state, prov.owner).tray[kind] += 1
                        break


def end_round(state: SamuraiState, events: list[Event], rng: random.Random) -> None:
    """Action 8 (ronin leave, assassinated daimyos replaced) and Action 9 (koku)."""
    state.war = None
    leaving = 0  # every province's ronin, put back in the pool at once; no field set to what it holds
    for prov in state.provinces.values():
        if prov.ronin:
            leaving += prov.ronin
            prov.ronin = 0
        if prov.ronin_revealed:
            prov.ronin_revealed = False
    if leaving:
        state.ronin_pool += leaving
    for player in state.players:
        for army in player.armies:
            if army.ronin:
                state.ronin_pool += army.ronin
                army.ronin = 0
            if army.ronin_revealed:
                army.ronin_revealed = False
            if army.alive and army.assassinated:
                if army_regulars(army) == 0:
                    destroy_army(state, events, player.seat, army, None)
                    continue
                army.assassinated = False
                army.level = 1
                emit(state, "log", events, "info",
                     f"A new daimyo takes command of {who(player.seat)}'s army {army.idx + 1}.")
    if state.phase == "over":
        return
    for seat in active(state):
        player_of(state, seat).koku += income(state, seat)
    end_phase(events, state, f"End of round {state.round}: ronin leave; koku collected: " + ", ".join(
        f"{who(seat)} {player_of(state, seat).koku}" for seat in active(state)), kind="koku")
    if state.options.mode == "lwtv" and state.end_round is not None and state.round >= state.end_round:
        final_scores(state, events, f"the last round ({state.round}) is over")
        return
    if state.options.round_limit is not None and state.round >= state.options.round_limit:
        final_scores(state, events, f"the round limit ({state.round}) is reached")
        return
    start_round(state, events, rng)
