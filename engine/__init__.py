"""Pure game rules. No I/O, no asyncio, no discord, no database, no Pillow."""

from engine.contract import (
    Event,
    Game,
    IllegalChoice,
    NumberField,
    Option,
    PlaysInPlace,
    Prompt,
    PromptShape,
    Result,
    Standing,
    State,
    Step,
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

__all__ = [
    "SHIPPED",
    "default_key",
    "extras",
    "Event",
    "Game",
    "IllegalChoice",
    "NumberField",
    "Option",
    "PlaysInPlace",
    "Prompt",
    "PromptShape",
    "Result",
    "Standing",
    "State",
    "Step",
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
