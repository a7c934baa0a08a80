"""The framework's floor: the CPU a discord.py bot with no warhost code spends per click.

    python benchmarks/framework_floor.py [--posts 0.4] [--edits 0.7] [--seconds 5] [--rate 25]

Against the same fake Discord as `benchmarks/discord_load.py` (tests/fakediscord, in this
process), virtual players click a button in their DMs; the bot is `benchmarks/framework_bot.py`,
a discord.py subprocess that logs in with the GUILDS intent alone and answers each click with an
UPDATE_MESSAGE callback, then makes ``--posts`` channel posts and ``--edits`` channel edits per
click on average (discord_load passes what its own run made per interaction besides the
callback). What it costs is what any discord.py bot pays per interaction: the gateway event (JSON,
discord.py's Interaction and Message objects, the view store's dispatch) and the REST requests
through discord.py's HTTPClient and aiohttp (rate-limit headers included). Its CPU per click is
read from /proc, as discord_load reads the bot's: the process's user + system time over the
measured clicks, after a warm-up round.

Each player has a DM (the button) and a channel of a guild (its posts and edits). The clicks are
paced so that no channel's bucket (5 writes per 5 s) and not the global limit (50 requests a
second outside the interaction endpoints) refuses a request: a 429 and its retry would be work
the floor does not owe. ``--rate`` (default: the most the global limit allows at 30 writes a
second, at most 40 clicks a second) sets the clicks a second.
"""

from __future__ import annotations

import argparse
import asyncio
import math
import os
import signal
import sys
import tempfile
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.framework_bot import button_view  # noqa: E402
from benchmarks.load_figures import cpu_seconds  # noqa: E402
from tests.e2e.procs import BotProcess  # noqa: E402
from tests.fakediscord.players import Player  # noqa: E402
from tests.fakediscord.server import FakeDiscord  # noqa: E402

BOT = Path(__file__).with_name("framework_bot.py")
WRITES_A_SECOND = 30.0
"""Channel writes a second the pacing allows: under the global limit's 50."""
MOST_CLICKS_A_SECOND = 40.0
CHANNEL_CLICKS_A_SECOND = 0.5
"""Clicks a second of one player whose clicks make at most one post and one edit each: its
channel's buckets (5 posts and 5 edits per 5 s) half full."""


@dataclass
class FrameworkFloor:
    """One measurement: the floor bot's CPU over the measured clicks and what they sent."""

    cpu_ms: float
    """CPU ms per click (the process's user + system time over the measured clicks)."""
    clicks: int
    requests: Counter[str]
    """The measured clicks' requests by kind: callback, post, edit, other."""
    refused: int
    """429s the fake answered during the measured clicks (0 when the pacing held)."""
    seconds: float
    """Wall seconds of the measured clicks."""

    def per_click(self, kind: str) -> float:
        return self.requests[kind] / max(1, self.clicks)

    def describe(self) -> str:
        return f"{self.cpu_ms:.2f} ms CPU per click over {self.mix()}"

    def mix(self) -> str:
        """The measured clicks and their requests."""
        return (f"{self.clicks} clicks in {self.seconds:.1f} s "
                f"({self.clicks / max(self.seconds, 1e-9):.1f} a second): "
                f"{self.per_click('callback'):.2f} callbacks + {self.per_click('post'):.2f} posts + "
                f"{self.per_click('edit'):.2f} edits"
                + (f" + {self.per_click('other'):.2f} other" if self.requests['other'] else "")
                + f" a click, {self.refused} 429s")


def request_kind(method: str, path: str) -> str:
    if path.startswith("/interactions/"):
        return "callback"
    if path.startswith("/channels/") and "/messages" in path:
        return "post" if method == "POST" else "edit" if method == "PATCH" else "other"
    return "other"


def run_writes(calls: list[tuple[str, str]], interactions: int) -> tuple[float, float]:
    """What a measured run sent per interaction besides the callbacks, as the floor bot's
    (posts, edits): every other POST counts as a post (channel posts, follow-ups, DM opens),
    every other request as an edit (message edits, the deferred replies' webhook edits)."""
    if interactions <= 0:
        return 0.0, 0.0
    others = [method for method, path in calls if request_kind(method, path) != "callback"]
    posts = sum(1 for method in others if method == "POST")
    return posts / interactions, (len(others) - posts) / interactions


def pacing(posts: float, edits: float, rate: float | None) -> tuple[float, int]:
    """(clicks a second, players): as many clicks a second as asked (or as the global limit
    allows), over enough players that each one's channel stays at half its buckets (a click
    makes the whole part of the posts and edits asked, or one more)."""
    writes = posts + edits
    most = MOST_CLICKS_A_SECOND if writes <= 0 else min(MOST_CLICKS_A_SECOND, WRITES_A_SECOND / writes)
    clicks = most if rate is None else max(1.0, min(rate, most))
    each = CHANNEL_CLICKS_A_SECOND / max(1, math.ceil(posts), math.ceil(edits))
    """Clicks a second of one player."""
    return clicks, max(1, math.ceil(clicks / each))


