"""What counts as "hidden information was revealed" by one accepted choice, per game.

An undo after a reveal would let the host choose again knowing what nobody should know yet
(the dice of this step, the card on top of a deck, the others' sealed choices), so it needs the
other players' consent. Three checks, the first two for every game:

- chance: the step's RNG is derived from (seed, step), so the same choice made again rolls the
  same dice. Replaying the choice with another seed tells whether luck played any part in it.
- a sealed step resolved: the choice answered a secret prompt and the step locked with it.
- a hidden pile changed: a card left (or was shuffled into) a deck whose order nobody sees;
  decks shuffled at setup are drawn without the RNG, so chance alone misses them.
"""

from __future__ import annotations

from typing import Any

import engine as eng

OTHER_LUCK = 16
"""Other seeds a choice is replayed under: a die could roll the same under one other seed
(one time in six), but a coin flip comes out the same under all 16 one time in 65,536."""


def reveal(game: eng.Game, before: eng.State, seat: int, choice: dict[str, Any], step: eng.Step) -> str | None:
    """Why the accepted ``choice`` of ``seat`` (turning ``before`` into ``step``) revealed hidden
    information, in a few public words; None when it revealed nothing."""
    prompt = next((p for p in game.prompts(before) if p.seat == seat), None)
    if prompt is not None and prompt.secret:
        after = next((p for p in game.prompts(step.state) if p.seat == seat), None)
        if not (after is not None and after.secret and after.answered and after.kind == prompt.kind):
            return "a sealed step was revealed"
    for name in game.info.face_down:  # cards face down (GameInfo)
        if getattr(before, name, None) != getattr(step.state, name, None):
            return "a hidden card was drawn"
    if _luck_mattered(game, before, seat, choice, step):
        return "dice were rolled or cards dealt"
    return None


def _luck_mattered(game: eng.Game, before: eng.State, seat: int, choice: dict[str, Any], step: eng.Step) -> bool:
    """Whether the same choice under other seeds gives another outcome (events or state)."""
    events = [e.model_dump() for e in step.events]
    mine = step.state.model_dump(mode="json", exclude={"seed"})
    for n in range(1, OTHER_LUCK + 1):
        other = before.model_copy(update={"seed": eng.derive_seed(before.seed, n, "other luck") % 2**62}, deep=True)
        try:
            alternative = game.submit(other, seat, choice)
        except eng.IllegalChoice:
            return True  # legal under some luck only: luck decided it
        if [e.model_dump() for e in alternative.events] != events:
            return True
        if alternative.state.model_dump(mode="json", exclude={"seed"}) != mine:
            return True
    return False
