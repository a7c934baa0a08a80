"""Board judgement for the heuristic AI: what a location is worth, how a fight may go, where danger is.

Kept apart from ``ai.py`` so the policy reads as decisions while the arithmetic lives here.
Every figure is an estimate from the public board (plus the AI's own seat), never a rule.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import cast

from engine.tinybigwars.board import (
    controlled,
    hero_card,
    influence,
    loc_card,
    location_coins,
    location_influence,
)
from engine.tinybigwars.content import content
from engine.tinybigwars.state import Hero, TBWState, Topology, hero_index, places, topology
from engine.tinybigwars.sums import HIT_PER_DIE, Stack, chance_at_least, lone_stack, stack_of

HERO_WORTH = 3.0
"""How much losing a hero hurts, in location-worth units."""
_WORTHS: dict[tuple[str, str | None], float] = {}
"""`location_worth` by (location card, infrastructure): all it reads, from the shipped content."""
_NO_STACKS: dict[int, Stack] = {}


class Snapshot:
    """A read-only stand-in for the state during one AI decision.

    The heuristic asks the same board questions (who is where, who controls what, whose
    influence is how high) thousands of times per decision; the snapshot answers each once.
    Anything it does not cache is read from the state itself. The AI never changes a state.
    """

    def __init__(self, state: TBWState, board: Snapshot | None = None) -> None:
        self._state = state
        # the state's own indexes, shared: the AI never changes the state, so they stay right
        self._locations = places(state)
        self._presence: dict[str, list[int]] | None = None
        self._present: dict[str, list[int]] = {}
        self._heroes = hero_index(state).heroes
        self._stacks: dict[tuple[str, int], list[Hero]] = {}
        self._sums: dict[str, dict[int, Stack]] = {}
        self._topology = topology(state)
        self._worth: dict[str, float] = {}
        self._influence: list[int] | None = None
        self._threats: dict[str, list[tuple[int, int, int]]] = {}
        self._threat: dict[tuple[str, int], float] = {}
        self._strikes: dict[str, list[tuple[int, int, float]]] = {}
        self._defence: dict[tuple[str, int], tuple[list[int], float, float, int, int]] = {}
        self.memo: dict[tuple[object, ...], float] = {}
        """The heuristic's own figures for this decision (engine/tinybigwars/ai.py)."""
        self._hero_stacks: list[tuple[str, list[tuple[int, int, int]], list[tuple[int, int, int]]]] | None = None
        if board is not None:
            # the same board: every figure above is the same, so carry them all over
            for name in _BOARD_FIGURES:
                setattr(self, name, getattr(board, name))
        # What the heuristic reads most, held here rather than fetched through __getattr__.
        self.seats_n = state.seats_n
        self.locations = state.locations
        self.options = state.options
        self.seats = state.seats
        self.turn = state.turn
        self.hero = state.hero

    def __getattr__(self, name: str) -> object:
        return getattr(self._state, name)

    def loc(self, node: str) -> object:
        return self._locations[node]

    def heroes_at(self, node: str, seat: int | None = None) -> list[Hero]:
        """The live heroes at ``node`` (of ``seat``): the snapshot's own lists, never to be changed."""
        here = self._heroes.get(node)
        if here is None:
            return []
        if seat is None:
            return here
        stack = self._stacks.get((node, seat))
        if stack is None:
            stack = self._stacks[(node, seat)] = [h for h in here if h.seat == seat]
        return stack

    def hero_locations(self) -> Iterable[str]:
        """The locations with live heroes."""
        return self._heroes.keys()

    def has_heroes(self, node: str) -> bool:
        return node in self._heroes

    def present(self, node: str) -> list[int]:
        """Seats with units at ``node``, as the state's `presence` says (worked out for that
        location alone until every location is asked for)."""
        found = self._present.get(node)
        if found is None:
            if self._presence is not None:
                return self._presence[node]
            minions = self._locations[node].minions
            here = self._heroes.get(node)
            seats = range(self.seats_n)
            if here is None:
                found = [seat for seat in seats if minions[seat] > 0]
            else:
                with_heroes = {h.seat for h in here}
                found = [seat for seat in seats if minions[seat] > 0 or seat in with_heroes]
            self._present[node] = found
        return found

    def presence(self) -> dict[str, list[int]]:
        found = self._presence
        if found is None:
            found = self._presence = self._state.presence()
        return found

    def controller(self, node: str) -> int | None:
        present = self.present(node)
        return present[0] if len(present) == 1 else None

    def neighbours(self, node: str) -> list[str]:
        return list(self._topology.neighbours(node))

    def topology(self) -> Topology:
        return self._topology

    def worth_of(self, node: str) -> float:
        found = self._worth.get(node)
        if found is None:
            loc = self._locations[node]
            key = (loc.card, loc.infrastructure)
            found = _WORTHS.get(key)
            if found is None:
                found = _WORTHS[key] = location_worth(cast(TBWState, self), node)
            self._worth[node] = found
        return found

    def threats_near(self, node: str) -> list[tuple[int, int, int]]:
        """(seat, dice, energy) of every hero stack within two moves of ``node`` as `exposure`
        counts it (the strongest hero's power and energy, the minions there, one fewer two
        moves away), worked out once per node: the heuristic asks of the same nodes often."""
        found = self._threats.get(node)
        if found is None:
            found = []
            near, far = self._topology.rings(node)
            for nxt, close, away in self._foe_stacks():
                if nxt in near:
                    found += close
                elif nxt in far:
                    found += away
            self._threats[node] = found
        return found

    def _foe_stacks(self) -> list[tuple[str, list[tuple[int, int, int]], list[tuple[int, int, int]]]]:
        """(location, [(seat, dice, energy)] one move away, the same two moves away) of every
        location with live heroes, each list in seat order (dice: the strongest hero's power
        and the minions there, one fewer two moves away; energy: the most of a hero): what
        `threats_near` joins, once per decision."""
        found = self._hero_stacks
        if found is None:
            found = self._hero_stacks = []
            for node in self._heroes:
                minions = self._locations[node].minions
                close, away = [], []
                for seat, stack in self.stacks(node).items():  # the strongest hero, the most energy
                    power, energy = stack.max_power, stack.max_energy
                    close.append((seat, power + max(0, minions[seat]), energy))
                    away.append((seat, power + max(0, minions[seat] - 1), energy))
                found.append((node, close, away))
        return found

    def stack(self, node: str, seat: int) -> Stack | None:
        """The sums of ``seat``'s live heroes at ``node``; None when it has none there."""
        return self.stacks(node).get(seat)

    def stacks(self, node: str) -> dict[int, Stack]:
        """The sums of every clan's live heroes at ``node``, by seat in seat order (worked out
        on the first ask: most decisions never ask)."""
        found = self._sums.get(node)
        if found is None:
            here = self._heroes.get(node)
            if here is None:
                found = _NO_STACKS
            elif len(here) == 1:
                found = {here[0].seat: lone_stack(here[0])}
            else:
                by_seat: dict[int, list[Hero]] = {}
                for h in here:
                    by_seat.setdefault(h.seat, []).append(h)
                found = {seat: stack_of(heroes) for seat, heroes in sorted(by_seat.items())}
            self._sums[node] = found
        return found

    def defence(self, node: str, seat: int) -> tuple[list[int], float, float, int, int]:
        """`defence` of ``node`` against ``seat``, once per decision (never change the list)."""
        found = self._defence.get((node, seat))
        if found is None:
            # `defence` over the sums at hand: the same terms added in the same order
            loc = self._locations[node]
            minions = loc.minions
            tower = 1 if loc.infrastructure == "watchtower" else 0
            stacks = self.stacks(node)
            foes = [other for other in self.present(node) if other != seat]
            wall = their_dice = their_energy = 0
            their_hits: float = 0
            for foe in foes:
                stack = stacks.get(foe)
                dice = minions[foe] + tower
                if stack is None:
                    wall += minions[foe]
                    their_hits += HIT_PER_DIE * dice
                else:
                    dice += stack.power + (1 if stack.defend_die else 0)
                    wall += minions[foe] + stack.vitality + stack.shields
                    their_hits += (4 / 6 if stack.tiger else HIT_PER_DIE) * dice + stack.auto_hits
                    their_energy += stack.energy
                their_dice += dice
            found = self._defence[(node, seat)] = (foes, wall, their_hits, their_dice, their_energy)
        return found

    def threat_of(self, node: str, seat: int) -> float:
        found = self._threat.get((node, seat))
        if found is None:
            found = self._threat[(node, seat)] = self._threat_at(node, seat)
        return found

    def _threat_at(self, node: str, seat: int) -> float:
        """`_threat` over the sums: the same chances, the same greatest."""
        stack = self.stacks(node).get(seat)
        mine = self._locations[node].minions[seat]
        if stack is not None:
            mine = mine + stack.vitality + stack.shields
        worst = 0.0
        near = self._topology.rings(node)[0]
        strikes = self._strikes
        for nxt in self._heroes:
            if nxt == node or nxt in near:
                found = strikes.get(nxt)
                if found is None:
                    found = strikes[nxt] = self._strikes_from(nxt)
                for foe, dice, extra in found:
                    if foe != seat:
                        chance = chance_at_least(dice, extra, mine)
                        if chance > worst:
                            worst = chance
        return worst

    def _strikes_from(self, node: str) -> list[tuple[int, int, float]]:
        """(seat, dice, sure hits from energy) of every clan's heroes at ``node`` striking a
        neighbour, as `_threat` counts them (all their power, the minions there, 0.6 of their
        energy), in seat order."""
        minions = self._locations[node].minions
        return [(foe, stack.power + minions[foe], stack.energy * 0.6) for foe, stack in self.stacks(node).items()]

    def influence_of(self, seat: int) -> int:
        """`influence` of ``seat``: every clan's worked out in one pass on the first ask
        (the heuristic weighs each foe's pressure)."""
        found = self._influence
        if found is None:
            found = self._influence = [0] * self.seats_n
            cards = content().locations
            presence = self._presence
            if presence is not None:
                locations = self._locations
                for node, seats in presence.items():
                    if len(seats) == 1:
                        owner = seats[0]
                        loc = locations[node]
                        card = cards[loc.card]
                        found[owner] += card.influence + (1 if loc.infrastructure == "dojo" else 0)
                        if card.ability == "hero_influence" and self.heroes_at(node, owner):
                            found[owner] += 1
                return found[seat]
            # `presence` and the influence in one pass (the state's `presence`, written out)
            terms = _influence_terms()
            presence = self._presence = {}
            with_heroes = hero_index(self._state).seats
            clans = range(self.seats_n)
            for loc in self._state.locations:
                minions = loc.minions
                heroes = with_heroes.get(loc.id)
                here: list[int] = []
                if heroes is None:
                    for other in clans:
                        if minions[other] > 0:
                            here.append(other)
                else:
                    for other in clans:
                        if minions[other] > 0 or other in heroes:
                            here.append(other)
                presence[loc.id] = here
                if len(here) == 1:
                    owner = here[0]
                    gain, hero_bonus = terms[loc.card]
                    if loc.infrastructure == "dojo":
                        gain += 1
                    if hero_bonus and heroes is not None and owner in heroes:
                        gain += 1
                    found[owner] += gain
        return found[seat]


