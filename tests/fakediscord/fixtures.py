"""Reusable pytest fixtures: a started FakeDiscord with discord.py patched to use it, and a bot
runner that starts (and restarts) real discord.py bots against it.

Import them into a conftest (`from tests.fakediscord.fixtures import fake, start_bot, ...`).
Options come from the `fakediscord` marker, e.g.
`@pytest.mark.fakediscord(guilds=2, shards=2, ack_deadline=0.2, players=("alice", "bob"))`.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
import logging
import os
import signal
import sys
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import discord
import pytest
import pytest_asyncio

from .control import ControlClient
from .models import DEFAULT_PLAYERS
from .players import Player
from .server import FakeDiscord

READY_TIMEOUT = 60.0
STOP_TIMEOUT = 60.0
"""Bounds on stopping a bot: it stops as soon as it is idle; only a stuck bot waits this long."""
PROJECT_ROOT = Path(__file__).resolve().parents[2]
FAST_GUILD_READY = 0.05  # discord.py waits 2 s after the last GUILD_CREATE by default
TEST_RATE_TIME_SCALE = 0.05
"""Rate limit windows in the fixtures: 1/20 of Discord's (5 messages per 0.25 s per channel), so
limits are enforced and discord.py really waits on them, at a cost of a second or so a match.
The global limit (50 per 50 ms here) is then out of reach; test it at `rate_time_scale=1.0`."""


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "fakediscord(**options): options for the fakediscord `fake` fixture "
                            "(guilds, shards, ack_deadline, token_ttl, attachment_size_limit, rate_time_scale, "
                            "players, token, bot_permissions)")


class _BotErrorLog(logging.Handler):
    """Turns ERROR logs from discord.py (e.g. an exception in a command or view callback, which
    discord.py only logs) into `bot_error` violations, so a crashing handler fails the test."""

    def __init__(self, fake: FakeDiscord) -> None:
        super().__init__(logging.ERROR)
        self.fake = fake

    def emit(self, record: logging.LogRecord) -> None:
        detail = record.getMessage()
        if record.exc_info and record.exc_info[1] is not None:
            detail += f": {record.exc_info[1]!r}"
        self.fake.violation("bot_error", 0, 0, record.name, detail)


@contextlib.asynccontextmanager
async def running_fake(*, players: tuple[str, ...] = DEFAULT_PLAYERS, **options: Any) -> AsyncIterator[FakeDiscord]:
    """Start a FakeDiscord with `players`, patch discord.py to use it, and undo both on exit;
    rate limits run at TEST_RATE_TIME_SCALE unless `rate_time_scale` is given."""
    fake = FakeDiscord(**{"rate_time_scale": TEST_RATE_TIME_SCALE, **options})
    for name in players:
        fake.user(name)
    await fake.start()
    restore = fake.patch_discord()
    handler = _BotErrorLog(fake)
    discord_log = logging.getLogger("discord")
    discord_log.addHandler(handler)
    try:
        yield fake
    finally:
        discord_log.removeHandler(handler)
        restore()
        await fake.stop()


def _task_stacks(limit: int = 6000) -> str:
    """Where every pending task of the loop is waiting, for a close that hangs (a test report
    that only says "timed out" leaves the next person nothing to look at)."""
    out = io.StringIO()
    for task in asyncio.all_tasks():
        if task is not asyncio.current_task():
            task.print_stack(limit=4, file=out)
    return out.getvalue()[-limit:]


async def _no_identify_wait(shard_id: int | None, *, initial: bool = False) -> None:
    """discord.py sleeps 5 s before every non-first IDENTIFY (rate limiting); a local fake needs none."""


class BotRunner:
    """Starts bots made by a factory against the fake, waits until they are ready, stops them cleanly.

    `await start_bot(factory)` returns the ready bot; `await start_bot.stop(bot)` stops it;
    `await start_bot.restart(bot, factory)` stops it and starts a new instance against the same
    fake state (messages, DM channels, synced commands and open interactions all survive).
    """

    def __init__(self, fake: FakeDiscord) -> None:
        self.fake = fake
        self.tasks: dict[discord.Client, asyncio.Task[None]] = {}

    async def __call__(self, factory: Callable[[], discord.Client], *, token: str = "fake-token",
                       timeout: float = READY_TIMEOUT) -> Any:
        bot = factory()
        state = bot._connection
        state.guild_ready_timeout = min(state.guild_ready_timeout, FAST_GUILD_READY)
        if type(bot).before_identify_hook is discord.Client.before_identify_hook:
            bot.before_identify_hook = _no_identify_wait  # type: ignore[method-assign]
        task = asyncio.create_task(bot.start(token), name=f"bot-{type(bot).__name__}")
        self.tasks[bot] = task
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while not bot.is_ready():
            if task.done():
                del self.tasks[bot]
                task.result()
                raise RuntimeError(f"{type(bot).__name__} stopped before it was ready")
            if loop.time() > end:
                await self.stop(bot)
                raise TimeoutError(f"{type(bot).__name__} not ready within {timeout} s")
            await asyncio.sleep(0.01)
        return bot

    async def stop(self, bot: discord.Client) -> None:
        """Close the bot once it has stopped calling Discord (a loaded machine may keep it busy
        for seconds after the test's last wait), and re-raise anything its run task died of."""
        task = self.tasks.pop(bot, None)
        await self.fake.quiesce(quiet=0.2, timeout=STOP_TIMEOUT)
        closing = asyncio.ensure_future(bot.close())
        done, _ = await asyncio.wait({closing}, timeout=STOP_TIMEOUT)
        if not done:
            stacks = _task_stacks()  # before cancelling: where each task was waiting
            closing.cancel()
            raise AssertionError(f"{type(bot).__name__}.close() did not return within {STOP_TIMEOUT} s; "
                                 f"tasks still waiting:\n{stacks}")
        closing.result()
        if task is not None:
            await asyncio.wait_for(task, STOP_TIMEOUT)

    async def restart(self, bot: discord.Client, factory: Callable[[], discord.Client], **kwargs: Any) -> Any:
        await self.stop(bot)
        return await self(factory, **kwargs)

    async def stop_all(self) -> None:
        errors: list[BaseException] = []
        for bot in list(self.tasks):
            try:
                await self.stop(bot)
            except Exception as err:  # keep stopping the others, then report
                errors.append(err)
        if errors:
            raise errors[0]


def _options(request: pytest.FixtureRequest) -> dict[str, Any]:
    marker = request.node.get_closest_marker("fakediscord")
    options = dict(marker.kwargs) if marker else {}
    if "players" in options:
        options["players"] = tuple(options["players"])
    return options


@pytest_asyncio.fixture
async def fake(request: pytest.FixtureRequest) -> AsyncIterator[FakeDiscord]:
    """A started FakeDiscord (one guild with #game, players alice/bob/carol/dave), discord.py
    patched to use it; fails the test at teardown if any unexpected violation was recorded."""
    async with running_fake(**_options(request)) as server:
        yield server
    server.assert_no_violations()


@pytest_asyncio.fixture
async def start_bot(fake: FakeDiscord) -> AsyncIterator[BotRunner]:
    """`bot = await start_bot(factory)`: run a bot against `fake`; every bot is stopped at teardown."""
    runner = BotRunner(fake)
    yield runner
    await runner.stop_all()


@pytest.fixture
def alice(fake: FakeDiscord) -> Player:
    return fake.user("alice")


@pytest.fixture
def bob(fake: FakeDiscord) -> Player:
    return fake.user("bob")


@pytest.fixture
def carol(fake: FakeDiscord) -> Player:
    return fake.user("carol")


@pytest.fixture
def dave(fake: FakeDiscord) -> Player:
    return fake.user("dave")


class StandaloneFake:
    """A fake running in its own process (`python -m tests.fakediscord`), plus the processes
    (e.g. `python -m bot`) started against it with `spawn`."""

    def __init__(self, process: asyncio.subprocess.Process, info: dict[str, Any]) -> None:
        self.process = process
        self.info = info
        self.control = ControlClient(info["base_url"])
        self.children: list[asyncio.subprocess.Process] = []

    @property
    def env(self) -> dict[str, str]:
        """Environment for a bot process: the fake's REST base and gateway URL, and a token."""
        return {"DISCORD_API_BASE": self.info["api_base"], "DISCORD_GATEWAY_URL": self.info["gateway_url"],
                "DISCORD_TOKEN": "fake-token"}

    async def spawn(self, *args: str, env: dict[str, str] | None = None) -> asyncio.subprocess.Process:
        """Start `python *args` from the project root with the fake's URLs in its environment."""
        proc = await asyncio.create_subprocess_exec(
            sys.executable, *args, cwd=PROJECT_ROOT, env={**os.environ, **self.env, **(env or {})},
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
        self.children.append(proc)
        return proc

    @staticmethod
    async def terminate(proc: asyncio.subprocess.Process, timeout: float = 10.0) -> tuple[int, str]:
        """SIGTERM the process (if still running); returns its exit code and stderr."""
        if proc.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                proc.send_signal(signal.SIGTERM)
        try:
            _, err = await asyncio.wait_for(proc.communicate(), timeout)
        except TimeoutError:
            proc.kill()
            _, err = await proc.communicate()
        return proc.returncode or 0, err.decode(errors="replace")

    async def close(self) -> tuple[int, str]:
        """Stop the children, then the fake; returns the fake's exit code (3 = rule violations) and stderr."""
        await self.control.close()
        for child in self.children:
            await self.terminate(child)
        return await self.terminate(self.process)


@contextlib.asynccontextmanager
async def standalone_fake(*args: str, timeout: float = 15.0) -> AsyncIterator[StandaloneFake]:
    """Run `python -m tests.fakediscord --port 0 *args`; fails on exit if it recorded violations."""
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "tests.fakediscord", "--port", "0", *args, cwd=PROJECT_ROOT,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    assert proc.stdout is not None
    line = await asyncio.wait_for(proc.stdout.readline(), timeout)
    if not line:
        _, err = await proc.communicate()
        raise RuntimeError(f"standalone fakediscord did not start: {err.decode(errors='replace')}")
    server = StandaloneFake(proc, json.loads(line))
    try:
        yield server
    finally:
        code, err = await server.close()
    if code != 0:
        raise AssertionError(f"standalone fakediscord exited {code}:\n{err}")


@pytest_asyncio.fixture
async def fake_process(request: pytest.FixtureRequest) -> AsyncIterator[StandaloneFake]:
    """A standalone fake in its own process (guilds/shards from the `fakediscord` marker); start the
    bot with `await fake_process.spawn("-m", "bot")` and drive players with `fake_process.control`."""
    options = _options(request)
    args = ["--guilds", str(options.get("guilds", 1)), "--shards", str(options.get("shards", 1)),
            "--rate-time-scale", str(options.get("rate_time_scale", TEST_RATE_TIME_SCALE))]
    if "players" in options:
        args += ["--players", ",".join(options["players"])]
    for key in ("ack_deadline", "token_ttl"):
        if key in options:
            args += [f"--{key.replace('_', '-')}", str(options[key])]
    async with standalone_fake(*args) as server:
        yield server
