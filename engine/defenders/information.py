"""What a Tiny Epic Defenders seat may know (engine/information.py).

The table shares everything the Defenders hold; hidden from every seat are the cards nobody
has turned up. In a seat's information state they are replaced by a canonical value:

- the unseen Enemy and Dire Enemy cards (those in the Turn Deck, the Horde and the two
  leftover piles) form one sorted pool, dealt back pile by pile (the leftovers first, then
  the Horde, then the Turn Deck's Enemy places); the Turn Deck keeps its size and its player
  cards (every Defender card, the All Defenders card, Soldiers and Deserters are known to be
  in it until drawn) and is kept sorted;
- the Skill deck with the skills offered to other seats, the Artifact deck, the caravan pile
  and the unused War regions: sorted;
- a boss still face down, and the bosses of battles to come: the first of their kind in
  card order, with that card's region;
- the match seed (it fixes every future draw and roll): a public stand-in.

Scouted cards and Dire Enemies seen in an earlier battle are known at the table but not kept
apart in the state, so the information state forgets where they are (less than the seat
knows, never more).
"""

from __future__ import annotations

import random
from collections.abc import Callable

from engine.clone import clone
from engine.defenders.content import content
from engine.defenders.state import Boss, DefendersState
from engine.information import deal_back, public_seed, shuffled, sorted_pool

UNSEEN_PREFIXES = ("e:", "x:")
"""Turn Deck cards nobody can place before they are drawn: Enemies and Dire Enemies."""


def unseen(card: str) -> bool:
    return card.startswith(UNSEEN_PREFIXES)


def boss_kind(key: str) -> str:
    return "general" if key in {general.key for general in content().generals} else "epic"


def _bosses_of(kind: str) -> list[str]:
    c = content()
    return sorted(boss.key for boss in (c.generals if kind == "general" else c.epic_foes))


def _deal_enemies(state: DefendersState, pool: list[str]) -> None:
    """Deal ``pool`` (the unseen Enemy cards, in the order to deal) back: leftover Enemies and
    leftover Dire Enemies take the first cards of their kind, the Horde and the Turn Deck's
    Enemy places the rest in turn."""
    regular = [card for card in pool if card.startswith("e:")]
    dire = [card for card in pool if card.startswith("x:")]
    left_enemies = len(state.leftover_enemies)
    left_dire = len(state.leftover_dire)
    state.leftover_enemies = [card[2:] for card in regular[:left_enemies]]
    state.leftover_dire = [card[2:] for card in dire[:left_dire]]
    set_aside = {*regular[:left_enemies], *dire[:left_dire]}
    rest = [card for card in pool if card not in set_aside]
    places = sum(1 for card in state.turn_deck if unseen(card))
    state.horde, placed = deal_back(rest, [len(state.horde), places])
    known = [card for card in state.turn_deck if not unseen(card)]
    state.turn_deck = known + placed


def _enemy_pool(state: DefendersState) -> list[str]:
    return sorted_pool([card for card in state.turn_deck if unseen(card)], state.horde,
                       [f"e:{key}" for key in state.leftover_enemies], [f"x:{key}" for key in state.leftover_dire])


def information(state: DefendersState, seat: int) -> DefendersState:
    """``state`` as ``seat`` may know it."""
    info = clone(state)
    info.seed = public_seed(state.seed)
    _deal_enemies(info, _enemy_pool(info))
    info.turn_deck.sort()
    offers = [defender for defender in info.defenders if defender.seat != seat and defender.skill_offer]
    skills = deal_back(sorted_pool(info.skill_deck, *(defender.skill_offer for defender in offers)),
                       [len(info.skill_deck), *(len(defender.skill_offer) for defender in offers)])
    info.skill_deck = skills[0]
    for defender, offer in zip(offers, skills[1:], strict=True):
        defender.skill_offer = offer
    info.artifact_deck.sort()
    info.caravan_pile.sort()
    info.war_unused.sort()
    _place_bosses(info, lambda kind, taken: next(key for key in _bosses_of(kind) if key not in taken))
    return info


def _place_bosses(state: DefendersState, pick: Callable[[str, set[str]], str]) -> None:
    """Name the face-down boss and the bosses ahead with ``pick(kind, taken)``."""
    taken: set[str] = set()
    if state.boss.revealed:
        taken.add(state.boss.key)
    else:
        key = pick(state.boss.kind, taken)
        taken.add(key)
        state.boss = Boss(key=key, kind=state.boss.kind, hp=state.boss.hp, max_hp=state.boss.max_hp,
                          region=content().boss(key).region, armor_soaked=list(state.boss.armor_soaked))
    ahead = []
    for old in state.bosses_ahead:
        key = pick(boss_kind(old), taken)
        taken.add(key)
        ahead.append(key)
    state.bosses_ahead = ahead


def determinize(info: DefendersState, seat: int, rng: random.Random) -> DefendersState:
    """A full state consistent with ``info``: every unseen card dealt at random, the Turn
    Deck shuffled, the hidden bosses drawn from their kind, fresh dice."""
    world = clone(info)
    world.seed = rng.getrandbits(63)
    _deal_enemies(world, shuffled(_enemy_pool(world), rng))
    rng.shuffle(world.turn_deck)
    offers = [defender for defender in world.defenders if defender.seat != seat and defender.skill_offer]
    skills = deal_back(shuffled(sorted_pool(world.skill_deck, *(defender.skill_offer for defender in offers)), rng),
                       [len(world.skill_deck), *(len(defender.skill_offer) for defender in offers)])
    world.skill_deck = skills[0]
    for defender, offer in zip(offers, skills[1:], strict=True):
        defender.skill_offer = offer
    rng.shuffle(world.artifact_deck)
    rng.shuffle(world.caravan_pile)
    rng.shuffle(world.war_unused)
    _place_bosses(world, lambda kind, taken: rng.choice([key for key in _bosses_of(kind) if key not in taken]))
    return world