_INFLUENCE_TERMS: list[dict[str, tuple[int, bool]]] = []
"""Per location card: its influence and whether a hero of the holder there adds one (the
Sky Temple), from the shipped content."""


def _influence_terms() -> dict[str, tuple[int, bool]]:
    if not _INFLUENCE_TERMS:
        _INFLUENCE_TERMS.append({key: (card.influence, card.ability == "hero_influence")
                                 for key, card in content().locations.items()})
    return _INFLUENCE_TERMS[0]


def has_heroes(state: TBWState, node: str) -> bool:
    """Any live hero at ``node`` (the snapshot knows without building a list)."""
    if isinstance(state, Snapshot):
        return state.has_heroes(node)
    return bool(state.heroes_at(node))


def decision_memo(state: TBWState) -> dict[tuple[object, ...], float]:
    """Figures kept for one decision: the snapshot's own dict (a plain state gets a new one
    each call, so nothing is kept)."""
    if isinstance(state, Snapshot):
        return state.memo
    return {}


_BOARD_FIGURES = ("_presence", "_present", "_heroes", "_stacks", "_sums", "_worth", "_influence", "_threats",
                  "_threat", "_strikes", "_defence", "memo", "_hero_stacks")
"""The snapshot's figures, each worked out from the board alone (`board_key`)."""

