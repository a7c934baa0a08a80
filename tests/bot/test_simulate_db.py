"""`simulate --db` stores the very match that the engine-only simulation plays."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "bot", *args], cwd=ROOT, capture_output=True, text=True, timeout=180)


def test_stored_match_equals_engine_match_and_verifies(tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'sim.db'}"
    plain = json.loads(run("simulate", "tinybigwars", "--seats", "3", "--seed", "5", "--json").stdout)
    proc = run("simulate", "tinybigwars", "--seats", "3", "--seed", "5", "--json", "--db", url)
    assert proc.returncode == 0, proc.stderr
    stored = json.loads(proc.stdout)
    assert stored["match_id"] == 1 and stored["status"] == "finished"
    for key in ("log_sha256", "choices", "winner", "draw"):
        assert stored[key] == plain[key], key
    verify = run("replay", "1", "--db", url, "--verify")
    assert verify.returncode == 0 and "\nOK: replay matches" in verify.stdout, verify.stdout + verify.stderr
    listing = run("matches", "--db", url)
    assert "tinybigwars" in listing.stdout and "finished" in listing.stdout


def test_a_stored_cooperative_match_equals_the_engine_match(tmp_path: Path) -> None:
    """Defenders offers optional prompts (skills on another player's Turn): the service's AI must
    answer them exactly as the engine-only simulation does, or the stored match would differ."""
    url = f"sqlite+aiosqlite:///{tmp_path / 'coop.db'}"
    args = ("simulate", "defenders", "--seats", "3", "--seed", "5", "--json")
    plain = json.loads(run(*args).stdout)
    proc = run(*args, "--db", url)
    assert proc.returncode == 0, proc.stderr
    stored = json.loads(proc.stdout)
    assert stored["status"] == "finished"
    for key in ("log_sha256", "choices", "winner"):
        assert stored[key] == plain[key], key
    verify = run("replay", "1", "--db", url, "--verify")
    assert verify.returncode == 0 and "OK: replay matches" in verify.stdout


def test_the_summary_names_players_never_engine_seat_references() -> None:
    proc = run("simulate", "samurai", "--seats", "3", "--seed", "7")
    assert proc.returncode == 0, proc.stderr
    assert "[[seat:" not in proc.stdout
    assert "heuristic AI: won by Player " in proc.stdout
