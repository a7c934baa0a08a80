"""An AP-card answer checked against its own act's options alone, without the seat's prompt.

A card prompt (turn, all, react) lists every option of every Defender of the seat, which costs
the legality of every action (move costs, usable abilities). An answer names one Defender and
one act; when the seat's options provably fit the prompt's 25 without shortening (the same
count test `seat_card_options` makes, here against an upper bound found without building any
option), the prompt lists that Defender's options of that act exactly as `card_options`
builds them, so the answer is checked against those alone. Otherwise, and whenever the answer
is not found that way, the caller checks it against the full prompt, which refuses it with
the same words as always: this path only ever accepts.
"""

from __future__ import annotations

from typing import Any

from engine.contract import Option
from engine.defenders import board, effects
from engine.defenders.board import CAPITAL
from engine.defenders.card_options import (
    ability_options,
    escort_counts,
    fight_options,
    movement_options,
    prepare_options,
    secure_options,
)
from engine.defenders.prompting import MAX_OPTIONS
from engine.defenders.state import Defender, DefendersState
from engine.validate import same_json

CARD_KINDS = ("turn", "all", "react")
"""The prompt kinds whose options `card_options` builds per Defender."""

CLOSING = {"turn": {"act": "end"}, "all": {"act": "pass"}, "react": {"act": "pass"}}
"""The option every card prompt of a kind ends with, kept whatever the fit cuts."""


def named_option(state: DefendersState, seat: int, kind: str, choice: object) -> dict[str, Any] | None:
    """The option of ``seat``'s ``kind`` card prompt that ``choice`` is (a copy of its choice),
    found without building the prompt; None when that cannot be shown this way (the full
    prompt then decides)."""
    act = state.active
    if kind not in CARD_KINDS or act is None or not isinstance(choice, dict):
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
    main, others = _card_defenders(state, seat, kind)
    if index not in {one.idx for one in main} | {one.idx for one in others}:
        return None
    if sum(_most_actions(state, one) for one in main) + sum(_most_abilities(state, one) for one in others) \
            + 1 > MAX_OPTIONS:
        return None
    if any(one.idx == index for one in main):
        options = _actions_of_act(state, defender, choice, own_card=act.card == "defender")
    else:
        options = _abilities_of_act(state, defender, choice, own_turn=False)
    found = next((option for option in options
                  if option.choice == choice and same_json(option.choice, choice)), None)
    return None if found is None else dict(found.choice)


def _card_defenders(state: DefendersState, seat: int, kind: str) -> tuple[list[Defender], list[Defender]]:
    """The seat's Defenders offered every action (``main``) and those offered only their
    abilities (``others``), as `seat_card_options` and `react_prompt` split them."""
    act = state.active
    assert act is not None
    mine = state.of_seat(seat)
    if kind == "react":
        return [], mine
    if act.card == "defender":
        active = state.defenders[act.defender or 0]
        return ([active] if active.seat == seat else []), [d for d in mine if d.idx != active.idx]
    return mine, []


def _most_abilities(state: DefendersState, defender: Defender) -> int:
    """At least as many options as `ability_options` gives: Level Up and every source."""
    return 1 + len(effects.sources(state, defender))


def _most_actions(state: DefendersState, defender: Defender) -> int:
    """At least as many options as `defender_actions` gives (not compact): every flight or
    every road with each of its escort counts, Secure, Fight, Prepare, the abilities."""
    here = defender.region
    if defender.riding:
        moves = len(state.ring) + 1
    else:
        region = None if here == CAPITAL else state.regions[here]
        escorts = len(escort_counts(region.caravans, defender.xp)) if region and region.caravans and defender.xp else 0
        moves = len(board.adjacent(state, here)) * (1 + escorts)
    return moves + 3 + _most_abilities(state, defender)


def _actions_of_act(state: DefendersState, defender: Defender, choice: dict[str, Any], own_card: bool) -> list[Option]:
    """The options of `defender_actions` (not compact) whose act is the choice's."""
    act = state.active
    assert act is not None
    ap = act.ap
    what = choice.get("act")
    if what in ("fly", "move"):
        return movement_options(state, defender, ap, only_to=choice.get("to"))
    if what == "secure":
        return secure_options(state, defender, ap)
    if what == "fight":
        return fight_options(state, defender, ap)
    if what == "prepare":
        return prepare_options(state, defender, ap, own_card)
    return _abilities_of_act(state, defender, choice, own_turn=True)


def _abilities_of_act(state: DefendersState, defender: Defender, choice: dict[str, Any], own_turn: bool) -> list[Option]:
    """The options of `ability_options` whose act is the choice's (Level Up, or the ability
    of the choice's source)."""
    act = state.active
    assert act is not None
    what = choice.get("act")
    if what not in ("level", "use"):
        return []
    src = choice.get("src")
    if what == "use" and not isinstance(src, str):
        return []
    # No source is named "": Level Up alone.
    return ability_options(state, defender, own_turn=own_turn, ap=act.ap, only_src=src if what == "use" else "")