_LAST_BOARD: list[tuple[list[object], Snapshot] | None] = [None]
"""The board of the snapshot kept last and that snapshot (which holds the board's lists, so
their ids in the key stay theirs)."""


def board_key(state: TBWState) -> list[object]:
    """Everything of ``state`` a snapshot's figures (and the heuristic's `decision_memo`) read
    that can change during a match: the units and infrastructure of every location, where
    every hero stands with its health and energy, the target. The locations' cards, the
    heroes' cards and seats and the roads never change: the lists holding them are named by
    identity (a match keeps them all along; an information state shares them)."""
    locations, heroes = state.locations, state.heroes
    key: list[object] = [id(locations), len(locations), id(heroes), len(heroes), state.seats_n, state.options.to_win]
    # one flat list: a location's minions (ints) end at its infrastructure (a name or None)
    for loc in locations:
        key += loc.minions
        key.append(loc.infrastructure)
    for hero in heroes:
        key += (hero.location, hero.defeated, hero.health, hero.energy)
    return key


def snapshot(state: TBWState, keep: bool = False) -> TBWState:
    """The state behind a caching :class:`Snapshot` (typed as the state it stands in for).

    ``keep``: the snapshot's figures are kept past this decision and handed on to the next
    kept snapshot of the same board (`board_key`): a hero's activation and its first action,
    or one clan's end of activation and the next clan's, ask the same questions of an
    unchanged board."""
    if not keep:
        return cast(TBWState, Snapshot(state))
    key = board_key(state)
    last = _LAST_BOARD[0]
    found = Snapshot(state, last[1] if last is not None and last[0] == key else None)
    _LAST_BOARD[0] = (key, found)
    return cast(TBWState, found)


