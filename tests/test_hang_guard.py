"""The hang guard (tests/conftest.py) stops a worker whose test runs past ``--hang-seconds``, and
the run's summary shows that test's name and every thread's traceback: a CI log is all there is
to tell why a run stalled (the 25-minute stall of the phase boxes' guard showed only "node down")."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_a_test_past_the_guard_is_named_with_its_traceback_in_the_summary(tmp_path: Path) -> None:
    (tmp_path / "test_stalls.py").write_text(
        "import time\n\n\ndef test_waits_on_nothing():\n    time.sleep(600)\n")
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "tests.conftest", "--hang-seconds", "2", "-n", "1",
         "-p", "no:cacheprovider", "--rootdir", str(tmp_path), "--basetemp", str(tmp_path / "temp"),
         str(tmp_path / "test_stalls.py")],
        cwd=ROOT, capture_output=True, text=True, timeout=300)
    out = run.stdout
    assert run.returncode == 1, out + run.stderr
    summary = out[out.index("hang guard: hang-"):]
    assert "test_stalls.py::test_waits_on_nothing still running after 2 s" in summary
    assert 'test_stalls.py", line 5 in test_waits_on_nothing' in summary
    assert "1 failed" in out