async def _click_on(player: Player, prompt: object, start: float, every: float, until: float,
                    clicks: list[float]) -> None:
    """Click the prompt's button at ``start``, then every ``every`` seconds until ``until``."""
    loop = asyncio.get_running_loop()
    due = start
    while due < until:
        await asyncio.sleep(max(0.0, due - loop.time()))
        response = await player.dm.click("Next", message=prompt, settle=False)  # type: ignore[arg-type]
        if response.type != 7:
            raise AssertionError(f"{player.name}'s click was answered {response.type} {response.error}")
        clicks.append(loop.time())
        due = max(due + every, loop.time())  # a late click is not made up for by a burst


async def measure(posts: float, edits: float, seconds: float = 5.0, rate: float | None = None,
                  workdir: Path | None = None) -> FrameworkFloor:
    """Start a fake and the floor bot, click for ``seconds`` after a warm-up round, and read
    the bot's CPU over the measured clicks."""
    clicks_a_second, count = pacing(posts, edits, rate)
    every = count / clicks_a_second
    fake = FakeDiscord(guilds=0)
    guild = fake.add_guild("Floor", shard=0, channels=tuple(f"floor-{i}" for i in range(count)))
    players = [fake.user(f"f{i}") for i in range(count)]
    prompts = []
    for player, channel in zip(players, guild.channels, strict=True):
        board = fake.create_message(channel, {"content": "Board: no choices made yet."}, [])
        view = button_view(0, channel.id, board.id)
        prompts.append(fake.create_message(fake.dm_channel(player.user),
                                           {"content": "Your turn: choose.", "components": view.to_components()}, []))
    await fake.start()
    bot: BotProcess | None = None
    with tempfile.TemporaryDirectory(prefix="warhost-framework-") as tmp:
        log_dir = workdir or Path(tmp)
        log_path = log_dir / "framework_bot.log"
        log_file = log_path.open("wb")
        try:
            env = {**os.environ, "DISCORD_API_BASE": fake.api_base, "DISCORD_GATEWAY_URL": fake.gateway_url,
                   "DISCORD_TOKEN": "fake-token", "FLOOR_POSTS": str(posts), "FLOOR_EDITS": str(edits)}
            proc = await asyncio.create_subprocess_exec(sys.executable, str(BOT), env=env,
                                                        stdin=asyncio.subprocess.DEVNULL, stdout=log_file,
                                                        stderr=asyncio.subprocess.STDOUT)
            bot = BotProcess("framework", proc, log_path, log_file)
            await bot.wait_connected(timeout=60)
            loop = asyncio.get_running_loop()
            warm: list[float] = []
            start = loop.time()
            await asyncio.gather(*(_click_on(p, m, start + i / clicks_a_second, every, start + every, warm)
                                   for i, (p, m) in enumerate(zip(players, prompts, strict=True))))
            await fake.quiesce(quiet=0.2, timeout=10)
            calls, refused = len(fake.calls), len(fake.rate_limiter.refusals)
            measured: list[float] = []
            cpu0, start = cpu_seconds(proc.pid), loop.time()
            await asyncio.gather(*(_click_on(p, m, start + i / clicks_a_second, every, start + seconds, measured)
                                   for i, (p, m) in enumerate(zip(players, prompts, strict=True))))
            await fake.quiesce(quiet=0.2, timeout=10)
            cpu = cpu_seconds(proc.pid) - cpu0
            took = (max(measured) if measured else loop.time()) - start
            if bot.errors() or fake.violations:
                raise AssertionError(f"the floor bot failed: {bot.errors()[:5]} {[str(v) for v in fake.violations[:5]]}")
            requests = Counter(request_kind(call.method, call.path) for call in fake.calls[calls:])
            return FrameworkFloor(1000 * cpu / max(1, len(measured)), len(measured), requests,
                                  len(fake.rate_limiter.refusals) - refused, took)
        finally:
            if bot is not None:
                await bot.stop(timeout=10, sig=signal.SIGINT)
            else:
                log_file.close()
            await fake.stop()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--posts", type=float, default=0.4, help="channel posts per click besides the callback")
    parser.add_argument("--edits", type=float, default=0.7, help="channel edits per click besides the callback")
    parser.add_argument("--seconds", type=float, default=5.0, help="how long the measured clicks go on")
    parser.add_argument("--rate", type=float, help="clicks a second (default: the most the global limit allows)")
    parser.add_argument("--repeat", type=int, default=1, help="measure this many times, each with a fresh bot")
    args = parser.parse_args()
    for _ in range(args.repeat):
        floor = asyncio.run(measure(args.posts, args.edits, args.seconds, args.rate))
        load = " ".join(Path("/proc/loadavg").read_text().split()[:3])
        print(f"framework floor: {floor.describe()}; load average {load}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
