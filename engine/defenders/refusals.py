"""Why a submitted answer is refused, in words a player can act on."""

from __future__ import annotations

from typing import Any

from engine.contract import Prompt
from engine.defenders import board
from engine.defenders.content import content
from engine.defenders.state import DefendersState

KNOWN_ACTS = {"move", "fly", "secure", "fight", "prepare", "level", "use", "end", "pass", "focus", "target",
              "back", "defend", "decline", "drop", "leave", "keep", "cap", "trade", "accept", "refuse",
              "withdraw", "ready"}


def check_seat(state: DefendersState, seat: Any) -> str | None:
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < state.seats:
        return f"There is no seat {seat!r} in this match (seats 0 to {state.seats - 1})."
    return None


def why_not(state: DefendersState, seat: int, prompt: Prompt, choice: Any) -> str:
    """The most specific reason this answer is not one of the prompt's options."""
    if not isinstance(choice, dict):
        return "A choice must be a set of named fields, like {\"act\": \"end\"}."
    act = choice.get("act")
    if act not in KNOWN_ACTS:
        return f"Unknown action {act!r}."
    d = choice.get("d")
    if "d" in choice:
        if isinstance(d, bool) or not isinstance(d, int) or not 0 <= d < len(state.defenders):
            return f"There is no Defender {d!r}."
        if state.defenders[d].seat != seat:
            name = content().defender(state.defenders[d].key).name
            return f"{name} is not your Defender."
    acts = {o.choice.get("act") for o in prompt.options}
    if act not in acts:
        return f"You cannot {act} now: this is a {prompt.kind} decision."
    to = choice.get("to")
    if act == "move" and d is not None and isinstance(to, str):
        here = state.defenders[d].region
        if to not in [*state.ring, board.CAPITAL]:
            return f"There is no region {to!r}."
        if to not in board.adjacent(state, here):
            return "You can only move to an adjacent region."
        return "You do not have the AP (or the XP to escort that many Caravans) for that move."
    shown = "; ".join(o.label for o in prompt.options[:8])
    return f"That choice is not open now. Open choices: {shown}."
