"""What a Samurai Swords seat may know (engine/information.py).

Open: the board, garrisons, army markers, koku, revealed plans and ronin. Hidden from the
other seats, and so replaced by a canonical value in a seat's information state:

- another seat's sealed choices (its draft, its standing losses order, the losses it chose
  in a battle before they are revealed): cleared;
- what stands behind another seat's screen: its armies' units are put back in its tray, so
  the tray holds what the table can count (the supply less the garrisons) without telling
  which army holds what; hidden ronin (in armies or in provinces) count 0, what was levied
  and hired this round is forgotten;
- the event cards nobody has shown: other hands, the discard (discards are face down) and
  the deck form one sorted pool dealt back in that order, pile sizes kept;
- the match seed (it fixes every future roll and the deck): a public stand-in;
- the list-narrowing choices of other seats' menus.

The spied plan the ninja holder saw lives in its private events, not in the state; the
information state leaves it out (less than the seat knows, never more).
"""

from __future__ import annotations

import random

from engine.clone import clone
from engine.information import deal_back, public_seed, shuffled, sorted_pool
from engine.samurai.board import army_room
from engine.samurai.state import Player, SamuraiState, no_units


def _others(state: SamuraiState, seat: int) -> list[Player]:
    return [player for player in state.players if player.seat != seat]


def information(state: SamuraiState, seat: int) -> SamuraiState:
    """``state`` as ``seat`` may know it."""
    info = clone(state)
    info.seed = public_seed(state.seed)
    others = _others(info, seat)
    hands = [player.hand for player in others]
    piles = deal_back(sorted_pool(info.deck, info.discard, *hands),
                      [len(hand) for hand in hands] + [len(info.discard), len(info.deck)])
    for player, hand in zip(others, piles, strict=False):
        player.hand = hand
    info.discard, info.deck = piles[-2], piles[-1]
    for player in others:
        player.draft = {}
        player.losses_order = []
        player.levied = no_units()
        player.ronin_hired = 0
        for army in player.armies:
            for kind, count in army.units.items():
                player.tray[kind] = player.tray.get(kind, 0) + count
            army.units = dict.fromkeys(army.units, 0)
            if not army.ronin_revealed:
                army.ronin = 0
    for prov in info.provinces.values():
        if prov.owner != seat and not prov.ronin_revealed:
            prov.ronin = 0
    key = str(seat)
    info.nav = {key: info.nav[key]} if key in info.nav else {}
    battle = info.war.battle if info.war is not None else None
    if battle is not None and battle.pending is not None:
        pending = battle.pending
        pending.chosen = {side: losses for side, losses in pending.chosen.items() if pending.owed.get(side) == seat}
    return info


def determinize(info: SamuraiState, seat: int, rng: random.Random) -> SamuraiState:
    """A full state consistent with ``info``: the unseen event cards dealt at random, each
    other seat's hidden units spread at random over its living armies (within their limits)
    and fresh dice. Cleared sealed choices stay unanswered: a rollout asks for them again."""
    world = clone(info)
    world.seed = rng.getrandbits(63)
    others = _others(world, seat)
    hands = [player.hand for player in others]
    piles = deal_back(shuffled(sorted_pool(world.deck, world.discard, *hands), rng),
                      [len(hand) for hand in hands] + [len(world.discard), len(world.deck)])
    for player, hand in zip(others, piles, strict=False):
        player.hand = hand
    world.discard, world.deck = piles[-2], piles[-1]
    for player in others:
        armies = [army for army in player.armies if army.alive]
        if not armies:
            continue
        units = [kind for kind, count in sorted(player.tray.items()) for _ in range(count)]
        rng.shuffle(units)
        for kind in units:
            army = rng.choice(armies)
            if army_room(army, kind) > 0 and rng.random() < 0.7:
                army.units[kind] += 1
                player.tray[kind] -= 1
    return world
