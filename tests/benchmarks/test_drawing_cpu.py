"""The load benchmark counts the drawing processes' CPU (forkserver and pool workers are the bot's
grandchildren): the figure "draws included" must see a process two levels down."""

from __future__ import annotations

import os
import subprocess
import sys

from benchmarks.load_figures import descendants_cpu

BURN = ("import subprocess, sys, time\n"
        "child = subprocess.Popen([sys.executable, '-c', "
        "'import time\\nend = time.process_time() + 0.3\\nwhile time.process_time() < end: pass\\n"
        "print(\"burnt\", flush=True)\\ntime.sleep(30)'], stdout=sys.stdout)\n"
        "child.wait()\n")


def test_the_cpu_of_a_grandchild_process_is_counted() -> None:
    parent = subprocess.Popen([sys.executable, "-c", BURN], stdout=subprocess.PIPE, text=True)
    try:
        assert parent.stdout is not None and parent.stdout.readline().strip() == "burnt"
        found = descendants_cpu(os.getpid())
        assert parent.pid in found
        grandchildren = {pid: cpu for pid, cpu in found.items() if pid != parent.pid}
        assert grandchildren and max(grandchildren.values()) >= 0.25
    finally:
        for pid in descendants_cpu(parent.pid):
            os.kill(pid, 9)
        parent.kill()
        parent.wait()
