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
from operator import is_
from typing import TypeVar

from pydantic import BaseModel

from engine.clone import clone, set_dict, set_extra, set_fields_set, set_private
from engine.information import deal_back, public_seed, shared, shuffled, sorted_pool
from engine.samurai.board import army_room
from engine.samurai.state import Army, Player, SamuraiState, holds_ronin, no_units

Model = TypeVar("Model", bound=BaseModel)


def _others(state: SamuraiState, seat: int) -> list[Player]:
    return [player for player in state.players if player.seat != seat]


def information(state: SamuraiState, seat: int) -> SamuraiState:
    """``state`` as ``seat`` may know it (sharing with ``state`` all it does not hide). Every
    AI decision builds one, so the cards are dealt back only when there are any and the
    provinces are scanned for hidden ronin only when any stands in one."""
    players = state.players
    deck, discard = state.deck, state.discard
    if deck or discard or any([player.hand for player in players if player.seat != seat]):
        hands = [player.hand for player in players if player.seat != seat]
        piles = deal_back(sorted_pool(deck, discard, *hands),
                          [len(hand) for hand in hands] + [len(discard), len(deck)])
        dealt = iter(piles)
        players = [player if player.seat == seat else _behind_screen(player, next(dealt)) for player in players]
        discard, deck = piles[-2], piles[-1]
    else:  # no card anywhere (base, Quick Start): every pile is a new empty list
        players = [player if player.seat == seat else _behind_screen(player, []) for player in players]
        discard, deck = [], []
    last = _LISTS.get(seat)
    if last is not None and len(last) == len(players) and all(map(is_, last, players)):
        players = last  # the very players of this seat's last one: its army index serves again
    else:
        _LISTS[seat] = players
    provinces = state.provinces  # shared as it is unless a hidden ronin stands in another's province
    if holds_ronin(state):
        for prov in provinces.values():
            if prov.ronin and not prov.ronin_revealed and prov.owner != seat:
                provinces = {pid: prov if prov.owner == seat or prov.ronin_revealed or not prov.ronin
                             else shared(prov, ronin=0) for pid, prov in provinces.items()}
                break
    values = state.__dict__.copy()
    values["seed"] = public_seed(state.seed)
    values["players"] = players
    values["provinces"] = provinces
    values["discard"] = discard
    values["deck"] = deck
    key = str(seat)
    nav = state.nav
    values["nav"] = {key: nav[key]} if key in nav else {}
    war = state.war
    battle = war.battle if war is not None else None
    if war is not None and battle is not None and battle.pending is not None:
        pending = battle.pending
        chosen = {side: losses for side, losses in pending.chosen.items() if pending.owed.get(side) == seat}
        values["war"] = shared(war, battle=shared(battle, pending=shared(pending, chosen=chosen)))
    return _with_values(state, values)


_LISTS: dict[int, list[Player]] = {}
"""Per seat, the players list of its last information state, given again while every player in
it is the same object (the seat's own and the screened copies `_behind_screen` keeps giving):
the army index (`state.army_index`) is kept per list, so a seat deciding again before any army
moved finds where armies stand without a scan. Nobody changes an information state's list."""


def _with_values(model: Model, values: dict[str, object]) -> Model:
    """`shared` given the new object's whole field dict (the copy of ``model``'s with the
    hidden values put in): information states make several thousand a match. Samurai's
    models forbid extra fields and have no private attributes, so those two slots hold None."""
    new = _new_object(model.__class__)
    set_dict(new, values)
    set_fields_set(new, model.__pydantic_fields_set__.copy())
    set_extra(new, None)
    set_private(new, None)
    return new


_new_object = object.__new__


