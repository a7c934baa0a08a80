"""Samurai Swords fixture views, captured once from the real engine and stored as JSON.

Why stored, not generated on the fly: goldens and pixel tests must not move when the engine's
AI or rules change. `capture()` plays seeded all-AI matches (engine/samurai) and saves a few
moments worth drawing; the tests only read `samurai_fixtures/*.json`. Regenerate with

    PYTHONPATH=. /work/venv/bin/python -m tests.render.samurai_views

then regenerate the goldens and look at them. Each file holds the public view and every
seat's `you` block (a seat view is the public view plus `you`, docs/design/samurai-view.md);
`capture` checks that this reconstruction equals `game.view(state, seat)`.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

FIXTURES = Path(__file__).with_name("samurai_fixtures")
NAMES_5 = ["Aiko", "Benkei", "Chiyo", "Daisuke", "Emi"]

View = dict[str, Any]


def load(name: str) -> dict[str, Any]:
    """A stored fixture: {"public": view, "you": {seat: you-block}, "note": ...} (fresh copy)."""
    data = json.loads((FIXTURES / f"{name}.json").read_text(encoding="utf-8"))
    data["you"] = {int(k): v for k, v in data["you"].items()}
    return data


def public(name: str) -> View:
    """The public view of a stored fixture."""
    return load(name)["public"]


def seat_view(name: str, seat: int) -> View:
    """The seat view of a stored fixture: the public view plus that seat's `you`."""
    data = load(name)
    v = data["public"]
    v["you"] = data["you"][seat]
    return v


def names(name: str) -> list[str]:
    """Display names for a fixture's seats."""
    return NAMES_5[: len(public(name)["seats"])]


# name: (seats, seed, options, predicate on (public view, step index) choosing the moment)
Moment = Callable[[View], bool]
PLAN: dict[str, tuple[int, int, dict[str, Any], Moment]] = {
    # round 1 planning: some plans sealed, others still owed
    "base3_plan": (3, 5, {"round_limit": 3}, lambda v: v["phase"] == "plan" and 0 < len(v["waiting"]) < 3),
    # a battle in progress with declarations, armies on the board
    "base4_battle": (4, 9, {"round_limit": 3}, lambda v: bool(v["war"] and v["war"]["battle"])),
    # LWTV: neutral Kyoto/Osaka, VP, objective hands, a war turn with declarations
    "lwtv4_war": (4, 11, {"round_limit": 3, "mode": "lwtv"},
                  lambda v: bool(v["war"] and v["war"]["declarations"]) and v["round"] >= 2),
    # 5 seats, levy being sealed
    "qs5_levy": (5, 3, {"round_limit": 2, "mode": "quickstart"}, lambda v: v["phase"] == "levy" and 0 < len(v["waiting"]) < 5),
    # the end: result banner
    "base3_over": (3, 21, {"round_limit": 2}, lambda v: bool(v["result"])),
}


def capture() -> None:
    """Play the seeded matches of PLAN and store the first matching moment of each."""
    import engine
    from bot.simulate import simulate

    game = engine.get("samurai")
    FIXTURES.mkdir(exist_ok=True)
    for name, (seats, seed, options, wanted) in PLAN.items():
        found: dict[str, Any] = {}

        def on_step(state: Any, events: list[Any], found: dict[str, Any] = found, wanted: Moment = wanted,
                    seats: int = seats) -> None:
            if found:
                return
            pub = game.view(state, None)
            if not wanted(pub):
                return
            yous = {}
            for s in range(seats):
                sv = game.view(state, s)
                assert {**copy.deepcopy(pub), "you": sv["you"]} == sv, "seat view is not public + you"
                yous[str(s)] = sv["you"]
            found.update(public=pub, you=yous)

        simulate("samurai", seats, seed, options=options, on_step=on_step)
        assert found, f"{name}: the moment never happened"
        found["note"] = f"{seats} seats, seed {seed}, options {options}"
        (FIXTURES / f"{name}.json").write_text(json.dumps(found, sort_keys=True, ensure_ascii=False), encoding="utf-8")
        print(name, found["public"]["phase_label"])


ALL = list(PLAN)

if __name__ == "__main__":
    capture()
