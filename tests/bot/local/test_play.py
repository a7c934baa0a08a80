"""`python -m bot play` driven through its standard input, as a player at a terminal would."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from PIL import Image

ROOT = Path(__file__).resolve().parents[3]


def play(tmp: Path, stdin: str, *extra: str) -> subprocess.CompletedProcess[str]:
    cmd = [sys.executable, "-m", "bot", "play", "tinybigwars", "--seats", "2", "--seed", "3",
           "--db", f"sqlite+aiosqlite:///{tmp / 'local.db'}", "--maps", str(tmp / "maps"), *extra]
    return subprocess.run(cmd, cwd=ROOT, input=stdin, capture_output=True, text=True, timeout=240)


def test_play_to_the_end_refusing_bad_input(tmp_path: Path) -> None:
    # "99" and "x" are refused with the reason; empty lines take the suggested answers.
    proc = play(tmp_path, "99\nx\n" + "\n" * 3000)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    out = proc.stdout
    assert "Not allowed: '99' is not one of the numbers 1 to 19. Try again." in out
    assert "Not allowed: 'x' is not one of the numbers 1 to 19. Try again." in out
    assert "The match is over" in out
    assert ">> Build your force secretly" in out
    # The terminal shows what the channel would see, not Discord's pointers to DMs.
    assert "in your DMs" not in out and "/game act" not in out
    maps = sorted((tmp_path / "maps").glob("*.png"))
    assert len(maps) >= 3 and maps[-1].name.endswith("result.png")
    with Image.open(maps[-1]) as img:
        assert img.size == (1200, 900)


def test_interrupted_match_resumes(tmp_path: Path) -> None:
    first = play(tmp_path, "\n\n")
    assert first.returncode == 3
    assert "python -m bot play --resume" in first.stdout
    again = play(tmp_path, "\n" * 3000, "--resume")
    assert again.returncode == 0, again.stdout[-2000:] + again.stderr[-2000:]
    assert "Resuming match #1" in again.stdout
    assert "The match is over" in again.stdout


def test_resume_without_a_match_says_so(tmp_path: Path) -> None:
    proc = play(tmp_path, "", "--resume")
    assert proc.returncode == 2
    assert "no interrupted local match" in proc.stdout


def test_the_ai_teammates_moves_between_maps_are_shown(tmp_path: Path) -> None:
    """Public lines that end no phase reach the terminal too; Discord's DM pointers do not."""
    cmd = [sys.executable, "-m", "bot", "play", "defenders", "--seats", "2", "--seed", "4",
           "--db", f"sqlite+aiosqlite:///{tmp_path / 'co.db'}", "--maps", str(tmp_path / "maps")]
    proc = subprocess.run(cmd, cwd=ROOT, input="\n" * 3000, capture_output=True, text=True, timeout=240)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    out = proc.stdout
    assert "The match is over. The Defenders" in out
    # The AI's skill pick is a public line that ends no phase (no map): it is shown all the same.
    assert "(AI 1 (heuristic)) keeps the skill " in out
    assert "in your DMs" not in out