def clan_influence(state: TBWState, seat: int) -> int:
    """Influence of ``seat``, from the snapshot's cache when there is one."""
    if isinstance(state, Snapshot):
        return state.influence_of(seat)
    return influence(state, seat)


def hits_per_die(state: TBWState, node: str, seat: int) -> float:
    """Tiger Claw makes a 6 worth 3 hits."""
    if isinstance(state, Snapshot):
        stack = state.stack(node, seat)
        return 4 / 6 if stack is not None and stack.tiger else HIT_PER_DIE
    tiger = any(hero_card(h).ability == "six_three_hits" for h in state.heroes_at(node, seat))
    return 4 / 6 if tiger else HIT_PER_DIE


def worth(state: TBWState, node: str, seat: int) -> float:
    """What holding ``node`` is worth to ``seat``: influence first, coins and ability after
    (the same for every seat today; the snapshot computes it once per node)."""
    if isinstance(state, Snapshot):
        return state.worth_of(node)
    return location_worth(state, node)


def location_worth(state: TBWState, node: str) -> float:
    """The worth of holding ``node``, worked out from its card and infrastructure."""
    value = location_influence(state, node) + 0.45 * location_coins(state, node) + 0.3
    card = loc_card(state, node)
    if card.ability == "hero_influence":
        value += 0.5
    if card.ability in ("free_minion", "recruit_double", "hero_coin"):
        value += 0.2
    return value


def pressure(state: TBWState, seat: int) -> float:
    """How close ``seat`` is to winning: 0 far away, 1 at the target, more above it."""
    target = state.options.to_win
    return max(0.0, clan_influence(state, seat) - (target - 5)) / 5


def leader_threat(state: TBWState, seat: int) -> float:
    """The strongest opponent's pressure: how urgently ``seat`` must break someone's hold."""
    return max((pressure(state, foe) for foe in range(state.seats_n) if foe != seat), default=0.0)


