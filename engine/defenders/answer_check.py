"""An answer checked against the few options it may be, without building its prompt.

A card prompt (turn, all, react) lists every option of every Defender of the seat, which costs
the legality of every action (move costs, usable abilities). An answer names one Defender and
one act; when the seat's options provably fit the prompt's 25 without shortening (the same
count test `seat_card_options` makes, here against an upper bound found without building any
option), the prompt lists that Defender's options of that act exactly as `card_options`
builds them, so the answer is checked against those alone. A defence or a target answer is
checked against the choices its prompt offers, without their labels and text. Otherwise, and
whenever the answer is not found that way, the caller checks it against the full prompt,
which refuses it with the same words as always: this path only ever accepts.
"""

from __future__ import annotations

from typing import Any

from engine.defenders import effects, rules
from engine.defenders.board import CAPITAL
from engine.defenders.card_options import (
    ability_choices,
    escort_counts,
    fight_open,
    movement_choices,
    prepare_open,
    secure_open,
)
from engine.defenders.effects import Target
from engine.defenders.prompting import MAX_OPTIONS
from engine.defenders.state import Attack, Defender, DefendersState
from engine.validate import same_json

CARD_KINDS = ("turn", "all", "react")
"""The prompt kinds whose options `card_options` builds per Defender."""

MOST_ROADS = 3
"""The most roads from one place (board.py: an end of the ring's diameter)."""

DECLINE = {"act": "decline"}
BACK = {"act": "back"}
"""The last option of a defence and of a target prompt, always offered."""

CLOSING = {"turn": {"act": "end"}, "all": {"act": "pass"}, "react": {"act": "pass"}}
"""The option every card prompt of a kind ends with, kept whatever the fit cuts."""


def named_option(state: DefendersState, seat: int, kind: str, choice: object) -> dict[str, Any] | None:
    """The option of ``seat``'s ``kind`` prompt that ``choice`` is (a copy of its choice),
    found without building the prompt; None when that cannot be shown this way (the full
    prompt then decides)."""
    if not isinstance(choice, dict):
        return None
    if kind == "defend":
        return _defence_option(state, seat, choice)
    if kind == "target":
        return _target_option(state, choice)
    act = state.active
    if kind not in CARD_KINDS or act is None:
        return None
    closing = CLOSING[kind]
    if choice == closing and same_json(closing, choice):
        return dict(closing)
    index = choice.get("d")
    if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(state.defenders):
        return None
    defender = state.defenders[index]
    if defender.seat != seat:
        return None
    if not _fits(state, seat, kind):
        return None
    if _acting(state, kind) in (-1, index):
        choices = _actions_of_act(state, defender, choice, own_card=act.card == "defender")
    else:
        choices = _abilities_of_act(state, defender, choice, own_turn=False)
    return _matching(choices, choice)


def _acting(state: DefendersState, kind: str) -> int | None:
    """Whose every action a card prompt offers: the Defender taking its Turn, -1 for every
    Defender (All Defenders), None for none (a reaction offers abilities alone)."""
    act = state.active
    assert act is not None
    if kind == "react":
        return None
    return (act.defender or 0) if act.card == "defender" else -1


def most_options(state: DefendersState, seat: int, kind: str) -> int:
    """At least as many options as ``seat``'s ``kind`` card prompt lists before its closing
    one and any cut: every Defender of the seat is offered, all it may do on its own Turn or
    on All Defenders, only its abilities on another Defender's Turn or in a reaction."""
    acting = _acting(state, kind)
    return sum(_most_actions(state, one) if acting in (-1, one.idx) else _most_abilities(one)
               for one in state.of_seat(seat))


def _fits(state: DefendersState, seat: int, kind: str) -> bool:
    """Whether ``seat``'s ``kind`` card prompt lists all its options uncut: shown first by a
    coarser bound that looks at no place (every road with three escort counts, or a flight to
    every place), then by `most_options`."""
    coarse = sum(_most_abilities(one) + 3 + (len(state.ring) + 1 if one.riding else MOST_ROADS * 4)
                 for one in state.of_seat(seat))
    return coarse + 1 <= MAX_OPTIONS or most_options(state, seat, kind) + 1 <= MAX_OPTIONS


def _most_abilities(defender: Defender) -> int:
    """At least as many options as `ability_options` gives: Level Up and every source (the
    Defender's own ability, at most two of the place, its artifacts and skills)."""
    return 4 + len(defender.artifacts) + len(defender.skills)


