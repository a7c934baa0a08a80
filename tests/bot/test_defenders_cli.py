"""Tiny Epic Defenders from the command line: `simulate` (1-4 seats, --mode, --option) and
`play` at the terminal, and the cooperative closing line."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import engine
from bot.service.core import result_text
from engine.contract import Result

ROOT = Path(__file__).resolve().parents[2]


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "bot", *args], cwd=ROOT, input=stdin, capture_output=True,
                          text=True, timeout=240)


@pytest.mark.parametrize("seats", [1, 2, 3, 4])
def test_simulate_defenders_every_table_size(seats: int) -> None:
    proc = run("simulate", "defenders", "--seats", str(seats), "--seed", "7", "--json")
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["game"] == "defenders" and out["seats"] == seats and out["choices"] > 10
    # Co-op: everyone wins or nobody does.
    assert out["winner"] in ([], list(range(seats)))


def test_simulate_mode_and_option_reach_the_game(tmp_path: Path) -> None:
    a = run("simulate", "defenders", "--seats", "2", "--seed", "4", "--json", "--mode", "campaign",
            "--option", "difficulty=epic")
    b = run("simulate", "defenders", "--seats", "2", "--seed", "4", "--json")
    assert a.returncode == 0 and b.returncode == 0, a.stderr + b.stderr
    assert json.loads(a.stdout)["log_sha256"] != json.loads(b.stdout)["log_sha256"]
    out = tmp_path / "maps"
    c = run("simulate", "defenders", "--seats", "1", "--seed", "4", "--json", "--option", "difficulty=easy",
            "--out", str(out))
    assert c.returncode == 0, c.stderr
    assert json.loads(c.stdout)["images"] == len(list(out.glob("*.png"))) >= 2
    bad = run("simulate", "defenders", "--seats", "1", "--option", "difficulty=silly")
    assert bad.returncode == 2 and "difficulty" in bad.stdout
    worse = run("simulate", "defenders", "--seats", "1", "--option", "difficulty")
    assert worse.returncode == 2 and "KEY=VALUE" in worse.stdout


def test_play_defenders_solo_at_the_terminal(tmp_path: Path) -> None:
    proc = run("play", "defenders", "--seats", "1", "--seed", "3", "--option", "difficulty=easy",
               "--db", f"sqlite+aiosqlite:///{tmp_path / 'local.db'}", "--maps", str(tmp_path / "maps"),
               stdin="9\n" + "\n" * 3000)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    out = proc.stdout
    assert "Tiny Epic Defenders. You play " in out
    assert ">> Choose the first skill of" in out
    assert "Not allowed: '9' is not a number from 1 to 2." in out
    assert ">> Your Turn (Defender card)" in out and "End the Turn" in out
    assert "The Defenders won:" in out or "The Defenders lost:" in out
    assert "nobody won" not in out
    assert sorted((tmp_path / "maps").glob("*.png"))[-1].name.endswith("result.png")


def test_cooperative_result_line() -> None:
    game = engine.get("defenders")
    assert game.cooperative is True
    names = ["alice", "bob"]
    won = result_text(game, Result(winners=[0, 1], reason="Abyss Leviathan was defeated"), names)
    lost = result_text(game, Result(winners=[], reason="the Capital City fell"), names)
    assert won == "**The match is over. The Defenders won: Abyss Leviathan was defeated.**"
    assert lost == "**The match is over. The Defenders lost: the Capital City fell.**"
    versus = engine.get("tinybigwars")
    assert result_text(versus, Result(winners=[1], reason="10 influence"), names) == \
        "**The match is over: bob won** (10 influence)."
    assert "nobody won" in result_text(versus, Result(winners=[], reason="round limit"), names)


def test_simulate_names_the_team_not_the_seats() -> None:
    proc = run("simulate", "defenders", "--seats", "3", "--seed", "9")
    assert proc.returncode == 0, proc.stderr
    assert "heuristic AI: the Defenders won (" in proc.stdout and "won by seat" not in proc.stdout
