"""Pure game rules. No I/O, no asyncio, no discord, no database, no Pillow."""

from collections.abc import Sequence
from typing import Any

from engine.contract import (
    Event,
    Game,
    IllegalChoice,
    LabelsPhases,
    NumberField,
    Option,
    PlaysInPlace,
    Prompt,
    PromptShape,
    Result,
    Standing,
    State,
    Step,
    ViewsGivenPrompts,
    implements,
)
from engine.information import decide, information
from engine.registry import (
    SHIPPED,
    default_key,
    extras,
    games,
    get,
    parse_options,
    register,
    replay,
    unregister,
)
from engine.rng import derive_seed, lazy_rng_for, rng_for
from engine.validate import canonical_json, log_sha256, parse_choice
from engine.working import Working


def phase_label(game: Game, state: State) -> str:
    """The phase ``state`` is in, as its public view heads it; from the game's own
    ``phase_label`` where it has one (no view built), else from the public view."""
    if isinstance(game, LabelsPhases):
        return game.phase_label(state)
    return str(game.view(state, None).get("phase_label") or "")


def view(game: Game, state: State, seat: int | None, prompts: Sequence[Prompt] | None = None) -> dict[str, Any]:
    """``game.view(state, seat)``; ``prompts``: ``game.prompts(state)`` when the caller built
    them already, which a game that views them (`ViewsGivenPrompts`) then does not build again."""
    if prompts is not None and implements(game, ViewsGivenPrompts):
        return game.view_given(state, seat, prompts)  # type: ignore[attr-defined]
    return game.view(state, seat)


__all__ = [
    "SHIPPED",
    "default_key",
    "extras",
    "Event",
    "Game",
    "IllegalChoice",
    "LabelsPhases",
    "phase_label",
    "NumberField",
    "Option",
    "PlaysInPlace",
    "Prompt",
    "PromptShape",
    "Result",
    "Standing",
    "State",
    "Step",
    "ViewsGivenPrompts",
    "view",
    "Working",
    "canonical_json",
    "decide",
    "information",
    "derive_seed",
    "lazy_rng_for",
    "log_sha256",
    "parse_choice",
    "games",
    "get",
    "parse_options",
    "register",
    "replay",
    "rng_for",
    "unregister",
]