def _most_actions(state: DefendersState, defender: Defender) -> int:
    """At least as many options as `defender_actions` gives (not compact): every flight or
    every road with each of its escort counts, Secure, Fight, Prepare, the abilities."""
    here = defender.region
    if defender.riding:
        moves = len(state.ring) + 1
    else:
        region = None if here == CAPITAL else state.regions[here]
        escorts = len(escort_counts(region.caravans, defender.xp)) if region and region.caravans and defender.xp else 0
        moves = MOST_ROADS * (1 + escorts)
    return moves + 3 + _most_abilities(defender)


def _actions_of_act(state: DefendersState, defender: Defender, choice: dict[str, Any],
                    own_card: bool) -> list[dict[str, Any]]:
    """The choices of the options of `defender_actions` (not compact) whose act is the choice's."""
    act = state.active
    assert act is not None
    ap = act.ap
    what = choice.get("act")
    if what in ("fly", "move"):
        return movement_choices(state, defender, ap, only_to=choice.get("to"))
    if what == "secure":
        return _one_if(secure_open(state, defender, ap), what, defender)
    if what == "fight":
        return _one_if(fight_open(state, defender, ap), what, defender)
    if what == "prepare":
        return _one_if(prepare_open(defender, ap, own_card), what, defender)
    return _abilities_of_act(state, defender, choice, own_turn=True)


def _one_if(offered: bool, what: str, defender: Defender) -> list[dict[str, Any]]:
    """The choice of a Secure, a Fight or a Prepare (``what``) when it is ``offered``."""
    return [{"act": what, "d": defender.idx}] if offered else []


def _abilities_of_act(state: DefendersState, defender: Defender, choice: dict[str, Any],
                      own_turn: bool) -> list[dict[str, Any]]:
    """The choices of the options of `ability_options` whose act is the choice's (Level Up, or
    the ability of the choice's source)."""
    act = state.active
    assert act is not None
    what = choice.get("act")
    if what not in ("level", "use"):
        return []
    src = choice.get("src")
    if what == "use" and not isinstance(src, str):
        return []
    # No source is named "": Level Up alone.
    return ability_choices(state, defender, own_turn=own_turn, ap=act.ap, only_src=src if what == "use" else "")


def defence_picks(state: DefendersState, attack: Attack, mine: list[Defender]) -> list[tuple[str, Defender]]:
    """What a seat's defence prompt offers before "Let it through", in order: a defence by each
    of its Defenders able to pay for it, then a Level Up by each at 8 XP (``mine``: the seat's
    Defenders asked about ``attack``)."""
    return ([("defend", d) for d in mine if rules.can_defend(state, d, attack)]
            + [("level", d) for d in mine if d.xp >= rules.XP_MAX])


def _defence_option(state: DefendersState, seat: int, choice: dict[str, Any]) -> dict[str, Any] | None:
    if not state.attacks:
        return None
    if choice == DECLINE and same_json(DECLINE, choice):
        return dict(DECLINE)
    attack = state.attacks[0]
    mine = rules.seat_defenders_for(state, attack, seat)
    return _matching([{"act": what, "d": d.idx} for what, d in defence_picks(state, attack, mine)], choice)


def pending_targets(state: DefendersState) -> list[Target]:
    """The targets the pending ability may take (its target prompt's options before Back)."""
    act = state.active
    assert act is not None and act.pick is not None
    defender = state.defenders[act.pick["d"]]
    ability = effects.ability_of(state, defender, act.pick["src"])
    assert ability is not None
    return effects.targets(state, defender, act.pick["src"], ability)


def _target_option(state: DefendersState, choice: dict[str, Any]) -> dict[str, Any] | None:
    act = state.active
    if act is None or act.pick is None:
        return None
    if choice == BACK and same_json(BACK, choice):
        return dict(BACK)
    targets = pending_targets(state)
    if len(targets) + 1 > MAX_OPTIONS:
        return None
    return _matching([{"act": "target", "target": target} for target in targets], choice)


def _matching(choices: list[dict[str, Any]], choice: dict[str, Any]) -> dict[str, Any] | None:
    return next((dict(one) for one in choices if one == choice and same_choice(one, choice)), None)


_ATOM_TYPES = frozenset({str, int, float, bool, type(None)})


def same_choice(option: dict[str, Any], choice: dict[str, Any]) -> bool:
    """`same_json` of an option's choice and an answer equal to it (``==``): where every value
    of the option's (its keys are names) is an atom of the very type of the answer's, both write
    the same JSON; anything else (True for 1, 1.0 for 1, a list) is left to `same_json`."""
    for key, value in option.items():
        kind = type(value)
        if kind not in _ATOM_TYPES or kind is not type(choice[key]):
            return same_json(option, choice)
    return True
