"""The game kit: the one way to write a game for the engine contract (engine/contract.py).

- `GameInfo` (info.py): what a game declares about itself.
- `KitGame` (game.py): the Game class plumbing; `WrongGame` for another game's state.
- `ContentError` and the content readers (errors.py, content.py).
- `emit` (events.py) and `opt` (prompting.py): events with the short public log, options.
- `Flow` and `StepRandom` (flow.py): one choice's pass over a copied state.
- `Phase`, `Sealed`, `Interrupts`, `PhaseTable`, `Handler`, `Asked` (phases.py): the declarative phase
  table, its automatic steps and the loop that settles the game between decisions.
- `PromptOnRead` (on_read.py): an all-AI driver's next prompt, built only when first read.
"""

from engine.kit.content import data_folder, parse, read_json, read_toml
from engine.kit.errors import ContentError, WrongGame
from engine.kit.events import LOG_LENGTH, emit
from engine.kit.flow import Flow, StepRandom
from engine.kit.game import KitGame
from engine.kit.info import GameInfo
from engine.kit.phases import ASKS_NOTHING, Asked, Handler, Interrupts, Phase, PhaseTable, Sealed
from engine.kit.prompting import opt

__all__ = [
    "ASKS_NOTHING",
    "Asked",
    "LOG_LENGTH",
    "ContentError",
    "Flow",
    "GameInfo",
    "Handler",
    "Interrupts",
    "KitGame",
    "Phase",
    "PhaseTable",
    "Sealed",
    "StepRandom",
    "WrongGame",
    "data_folder",
    "emit",
    "opt",
    "parse",
    "read_json",
    "read_toml",
]
