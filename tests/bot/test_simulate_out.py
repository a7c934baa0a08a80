"""`simulate --out`: a PNG per phase end, the final map and a replay GIF a player can open."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from PIL import Image

ROOT = Path(__file__).resolve().parents[2]


def test_simulate_out_writes_phase_maps_and_gif(tmp_path: Path) -> None:
    out = tmp_path / "out"
    proc = subprocess.run(
        [sys.executable, "-m", "bot", "simulate", "tinybigwars", "--seats", "3", "--seed", "11", "--json", "--out", str(out)],
        cwd=ROOT, capture_output=True, text=True, timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    summary = json.loads(proc.stdout.strip().splitlines()[-1])
    pngs = sorted(out.glob("*.png"))
    assert len(pngs) == summary["images"] >= 3
    assert pngs[-1].name.endswith("-final.png")
    for path in pngs:
        with Image.open(path) as img:
            assert img.format == "PNG" and img.size == (1200, 1560)
    gif = out / "replay.gif"
    assert 0 < gif.stat().st_size <= 8 * 1024 * 1024
    with Image.open(gif) as anim:
        assert anim.format == "GIF" and 2 <= anim.n_frames <= len(pngs)
