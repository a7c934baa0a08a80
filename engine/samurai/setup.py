"""Setup: the province deal, starting spearmen, swords, army screens and the queue of
sequential setup decisions (spearman placements, QS claims, army deployment)."""

from __future__ import annotations

from engine.rng import rng_for
from engine.samurai.casualties import LOSS_KINDS
from engine.samurai.content import content
from engine.samurai.state import Army, Player, Prov, SamuraiOptions, SamuraiState, Task
from engine.text import seat_ref

BASE_DEAL = {3: 22, 4: 17, 5: 13}
QS_DEAL = {3: 16, 4: 11, 5: 7}
SETUP_TURNS = 6
NEUTRAL = ("yamashiro", "settsu")
"""LWTV: Kyoto and Osaka start as neutral fortresses."""
QS_TROOPS = {"quickstart": {"bowman": 5, "swordsman": 5, "gunner": 6},
             "lwtv": {"bowman": 2, "swordsman": 4, "gunner": 5}}
BASE_ARMY = {"spearman": 0, "gunner": 2, "swordsman": 1, "bowman": 1}


def standing_order(options: SamuraiOptions) -> list[str]:
    """The losses order a player starts with: the deadline default's, which he may change in
    any muster; none (asked in each battle) with losses="asked" or the classic steps."""
    if options.losses == "standing" and options.steps == "combined" and options.edition >= 2:
        return list(LOSS_KINDS)
    return []


def deal_count(mode: str, seats: int) -> int:
    """Cards dealt per player. LWTV deals from 66 cards, so the QS count is cut to fit:
    the dealt cards plus six claims each must not exceed 66."""
    if mode == "base":
        return BASE_DEAL[seats]
    if mode == "quickstart":
        return QS_DEAL[seats]
    return min(QS_DEAL[seats], (68 - len(NEUTRAL)) // seats - SETUP_TURNS)


def setup_state(seats: int, options: SamuraiOptions, seed: int) -> SamuraiState:
    game = content()
    rng = rng_for(seed, 0, "setup")
    units = game.units
    state = SamuraiState(seed=seed, seats=seats, options=options, phase="setup")
    state.castles = units.fortifications["castle"].supply
    state.bases = units.fortifications["fortress"].supply
    state.ronin_pool = units.units["ronin"].supply
    state.provinces = {pid: Prov() for pid in game.map.ids}
    cards = list(game.map.ids)
    if options.mode == "lwtv":
        for pid in NEUTRAL:
            cards.remove(pid)
            state.provinces[pid] = Prov(fort=2, neutral=True)
            state.castles -= 1
            state.bases -= 1
    rng.shuffle(cards)
    count = deal_count(options.mode, seats)
    for seat in range(seats):
        tray = {kind: units.units[kind].supply for kind in ("spearman", "gunner", "swordsman", "bowman")}
        player = Player(seat=seat, tray=tray, losses_order=standing_order(options))
        tray = player.tray
        for pid in cards[seat * count:(seat + 1) * count]:
            state.provinces[pid].owner = seat
            state.provinces[pid].garrison["spearman"] = 1
            tray["spearman"] -= 1
        player.armies = [Army(idx=index, location=None) for index in range(3)]
        if options.mode == "base":
            for army in player.armies:
                army.units = dict(BASE_ARMY)
                for kind, amount in BASE_ARMY.items():
                    tray[kind] -= amount
        state.players.append(player)
    order = list(range(seats))
    rng.shuffle(order)
    state.order = order
    for pos, seat in enumerate(order):
        state.players[seat].sword = pos + 1
    if options.setup == "classic":
        per_turn = ["spear", "spear"] if options.mode == "base" else ["claim", "spear", "spear"]
        for _ in range(SETUP_TURNS):
            for seat in order:
                state.queue.extend(Task(seat=seat, task=task) for task in per_turn)
    else:
        state.phase = "placement" if options.mode == "base" else "claims"
    if options.mode == "lwtv":
        state.deck = [card.id for card in game.events.cards]
        rng.shuffle(state.deck)
    state.log = [f"Setup: {count} provinces dealt to each player; swords drawn: "
              + ", ".join(seat_ref(seat) for seat in order)]
    return state
