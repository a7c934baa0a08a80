"""The all-AI simulation: deterministic summary, callback per step, the CLI JSON line."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from bot.simulate import simulate

ROOT = Path(__file__).resolve().parents[3]
KEYS = {"game", "seats", "seed", "winner", "rounds", "choices", "log_sha256", "reason"}


def test_simulate_returns_the_summary_and_calls_back_every_step() -> None:
    seen: list[int] = []
    out = simulate("tinybigwars", 3, 7, on_step=lambda state, events: seen.append(state.step))
    assert set(out) >= KEYS
    assert out["game"] == "tinybigwars" and out["seats"] == 3 and out["seed"] == 7
    assert out["choices"] == len(out["log"]) == len(seen) and seen == list(range(1, len(seen) + 1))
    assert out["winner"] and all(0 <= w < 3 for w in out["winner"])
    assert out["phase_ends"] and out["phase_ends"][0].startswith("Forces revealed")


def test_simulate_is_deterministic_per_seed_and_policy() -> None:
    a, b = simulate("tinybigwars", 2, 5, "random"), simulate("tinybigwars", 2, 5, "random")
    assert a["log_sha256"] == b["log_sha256"] and a["log"] == b["log"]
    assert simulate("tinybigwars", 2, 6, "random")["log_sha256"] != a["log_sha256"]


def test_unknown_policy_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown policy"):
        simulate("tinybigwars", 2, 1, "genius")


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bot", "simulate", "tinybigwars", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )


def test_cli_json_line_is_identical_across_runs() -> None:
    args = ("--seats", "3", "--seed", "7", "--json")
    first, second = _cli(*args).stdout, _cli(*args).stdout
    assert first == second
    lines = first.splitlines()
    assert len(lines) == 1
    data = json.loads(lines[0])
    assert set(data) >= KEYS and "log" not in data and data["seed"] == 7
    assert data["log_sha256"] == simulate("tinybigwars", 3, 7)["log_sha256"]


def test_cli_readable_summary() -> None:
    out = _cli("--seats", "2", "--seed", "3", "--policy", "random").stdout
    assert "tinybigwars: 2 seats, seed 3, random AI" in out and "log sha256" in out


def test_every_phase_end_is_marked_in_order() -> None:
    kinds: list[str] = []
    simulate(
        "tinybigwars",
        3,
        2,
        on_step=lambda state, events: kinds.extend(e.kind for e in events if e.phase_end),
    )
    assert kinds[0] == "force_reveal" and kinds[-1] == "game_over"
    body = kinds[1:-1]
    assert body[:2] == ["clan_end", "activation_end"]
    for i in range(0, len(body) - 2, 3):
        assert body[i : i + 3] == ["clan_end", "activation_end", "round_end"]
    assert body[-2:] == ["clan_end", "activation_end"]