def toughness(state: TBWState, node: str, seat: int) -> float:
    """Hits needed to wipe ``seat`` out at ``node``: minions, hero health, shields, guard energy."""
    if isinstance(state, Snapshot):
        stack = state.stack(node, seat)
        minions = state.loc(node).minions[seat]
        return minions if stack is None else minions + stack.vitality + stack.shields
    heroes = state.heroes_at(node, seat)
    shields = sum(1 for h in heroes if hero_card(h).ability == "ignore_first_hit")
    return state.loc(node).minions[seat] + sum(h.health + h.energy for h in heroes) + shields


def defence_dice(state: TBWState, node: str, seat: int) -> int:
    """Dice ``seat`` rolls defending ``node`` against a move in."""
    if isinstance(state, Snapshot):
        stack = state.stack(node, seat)
        loc = state.loc(node)
        dice = loc.minions[seat] + (1 if loc.infrastructure == "watchtower" else 0)
        return dice if stack is None else dice + stack.power + (1 if stack.defend_die else 0)
    heroes = state.heroes_at(node, seat)
    dice = sum(hero_card(h).power for h in heroes) + state.loc(node).minions[seat]
    if state.loc(node).infrastructure == "watchtower":
        dice += 1
    if any(hero_card(h).ability == "defend_die" for h in heroes):
        dice += 1
    return dice


def sure_hits(state: TBWState, node: str, seat: int) -> int:
    if isinstance(state, Snapshot):
        stack = state.stack(node, seat)
        return 0 if stack is None else stack.auto_hits
    return sum(1 for h in state.heroes_at(node, seat) if hero_card(h).ability == "auto_hit")


def defence(state: TBWState, node: str, seat: int) -> tuple[list[int], float, float, int, int]:
    """What the clans other than ``seat`` at ``node`` put up against a move in: (their seats,
    hits to wipe them all, their expected hits, their dice, their energy)."""
    foes = [other for other in state.present(node) if other != seat]
    wall = sum(toughness(state, node, f) for f in foes)
    their_hits = sum(
        hits_per_die(state, node, f) * defence_dice(state, node, f) + sure_hits(state, node, f) for f in foes
    )
    their_dice = sum(defence_dice(state, node, f) for f in foes)
    return foes, wall, their_hits, their_dice, _energy_of(state, node, foes)


Exchange = tuple[list[int], float, float, float, float, float]
"""`Forecast`'s figures as one tuple: (foes, wipe, incoming, hero_loss, expected_kills,
expected_losses)."""


class Forecast:
    """One hero moving onto ``node`` with ``bring`` minions: the odds of the single exchange."""

    def __init__(self, state: TBWState, seat: int, hero: Hero, node: str, bring: int) -> None:
        (self.foes, self.wipe, self.incoming, self.hero_loss, self.expected_kills,
         self.expected_losses) = forecast(state, seat, hero, node, bring)


def forecast(state: TBWState, seat: int, hero: Hero, node: str, bring: int) -> Exchange:
    """`Forecast`'s figures without the object (the heuristic asks thousands a match)."""
    card = hero_card(hero)
    if isinstance(state, Snapshot) and hero.location != node:
        # the snapshot's sums of the clan's heroes already there, plus the hero moving in
        mine = state.stack(node, seat)
        dice = card.power + bring + state.loc(node).minions[seat]
        tiger = card.ability == "six_three_hits"
        sure = 1 if card.ability == "auto_hit" else 0
        energy = hero.energy
        if mine is not None:
            dice += mine.power
            tiger = tiger or mine.tiger
            sure += mine.auto_hits
            energy += mine.energy
    else:
        heroes = [hero, *state.heroes_at(node, seat)]
        dice = sum(hero_card(h).power for h in heroes) + bring + state.loc(node).minions[seat]
        tiger = any(hero_card(h).ability == "six_three_hits" for h in heroes)
        sure = sum(1 for h in heroes if hero_card(h).ability == "auto_hit")
        energy = sum(h.energy for h in heroes)
    if card.ability == "attack_die":
        dice += 1
    per_die = 4 / 6 if tiger else HIT_PER_DIE
    extra = (per_die - HIT_PER_DIE) * dice + sure
    foes, wall, their_hits, their_dice, their_energy = (
        state.defence(node, seat) if isinstance(state, Snapshot) else defence(state, node, seat))
    wipe = chance_at_least(dice, extra + energy * 0.6, wall) if foes else 1.0
    incoming = their_hits + 0.4 * their_energy
    cover = bring + state.loc(node).minions[seat]
    hero_loss = chance_at_least(
        their_dice, 0.4 * their_energy, cover + hero.health + energy * 0.4 + 1
    ) if foes else 0.0
    expected_kills = min(HIT_PER_DIE * dice + extra + energy * 0.5, wall)
    return foes, wipe, incoming, hero_loss, expected_kills, min(incoming, cover + hero.health)