def _behind_screen(player: Player, hand: list[str]) -> Player:
    """Another seat's player as the table sees it: its sealed choices cleared, its armies'
    units back in its tray, its hidden ronin and what it levied and hired forgotten.

    The one made for a player last time is given again while the player is as it was then:
    the same value in every field (a new value set in any), the same fields set, tray,
    armies and units in them, each army as its screened copy was made from, and the same
    dealt hand. Between two decisions the rules mostly change the deciding seat's own player,
    and a player behind the screen is never changed by its readers (as `_screened` says).
    What is kept holds copies of the tray, the armies list and each army's units inside the
    field dicts, so one dict comparison a player and one list comparison of its armies' field
    dicts (an AI decision asks three times) tell all but the fields set. A model's fields set
    only grows (pydantic and the setters add a name, nothing takes one away or puts another
    set in its place), so the same size is the same set."""
    kept = _PLAYERS.get(id(player))
    if kept is not None and kept[0] is player and kept[1] == player.__dict__ and kept[5] == hand:
        armies = player.armies
        if (kept[3] == [army.__dict__ for army in armies]
                and kept[4] == [len(army.__pydantic_fields_set__) for army in armies]
                and kept[2] == len(player.__pydantic_fields_set__)):
            return kept[6]
    screened = _screen(player, hand)
    if len(_PLAYERS) >= _SCREENED_KEPT:
        _PLAYERS.clear()
        _KEPT_COPIES.clear()
    if kept is not None:
        _KEPT_COPIES.discard(id(kept[6]))
    _KEPT_COPIES.add(id(screened))
    armies = player.armies
    _PLAYERS[id(player)] = (player, {**player.__dict__, "tray": player.tray.copy(), "armies": list(armies)},
                            len(player.__pydantic_fields_set__),
                            [{**army.__dict__, "units": army.units.copy()} for army in armies],
                            [len(army.__pydantic_fields_set__) for army in armies], hand, screened)
    return screened


_PLAYERS: dict[int, tuple[Player, dict[str, object], int, list[dict[str, object]], list[int],
                          list[str], Player]] = {}
"""Per player (by id, the player itself kept so the id stays its own): its field dict (with a
copy of its tray and of its armies list), the size of its fields set, each army's field dict
(with a copy of its units) and the size of its fields set as they were when its screened copy
was made, the hand dealt to it then, and that copy."""


_KEPT_COPIES: set[int] = set()
"""The ids of the screened players `_PLAYERS` holds (held there, so each id stays its own)."""


def kept_screened(player: Player) -> bool:
    """Whether ``player`` is a screened player this module keeps giving while the player
    behind it is unchanged: such a copy is never changed, so a reader may key what it
    works out of it on the object itself."""
    return id(player) in _KEPT_COPIES


def _screen(player: Player, hand: list[str]) -> Player:
    """`_behind_screen` built anew."""
    tray = player.tray.copy()
    armies = []
    for army in player.armies:
        units = army.units
        hidden = False
        for kind, count in units.items():
            if count:
                tray[kind] = tray.get(kind, 0) + count
                hidden = True
            elif kind not in tray:
                tray[kind] = 0
        armies.append(_screened(army) if hidden or (army.ronin and not army.ronin_revealed) else army)
    return _with_values(player, {**player.__dict__, "hand": hand, "draft": {}, "losses_order": [],
                                 "levied": no_units(), "ronin_hired": 0, "tray": tray, "armies": armies})


def _screened(army: Army) -> Army:
    """The army as the table sees it behind its owner's screen: no units, its ronin 0 unless
    shown. The one made for an army last time is given again while every field of the army
    (and which are set) is what it was then: the rules change another seat's armies far less
    often than the AIs decide, and a hidden army is never changed by its readers (an
    information state is read, never changed; `determinize` copies it first)."""
    values = army.__dict__
    kept = _SCREENED.get(id(army))
    if (kept is not None and kept[0] is army and kept[1] == values
            and kept[2].__pydantic_fields_set__ == army.__pydantic_fields_set__):
        return kept[2]
    hidden = {**values, "units": dict.fromkeys(army.units, 0)}
    if not army.ronin_revealed:
        hidden["ronin"] = 0
    screened = _with_values(army, hidden)
    if len(_SCREENED) >= _SCREENED_KEPT:
        _SCREENED.clear()
    _SCREENED[id(army)] = (army, values.copy(), screened)
    return screened


_SCREENED: dict[int, tuple[Army, dict[str, object], Army]] = {}
"""Per army (by id, the army itself kept so the id stays its own): its fields when its
screened copy was made, and that copy."""
_SCREENED_KEPT = 64
"""At most this many armies kept (a match has 15 at the most; a driver playing many matches
in turn starts afresh now and then)."""


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
