"""The end of a Samurai match: 35 provinces, the last house standing, the round limit, and
LWTV victory points.

LWTV points come in two parts. The public part (provinces, fortifications, enemy armies
destroyed, Kyoto) anyone can count from the board. The objective cards are secret until the
game ends: their points are shown only to their holder, because a public total that included
them would let anyone subtract the visible parts and learn whether a hidden card is met.
"""

from __future__ import annotations

from typing import Any

from engine.contract import Event
from engine.kit.events import emit
from engine.samurai.board import active, end_phase, held_count, owned, player_of, who
from engine.samurai.content import content
from engine.samurai.state import SamuraiState, owner_index

KYOTO = "yamashiro"


def public_vp(state: SamuraiState, seat: int) -> int:
    """Victory points anyone can count on the board."""
    mine = owned(state, seat)
    total = len(mine) + sum(1 for pid in mine if state.provinces[pid].fort) + player_of(state, seat).armies_destroyed
    if state.provinces[KYOTO].owner == seat:
        total += 1
    return total


def hand_limit(state: SamuraiState, seat: int) -> int:
    """LWTV: one event card per living army, one more for the holder of Yamashiro (Kyoto)."""
    count = sum(1 for army in player_of(state, seat).armies if army.alive)
    if state.options.mode == "lwtv" and state.provinces[KYOTO].owner == seat:
        count += 1
    return count


def excess(state: SamuraiState, seat: int) -> int:
    """How many cards the seat's hand holds beyond its limit (0 when it fits)."""
    return max(0, len(player_of(state, seat).hand) - hand_limit(state, seat))


def card_value(state: SamuraiState, seat: int, card_id: str) -> int:
    """What the card would score for its holder now: its vp if met, its penalty if not."""
    card = content().cards[card_id]
    return card.vp if objective_met(state, seat, card) else card.penalty


def lowest_card(state: SamuraiState, seat: int) -> str:
    """The card worth least to its holder now (ties: the first in card id order)."""
    return min(player_of(state, seat).hand, key=lambda card_id: (card_value(state, seat, card_id), card_id))


def objective_vp(state: SamuraiState, seat: int) -> int:
    """Points of the seat's secret objective cards: their vp if met, their penalty if not."""
    cards = content().cards
    total = 0
    for card_id in player_of(state, seat).hand:
        card = cards[card_id]
        if card.kind == "objective":
            total += card.vp if objective_met(state, seat, card) else card.penalty
    return total


def vp(state: SamuraiState, seat: int) -> int:
    """The full total: what the seat itself sees and what the final score counts."""
    return public_vp(state, seat) + objective_vp(state, seat)


def objective_met(state: SamuraiState, seat: int, card: Any) -> bool:
    mine = set(owned(state, seat))
    if card.condition == "province":
        return card.province in mine
    if card.condition == "region":
        return all(pid in mine for pid, region in content().region_of.items() if region == card.region)
    if card.condition == "fortifications":
        return sum(1 for pid in mine if state.provinces[pid].fort) >= card.amount
    if card.condition == "armies":
        return sum(1 for army in player_of(state, seat).armies if army.alive) >= card.amount
    if card.condition == "provinces":
        return len(mine) >= card.amount
    return False


def game_over(state: SamuraiState, events: list[Event], winners: list[int], reason: str,
              scores: dict[int, int]) -> None:
    state.phase = "over"
    state.winners = winners
    state.reason = reason
    state.scores = {str(seat): score for seat, score in scores.items()}
    state.queue = []
    state.interrupts = []
    state.war = None
    for player in state.players:
        player.draft = {}
    end_phase(events, state, f"Game over: {reason}", kind="game_over")


def reveal_objectives(state: SamuraiState, events: list[Event], seats: list[int]) -> None:
    """LWTV scoring: the objective cards are turned face up, so the final totals can be checked."""
    cards = content().cards
    for seat in seats:
        held = [cards[card_id] for card_id in player_of(state, seat).hand if cards[card_id].kind == "objective"]
        if not held:
            continue
        parts = []
        for card in held:
            met = objective_met(state, seat, card)
            points = card.vp if met else card.penalty
            parts.append(f"{card.title} ({'met' if met else 'not met'}, {points:+d})")
        emit(state, "log", events, "objectives",
             f"{who(seat)} reveals objectives: " + "; ".join(parts) + ".",
             data={"seat": seat, "cards": [card.id for card in held]})


def trim_for_scoring(state: SamuraiState, events: list[Event], seats: list[int]) -> None:
    """The final score: a hand still over its limit loses its lowest-valued cards (their values
    are settled now, so that is the holder's best choice)."""
    for seat in seats:
        while excess(state, seat):
            card_id = lowest_card(state, seat)
            player_of(state, seat).hand.remove(card_id)
            state.discard.append(card_id)
            emit(state, "log", events, "info", f"{who(seat)} discards an event card over the hand limit.")


def final_scores(state: SamuraiState, events: list[Event], why: str) -> None:
    if state.options.mode == "lwtv":
        living = [seat for seat in range(state.seats) if not player_of(state, seat).eliminated]
        if state.options.edition >= 2:
            trim_for_scoring(state, events, living)
        reveal_objectives(state, events, living)
        scores = {seat: vp(state, seat) for seat in living}
        what = "victory points"
    else:
        scores = {seat: held_count(state, seat) for seat in active(state)}
        what = "provinces"
    best = max(scores.values())
    winners = sorted(seat for seat, score in scores.items() if score == best)
    game_over(state, events, winners, f"{why}; most {what}: "
              + ", ".join(f"{who(seat)} {scores[seat]}" for seat in sorted(scores)), scores)


def check_win(state: SamuraiState, events: list[Event]) -> None:
    if state.phase == "over":
        return
    players = state.players
    living = [seat for seat in range(state.seats) if not players[seat].eliminated]
    if state.options.mode != "lwtv":
        held = owner_index(state).owned
        needed = state.options.provinces_to_win
        for seat in living:
            count = len(held.get(seat, ()))
            if count >= needed:
                game_over(state, events, [seat], f"{who(seat)} controls {count} provinces and becomes Shogun",
                          {other: held_count(state, other) for other in living})
                return
    if len(living) == 1:
        if state.options.mode == "lwtv":
            final_scores(state, events, "only one house is left")
        else:
            game_over(state, events, living, f"{who(living[0])} is the last daimyo house standing",
                      {living[0]: held_count(state, living[0])})