def _energy_of(state: TBWState, node: str, seats: list[int]) -> int:
    """The energy of ``seats``' heroes at ``node``."""
    if isinstance(state, Snapshot):
        stacks = state.stacks(node)
        return sum(stacks[seat].energy for seat in seats if seat in stacks)
    return sum(h.energy for seat in seats for h in state.heroes_at(node, seat))


def threat(state: TBWState, node: str, seat: int) -> float:
    """0..1: how likely an enemy hero next door (or here) could take ``node`` from ``seat``
    (the snapshot works it out once per location and seat)."""
    if isinstance(state, Snapshot):
        return state.threat_of(node, seat)
    return _threat(state, node, seat)


def _threat(state: TBWState, node: str, seat: int) -> float:
    if isinstance(state, Snapshot):
        return state._threat_at(node, seat)
    mine = toughness(state, node, seat)
    worst = 0.0
    for nxt in [node, *state.neighbours(node)]:
        if not has_heroes(state, nxt):
            continue
        for foe in range(state.seats_n):
            if foe == seat:
                continue
            heroes = state.heroes_at(nxt, foe)
            if not heroes:
                continue
            dice = sum(hero_card(h).power for h in heroes) + state.loc(nxt).minions[foe]
            energy = sum(h.energy for h in heroes)
            worst = max(worst, chance_at_least(dice, energy * 0.6, mine))
    return worst


def can_still_act(state: TBWState, hero: Hero) -> bool:
    """The hero may yet be activated this round (so it can strike before the victory check)."""
    clan = state.seats[hero.seat]
    return (
        state.phase in ("activation", "combat")
        and not hero.activated
        and not clan.passed
        and clan.activations < 2
    )


def exposure(state: TBWState, node: str, seat: int, toughness: float, acting_only: bool = False) -> float:
    """0..1: the chance the strongest enemy hero stack within two moves could wipe ``toughness``
    at ``node`` (a stack two moves away is counted with one minion fewer: it drops a holder).

    ``acting_only`` counts only heroes that can still act this round: what a lone holder
    left now risks before the victory check.
    """
    worst = 0.0
    if isinstance(state, Snapshot) and not acting_only:
        for foe, dice, energy in state.threats_near(node):
            if foe != seat:
                worst = max(worst, chance_at_least(dice, 0.6 * energy, toughness))
        return worst
    near, far = (state.topology() if isinstance(state, Snapshot) else topology(state)).rings(node)
    for ring, dropped in ((near, 0), (far, 1)):
        for nxt in ring:
            if not has_heroes(state, nxt):
                continue
            for foe in range(state.seats_n):
                if foe == seat:
                    continue
                heroes = [h for h in state.heroes_at(nxt, foe) if not acting_only or can_still_act(state, h)]
                if heroes:
                    dice = max(hero_card(h).power for h in heroes) + max(0, state.loc(nxt).minions[foe] - dropped)
                    energy = max(h.energy for h in heroes)
                    worst = max(worst, chance_at_least(dice, 0.6 * energy, toughness))
    return worst


def frontier(state: TBWState, node: str, seat: int) -> bool:
    """Some enemy unit stands on ``node`` or next to it."""
    return any(other != seat for n in [node, *state.neighbours(node)] for other in state.present(n))


def held_worth(state: TBWState, seat: int) -> float:
    return sum(worth(state, node, seat) for node in controlled(state, seat))
