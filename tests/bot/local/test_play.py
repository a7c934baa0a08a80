"""`python -m bot play` driven through its standard input, as a player at a terminal would."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

from PIL import Image

from bot.local.table import Table
from bot.naming import shown_prompt

ROOT = Path(__file__).resolve().parents[3]


def env_for(tmp: Path) -> dict[str, str]:
    """The table's data directory inside the test's folder, never the user's."""
    return {**os.environ, "WARHOST_DATA_DIR": str(tmp / "data")}


def play(tmp: Path, stdin: str, *extra: str, db: bool = True) -> subprocess.CompletedProcess[str]:
    where = ["--db", f"sqlite+aiosqlite:///{tmp / 'local.db'}", "--maps", str(tmp / "maps")] if db else []
    cmd = [sys.executable, "-m", "bot", "play", "tinybigwars", "--seats", "2", "--seed", "3", *where, *extra]
    return subprocess.run(cmd, cwd=ROOT, input=stdin, capture_output=True, text=True, timeout=240,
                          env=env_for(tmp))


def test_play_to_the_end_refusing_bad_input(tmp_path: Path) -> None:
    # "99" and "x" are refused with the reason; empty lines take the suggested answers.
    proc = play(tmp_path, "99\nx\n" + "\n" * 3000)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    out = proc.stdout
    assert "Not allowed: '99' is not a number from 1 to 19." in out
    assert "Not allowed: 'x' is not a number from 1 to 19." in out
    assert "[[seat:" not in out, "names, never the engine's seat references"
    assert re.search(r"\[Enter takes 1, Ember Fist \(\d+ points\)[;\]]", out), "Enter names the suggestion"
    assert "The match is over" in out
    assert ">> Build your force secretly" in out
    # The terminal shows what the channel would see, not Discord's pointers to DMs.
    assert "in your DMs" not in out and "/game act" not in out
    maps = sorted((tmp_path / "maps").glob("*.png"))
    assert len(maps) >= 3 and maps[-1].name.endswith("result.png")
    with Image.open(maps[-1]) as img:
        assert img.size == (1200, 1560)
    replay = tmp_path / "maps" / "replay.gif"
    assert f"[replay of every phase saved: {replay}]" in out
    with Image.open(replay) as gif:
        assert gif.format == "GIF" and gif.n_frames >= 2


def test_interrupted_match_resumes(tmp_path: Path) -> None:
    first = play(tmp_path, "\n\n")
    assert first.returncode == 3
    assert "python -m bot play --resume" in first.stdout
    again = play(tmp_path, "\n" * 3000, "--resume")
    assert again.returncode == 0, again.stdout[-2000:] + again.stderr[-2000:]
    assert "Resuming match #1" in again.stdout
    assert "Where you left off:" in again.stdout
    assert "The match is over" in again.stdout


def test_defaults_live_in_the_data_directory_and_resume_finds_the_match(tmp_path: Path) -> None:
    first = play(tmp_path, "\n\n", db=False)
    assert first.returncode == 3
    maps = sorted((tmp_path / "data" / "maps" / "match-1").glob("*.png"))
    assert maps, "each match draws into its own folder in the data directory"
    again = play(tmp_path, "\n\n", "--resume", db=False)
    assert "Resuming match #1" in again.stdout, again.stdout[-1000:]


def test_a_new_match_never_silently_closes_the_saved_one(tmp_path: Path) -> None:
    assert play(tmp_path, "\n\n").returncode == 3
    refused = play(tmp_path, "\n")
    assert refused.returncode == 2
    assert "You have an unfinished local match #1 (Tiny Big Wars)" in refused.stdout
    assert "--resume" in refused.stdout and "--new" in refused.stdout
    fresh = play(tmp_path, "\n\n", "--new")
    assert "The unfinished local match #1 was closed, as --new asked." in fresh.stdout
    assert "Match #2" in fresh.stdout


def test_the_first_ctrl_c_stops_cleanly(tmp_path: Path) -> None:
    cmd = [sys.executable, "-m", "bot", "play", "tinybigwars", "--seats", "2", "--seed", "3"]
    proc = subprocess.Popen(cmd, cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env=env_for(tmp_path))
    assert proc.stdout is not None
    for line in proc.stdout:  # wait for the first question, as a player would
        if line.startswith("Your choice"):
            break
    time.sleep(0.2)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130
    assert "Stopped. Your match is saved" in out
    assert err == "", err


class _Quiet:
    def write(self, text: str) -> int:
        return len(text)

    def flush(self) -> None:
        pass


def test_options_are_numbered_one_to_n_without_gaps() -> None:
    table = Table(None, None, lambda: None, out=_Quiet())  # type: ignore[arg-type]

    def numbers(*values: str) -> dict[str, int]:
        prompt = shown_prompt({"seat": 0, "kind": "act", "text": "Act.",
                               "options": [{"value": v, "label": v, "choice": {"v": v}} for v in values]})
        return {opt.value: number for number, opt in table._number(prompt)}

    assert numbers("move", "fight", "train") == {"move": 1, "fight": 2, "train": 3}
    assert numbers("fight", "train", "end") == {"fight": 1, "train": 2, "end": 3}, "no gap where move was"
