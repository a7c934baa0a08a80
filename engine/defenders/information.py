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

import functools
import random
from collections.abc import Callable, Sequence

from engine.clone import clone
from engine.defenders.content import content
from engine.defenders.state import Boss, Defender, DefendersState
from engine.information import deal_back, public_seed, shared, shuffled, sorted_pool

UNSEEN_PREFIXES = ("e:", "x:")
"""Turn Deck cards nobody can place before they are drawn: Enemies and Dire Enemies."""


def unseen(card: str) -> bool:
    return card.startswith(UNSEEN_PREFIXES)


def boss_kind(key: str) -> str:
    return "general" if key in _bosses_of("general") else "epic"


@functools.cache
def _bosses_of(kind: str) -> tuple[str, ...]:
    """The keys of every boss of a kind, sorted (read once: the content does not change)."""
    c = content()
    return tuple(sorted(boss.key for boss in (c.generals if kind == "general" else c.epic_foes)))


def _deal_enemies(state: DefendersState, pool: list[str]) -> dict[str, list[str]]:
    """``pool`` (the unseen Enemy cards, in the order to deal) dealt back: leftover Enemies and
    leftover Dire Enemies take the first cards of their kind, the Horde and the Turn Deck's
    Enemy places the rest in turn. The new piles, by field."""
    return _deal(state.turn_deck, len(state.horde), len(state.leftover_enemies), len(state.leftover_dire), pool)


def _deal(turn_deck: Sequence[str], horde_size: int, left_enemies: int, left_dire: int,
          pool: list[str]) -> dict[str, list[str]]:
    regular = [card for card in pool if card.startswith("e:")]
    dire = [card for card in pool if card.startswith("x:")]
    set_aside = {*regular[:left_enemies], *dire[:left_dire]}
    rest = [card for card in pool if card not in set_aside]
    known = [card for card in turn_deck if not card.startswith(UNSEEN_PREFIXES)]
    horde, placed = deal_back(rest, [horde_size, len(turn_deck) - len(known)])
    return {"leftover_enemies": [card[2:] for card in regular[:left_enemies]],
            "leftover_dire": [card[2:] for card in dire[:left_dire]], "horde": horde,
            "turn_deck": known + placed}


def _enemy_pool(state: DefendersState) -> list[str]:
    return _pool(state.turn_deck, state.horde, state.leftover_enemies, state.leftover_dire)


def _pool(turn_deck: Sequence[str], horde: Sequence[str], leftover_enemies: Sequence[str],
          leftover_dire: Sequence[str]) -> list[str]:
    return sorted_pool([card for card in turn_deck if card.startswith(UNSEEN_PREFIXES)], list(horde),
                       [f"e:{key}" for key in leftover_enemies], [f"x:{key}" for key in leftover_dire])


def _canonical_enemies(state: DefendersState) -> dict[str, list[str]]:
    """The enemy piles of an information state (the canonical deal, the Turn Deck sorted),
    new lists each time."""
    dealt = _canonical_deal(tuple(state.turn_deck), tuple(state.horde), tuple(state.leftover_enemies),
                            tuple(state.leftover_dire))
    return {field: list(pile) for field, pile in dealt}


@functools.lru_cache(maxsize=1024)
def _canonical_deal(turn_deck: tuple[str, ...], horde: tuple[str, ...], leftover_enemies: tuple[str, ...],
                    leftover_dire: tuple[str, ...]) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """`_canonical_enemies` of these piles, worked out once: they change only when a card is
    drawn or an enemy joins the Horde, and every decision in between asks again."""
    piles = _deal(turn_deck, len(horde), len(leftover_enemies), len(leftover_dire),
                  _pool(turn_deck, horde, leftover_enemies, leftover_dire))
    piles["turn_deck"].sort()
    return tuple((field, tuple(pile)) for field, pile in piles.items())


def _skills(state: DefendersState, seat: int, pool: list[str]) -> tuple[list[str], list[Defender]]:
    """``pool`` (the Skill deck and the skills offered to other seats) dealt back."""
    offered = [defender for defender in state.defenders if defender.seat != seat and defender.skill_offer]
    piles = deal_back(pool, [len(state.skill_deck), *(len(defender.skill_offer) for defender in offered)])
    offers = dict(zip((defender.idx for defender in offered), piles[1:], strict=True))
    return piles[0], [shared(defender, skill_offer=offers[defender.idx]) if defender.idx in offers else defender
                      for defender in state.defenders]


def _skill_pool(state: DefendersState, seat: int) -> list[str]:
    return sorted_pool(state.skill_deck, *(defender.skill_offer for defender in state.defenders
                                           if defender.seat != seat))


def information(state: DefendersState, seat: int) -> DefendersState:
    """``state`` as ``seat`` may know it (sharing with ``state`` all it does not hide)."""
    piles = _canonical_enemies(state)
    boss, ahead = _bosses(state, lambda kind, taken: next(key for key in _bosses_of(kind) if key not in taken))
    if any(defender.skill_offer for defender in state.defenders if defender.seat != seat):
        skill_deck, defenders = _skills(state, seat, _skill_pool(state, seat))
    else:
        # Nobody else holds an offer (a battle): the pool is the Skill deck alone, dealt back whole.
        skill_deck, defenders = sorted(state.skill_deck), list(state.defenders)
    return shared(state, seed=public_seed(state.seed), **piles, skill_deck=skill_deck, defenders=defenders,
                  artifact_deck=sorted(state.artifact_deck), caravan_pile=sorted(state.caravan_pile),
                  war_unused=sorted(state.war_unused), boss=boss, bosses_ahead=ahead)


def _bosses(state: DefendersState, pick: Callable[[str, set[str]], str]) -> tuple[Boss, list[str]]:
    """The face-down boss and the bosses ahead named with ``pick(kind, taken)``."""
    taken: set[str] = set()
    boss = state.boss
    if boss.revealed:
        taken.add(boss.key)
    else:
        key = pick(boss.kind, taken)
        taken.add(key)
        boss = shared(boss, key=key, region=content().boss(key).region)
    ahead = []
    for old in state.bosses_ahead:
        key = pick(boss_kind(old), taken)
        taken.add(key)
        ahead.append(key)
    return boss, ahead


def determinize(info: DefendersState, seat: int, rng: random.Random) -> DefendersState:
    """A full state consistent with ``info``: every unseen card dealt at random, the Turn
    Deck shuffled, the hidden bosses drawn from their kind, fresh dice."""
    world = clone(info)
    world.seed = rng.getrandbits(63)
    for field, pile in _deal_enemies(world, shuffled(_enemy_pool(world), rng)).items():
        setattr(world, field, pile)
    rng.shuffle(world.turn_deck)
    world.skill_deck, defenders = _skills(world, seat, shuffled(_skill_pool(world, seat), rng))
    world.defenders = [clone(defender) for defender in defenders]
    rng.shuffle(world.artifact_deck)
    rng.shuffle(world.caravan_pile)
    rng.shuffle(world.war_unused)
    boss, world.bosses_ahead = _bosses(world, lambda kind, taken: rng.choice(
        [key for key in _bosses_of(kind) if key not in taken]))
    world.boss = clone(boss)
    return world
