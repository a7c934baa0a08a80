"""Force building: validating a pick list, the deadline default and the secret force prompt."""

from __future__ import annotations

from engine.contract import IllegalChoice, Prompt
from engine.kit import opt
from engine.tinybigwars.answers import ForceAnswer
from engine.tinybigwars.content import content
from engine.tinybigwars.state import Force, TBWState
from engine.words import counted


def force_of(picks: list[str], point_limit: int) -> Force:
    """Validate a force pick list; the message names the broken rule."""
    c = content()
    if len(set(picks)) != len(picks):
        raise IllegalChoice("Each card can be picked only once.")
    force = Force()
    for card in picks:
        if card in c.heroes:
            force.heroes.append(card)
            force.points += c.heroes[card].cost
        elif card in c.minions:
            force.minion_cards.append(card)
            force.points += c.minions[card].cost
        elif card in c.buildings:
            force.buildings.append(card)
            force.points += c.buildings[card].cost
        else:
            raise IllegalChoice(f"There is no card called {card!r}.")
    if not force.heroes:
        raise IllegalChoice("Your force needs at least one Hero.")
    if len(force.buildings) > 1:
        raise IllegalChoice("Take at most one Building card: your start node holds one infrastructure.")
    if force.points > point_limit:
        raise IllegalChoice(f"Your force costs {force.points} points; the limit is {point_limit}.")
    return force


def default_force(point_limit: int) -> list[str]:
    """A legal force for a missed deadline: the priciest heroes that fit, then minions."""
    c = content()
    picks: list[str] = []
    left = point_limit
    for card in sorted(c.heroes.values(), key=lambda h: (-h.cost, h.id)):
        if card.cost <= left:
            picks.append(card.id)
            left -= card.cost
    for m in sorted(c.minions.values(), key=lambda m: (-m.count, m.id)):
        if m.cost <= left:
            picks.append(m.id)
            left -= m.cost
    if not any(p in c.heroes for p in picks):
        picks.insert(0, min(c.heroes.values(), key=lambda h: (h.cost, h.id)).id)
    return picks


def force_prompt(state: TBWState, seat: int) -> Prompt:
    c = content()
    options = [
        opt(h.id, f"{h.name} ({counted(h.cost, 'point')})", {},
            f"Power {h.power}, health {h.health}, energy {h.max_energy}: {h.text}")
        for h in c.heroes.values()
    ]
    options += [
        opt(m.id, f"{m.name} ({counted(m.cost, 'point')})", {}, counted(m.count, "minion"))
        for m in c.minions.values()
    ]
    options += [
        opt(b.id, f"{b.name} ({counted(b.cost, 'point')})", {}, b.text) for b in c.buildings.values()
    ]
    limit = state.options.point_limit
    return Prompt(
        seat=seat,
        kind="force",
        text=f"Build your force secretly: at least one Hero, at most {limit} points, at most one Building.",
        answer=ForceAnswer,
        input="multi",
        options=options,
        field="picks",
        min_picks=1,
        max_picks=len(options),
        secret=True,
        answered=state.seats[seat].force is not None,
        default={"picks": default_force(limit)},
    )
