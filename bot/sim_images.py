"""Map images of a simulated match: one PNG per phase end, the final state, a replay GIF."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import engine
import render
from engine.contract import Event, State


class PhaseImages:
    """An ``on_step`` callback for ``bot.simulate.simulate`` that draws every phase end."""

    def __init__(self, key: str, out: Path, names: list[str] | None = None) -> None:
        self.key = key
        self.game = engine.get(key)
        self.out = out
        self.names = names
        self.frames: list[bytes] = []
        self.paths: list[Path] = []
        out.mkdir(parents=True, exist_ok=True)

    def _write(self, state: State, label: str) -> None:
        png = render.draw(self.key, self.game.view(state, None), names=self.names)
        path = self.out / f"{len(self.frames) + 1:03d}-{label}.png"
        path.write_bytes(png)
        self.frames.append(png)
        self.paths.append(path)

    def __call__(self, state: State, events: list[Event]) -> None:
        ends = [e for e in events if e.phase_end and e.seats is None]
        if ends:
            self._write(state, ends[-1].kind.replace("_", "-")[:30] or "phase")

    def finish(self, state: State) -> dict[str, Any]:
        self._write(state, "final")
        gif = render.animate(self.frames)
        gif_path = self.out / "replay.gif"
        gif_path.write_bytes(gif)
        return {"images": len(self.paths), "gif_bytes": len(gif), "out": str(self.out)}
