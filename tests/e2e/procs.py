"""Real `python -m bot` processes against the in-process fake Discord, for scale-out tests.

Each process writes its log to a file (a pipe nobody reads would fill up and stall the bot);
the log is also the evidence of which gateway session, and so which shard, a process opened.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import signal
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

PROJECT_ROOT = Path(__file__).resolve().parents[2]
CONNECTED = re.compile(r"Shard ID (\d+|None) has connected to Gateway \(Session ID: (\S+)\)\.")
SETTINGS = ("DISCORD_TOKEN", "DATABASE_URL", "DEV_GUILD_ID", "LOG_LEVEL", "DISCORD_API_BASE", "DISCORD_GATEWAY_URL",
            "SHARD_COUNT", "SHARD_IDS", "INSTANCE_NAME", "TICK_SECONDS", "DELIVER_SECONDS",
            "DELIVERY_PROBE_SECONDS", "DELIVERY_PROBE_MAX_SECONDS", "DRAW_WORKERS", "HEALTH_PORT", "HEALTH_HOST",
            "LOG_FORMAT", "PHASE_EDIT_SECONDS", "BOARD_EDIT_SECONDS")
BLANKABLE = ("DEV_GUILD_ID", "SHARD_COUNT", "SHARD_IDS")


@dataclass
class BotProcess:
    """One bot process and its log file."""

    name: str
    proc: asyncio.subprocess.Process
    log_path: Path
    _log_file: IO[bytes]

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def errors(self) -> list[str]:
        """Logged errors and tracebacks: a healthy run has none."""
        return [line for line in self.log().splitlines() if " ERROR " in line or line.startswith("Traceback")]

    async def wait_connected(self, timeout: float = 120.0) -> dict[int, str]:
        """Wait until the process logged its gateway connection; returns {shard id: session id}
        (an unsharded bot logs shard None: it is shard 0 of 1). The bound is generous: starting
        Python and importing discord.py, SQLAlchemy and Pillow takes a while on a loaded machine."""
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while True:
            found = {int(shard) if shard != "None" else 0: session
                     for shard, session in CONNECTED.findall(self.log())}
            if found:
                return found
            if self.proc.returncode is not None:
                raise AssertionError(f"bot process {self.name} exited with {self.proc.returncode}:\n{self.log()}")
            if loop.time() > end:
                raise AssertionError(f"bot process {self.name} did not connect within {timeout} s:\n{self.log()}")
            await asyncio.sleep(0.05)

    async def stop(self, timeout: float = 5.0, sig: int = signal.SIGTERM) -> None:
        """`sig` (SIGINT lets the bot exit cleanly), then SIGKILL if it lingers; always closes the log file."""
        try:
            if self.proc.returncode is None:
                with contextlib.suppress(ProcessLookupError):
                    self.proc.send_signal(sig)
                try:
                    await asyncio.wait_for(self.proc.wait(), timeout)
                except TimeoutError:
                    with contextlib.suppress(ProcessLookupError):
                        self.proc.kill()
                    await self.proc.wait()
        finally:
            self._log_file.close()


def bot_env(**settings: Any) -> dict[str, str]:
    """The parent's environment without any warhost setting, plus `settings` (upper-cased keys).
    The optional ids are blank unless given, so a stray `.env` in the project root cannot set them."""
    env = {k: v for k, v in os.environ.items() if k.upper() not in SETTINGS}
    env.update({name: "" for name in BLANKABLE})
    env["PHASE_EDIT_SECONDS"] = "0"  # phase posts edited at once, boards every 2 s (as the harness),
    env["BOARD_EDIT_SECONDS"] = "2"  # unless a test (or the benchmark) says otherwise
    env.update({k.upper(): str(v) for k, v in settings.items()})
    return env


async def spawn_bot(name: str, env: dict[str, str], log_dir: Path, python_args: tuple[str, ...] = ()) -> BotProcess:
    """Start `python [python_args] -m bot` from the project root with `env` (python_args: e.g. a
    profiler's `-m cProfile -o FILE`); its stdout and stderr go to a file."""
    log_path = log_dir / f"{name}.log"
    log_file = log_path.open("wb")
    try:
        proc = await asyncio.create_subprocess_exec(
            sys.executable, *python_args, "-m", "bot", cwd=PROJECT_ROOT, env=env, stdin=asyncio.subprocess.DEVNULL,
            stdout=log_file, stderr=asyncio.subprocess.STDOUT)
    except BaseException:
        log_file.close()
        raise
    return BotProcess(name, proc, log_path, log_file)
