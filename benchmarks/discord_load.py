"""Discord load benchmark: N concurrent Tiny Big Wars matches through discord.py and the fake Discord.

    python benchmarks/discord_load.py [--matches 200] [--seconds 900] [--db sqlite|postgres|URL]

The fake Discord and the virtual players run in this process; the bot is a real `python -m bot`
subprocess (one shard) on a temporary SQLite file, or on PostgreSQL with `--db postgres`
(WARHOST_TEST_PG_URL, else a throwaway pgserver) or `--db postgresql+asyncpg://...`.
Each match: `/game new` in its own channel, a second player clicks Join, the host clicks Add AI
(or, with `--ai search`, seats the search AI by `/game addai`; `--search-ms` sets its CPU budget)
and Start, then both humans answer every DM prompt (select, button or modal) until the result.

Acknowledgement latency is measured inside the fake: from the moment it dispatches
INTERACTION_CREATE (`Interaction.created`, set just before the gateway send) to the moment the
bot's callback POST reaches the fake's handler, the same interval its 3 s `late_ack` rule uses.
Peak memory is the bot process's VmHWM from /proc.

The bot runs under `benchmarks/bot_probe.py` (unless `--no-probe`), which times every map draw
by the CPU of the thread that drew it and counts the SQL statements the bot sent. `--py-spy FILE`
samples the bot's threads with py-spy (collapsed stacks, CPU only) for a profile of the run.
Each goal of issue 18 is printed last with a floor measured in the same run: bot CPU per
interaction beside the CPU of one submit through the service alone (toy game, SQLite) and beside
the framework's floor (benchmarks/framework_floor.py: a discord.py bot with no warhost code
answering as many clicks a second with the run's requests per interaction), the map
draw inside the bot beside the same draw in this process with its static layer cached, ack and
outbox lag beside the first 20 of each (lobbies still opening, the bot nearly idle).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.framework_floor import run_writes  # noqa: E402
from benchmarks.load_figures import (  # noqa: E402
    FIRST_DM,
    LoopWatch,
    cpu_seconds,
    descendants_cpu,
    outbox_lag,
    percentile,
    print_goals,
    proc_status,
    thread_cpu,
)
from benchmarks.message_watch import IN_CALLBACK, Watch  # noqa: E402
from bot.discord import texts  # noqa: E402
from tests.e2e.harness import open_prompt  # noqa: E402
from tests.e2e.procs import BotProcess, bot_env, spawn_bot  # noqa: E402
from tests.fakediscord.models import Channel, Message  # noqa: E402
from tests.fakediscord.players import Player  # noqa: E402
from tests.fakediscord.ratelimits import ROUTE_LIMITS  # noqa: E402
from tests.fakediscord.server import FakeDiscord  # noqa: E402

PROBE = Path(__file__).with_name("bot_probe.py")
OVER = "The match is over"
KINDS = {(2, 5): "slash->defer", (3, 5): "lobby click->defer", (3, 6): "DM select/click->deferred update",
         (3, 9): "DM button->modal", (5, 6): "modal submit->deferred update",
         (3, 7): "click->reply in the callback", (5, 7): "modal submit->reply in the callback",
         (3, 4): "click->private answer in the callback"}
"""(interaction type, callback type) -> what the player did and how the bot acknowledged it."""
STEP_TIMEOUT = 180.0
BUSY_TRIES, BUSY_PAUSE = 5, 2.0
"""A lobby click answered "the bot is very busy" is tried again (at most 5 times, 2 s apart), as
the answer asks: a starved machine (another job's load) must not leave a match unstarted. A DM
click so answered shows as a refusal (the player's DM keeps the ephemeral answer)."""


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)
    """Seconds from dispatch to acknowledgement, in the order the acknowledgements came."""
    by_type: dict[str, list[float]] = field(default_factory=dict)
    driver_errors: list[str] = field(default_factory=list)
    refusals: list[str] = field(default_factory=list)
    answered: list[float] = field(default_factory=list)
    """Seconds from a DM click (or form) to the first change of the clicked message after it,
    whoever wrote it (the callback, an edit after a defer, delivery's next decision)."""
    finished: int = 0
    busy: int = 0
    """Lobby clicks answered "the bot is very busy" (each tried again after BUSY_PAUSE)."""


def record_acks(fake: FakeDiscord, stats: Stats) -> None:
    """Time each first callback POST from its INTERACTION_CREATE dispatch."""
    handle = fake._handle_callback

    def timed(rec: Any, body: dict, files: list) -> Any:
        if rec.ack_type is None:
            took = time.monotonic() - rec.created
            stats.latencies.append(took)
            stats.by_type.setdefault(KINDS.get((rec.type, body.get("type")), "other"), []).append(took)
        IN_CALLBACK.set(True)  # this request's own context (aiohttp runs each in a task)
        return handle(rec, body, files)

    fake._handle_callback = timed  # type: ignore[method-assign]
    waiting: dict[int, Any] = {}
    create, edit = fake.new_interaction, fake.edit_message

    def created(itype: int, user: Any, channel: Any, data: dict, message: Any = None) -> Any:
        rec = create(itype, user, channel, data, message)
        if message is not None and channel.guild is None and itype in (3, 5):
            waiting[message.id] = rec
        return rec

    def edited(message: Any, data: dict, files: list) -> Any:
        rec = waiting.pop(message.id, None)
        if rec is not None and rec.ack_type != 9:  # a button that opened a form changed nothing yet
            stats.answered.append(time.monotonic() - rec.created)
        return edit(message, data, files)

    fake.new_interaction = created  # type: ignore[method-assign]
    fake.edit_message = edited  # type: ignore[method-assign]


class Human:
    """A player who answers the newest open DM prompt with its first options, after ``think``
    seconds on average (0: at once, the stress case; a person takes seconds to minutes)."""

    def __init__(self, fake: FakeDiscord, watch: Watch, player: Player, stats: Stats, think: float = 0.0) -> None:
        self.fake, self.watch, self.player, self.stats = fake, watch, player, stats
        self.think = think
        self.rng = random.Random(player.user.id)
        self.dm_id = fake.dm_channel(player.user).id
        self.handled: set[tuple[int, str]] = set()

    def _next(self) -> Message | None:
        fresh = [m for m in self.player.dm.messages
                 if open_prompt(m) and (m.id, json.dumps(m.components, sort_keys=True)) not in self.handled]
        for old in fresh[:-1]:  # superseded prompts are never answered
            self.handled.add((old.id, json.dumps(old.components, sort_keys=True)))
        return fresh[-1] if fresh else None

    async def play(self, channel_id: int, over: Callable[[], bool]) -> None:
        while True:
            # stalled: nothing changed in the match's channel or this DM for this long; the other
            # player may take turn after turn meanwhile (each up to 1.5 x think, its moves' lines
            # edited into the channel's phase post as it goes)
            bound = STEP_TIMEOUT + 2 * self.think
            msg = await self.watch.until((self.dm_id, channel_id), lambda: over() or self._next(), bound, idle=True)
            if msg is True:
                return
            self.handled.add((msg.id, json.dumps(msg.components, sort_keys=True)))
            if self.think:
                await asyncio.sleep(self.rng.uniform(0.5, 1.5) * self.think)
                if over():
                    return
                newer = self._next()  # a newer prompt came while thinking: answer that one
                if newer is not None:
                    self.handled.add((newer.id, json.dumps(newer.components, sort_keys=True)))
                    msg = newer
            await self.answer(msg)

    async def answer(self, msg: Message) -> None:
        dm = self.player.dm
        if msg.selects:
            sel = msg.selects[0]
            r = await dm.select(None, [o["value"] for o in sel.options[: max(1, sel.min_values)]], message=msg,
                                settle=False)
        else:
            button = next((b for b in msg.buttons if b.label != "Change" and b.custom_id), None)
            if button is None:  # superseded while the player thought: nothing left to answer here
                return
            r = await dm.click(custom_id=button.custom_id, message=msg, settle=False)
            if r.modal is not None:
                values = {}
                for row in r.modal.get("components", []):
                    for comp in row.get("components", []) or [row.get("component", {})]:
                        if comp.get("type") == 4:
                            values[comp["custom_id"]] = comp.get("value") or "0"
                r = await self.player.submit_modal(values, settle=False)
        if r.error:
            self.stats.driver_errors.append(f"{self.player.name}: {r.error}")


async def settle(watch: Watch, resp: Any) -> Any:
    """Wait until a "thinking" reply was replaced by the bot's answer."""
    if resp.type == 5 and resp.message is not None:
        await watch.until((resp.message.channel.id,), lambda: not resp.message.loading, STEP_TIMEOUT)
    return resp


async def one_match(fake: FakeDiscord, watch: Watch, channel: Channel, host: Player, guest: Player,
                    stats: Stats, rounds: int, delay: float = 0.0, think: float = 0.0, ai: str = "heuristic") -> None:
    def posts() -> list[Message]:
        return fake.channel_messages(channel)

    def over() -> bool:
        return any(OVER in m.content for m in posts())

    await asyncio.sleep(delay)
    at_host, at_guest = host.at(channel), guest.at(channel)
    r = await settle(watch, await at_host.slash("game new", game="tinybigwars", round_limit=rounds, settle=False))
    assert "Lobby for" in r.content, f"no lobby in #{channel.name}: {r.content!r}"
    await watch.until((channel.id,), lambda: any(m.button("Join") for m in posts()), STEP_TIMEOUT)
    for place, label in ((at_guest, "Join"), (at_host, "Add AI"), (at_host, "Start")):
        for _ in range(BUSY_TRIES):  # a player told the bot is busy tries again, as it asks
            if label == "Add AI" and ai != "heuristic":  # the button seats the heuristic
                r = await settle(watch, await at_host.slash("game addai", policy=ai, settle=False))
            else:
                r = await settle(watch, await place.click(label, settle=False))
            if r.content != texts.BUSY:
                break
            stats.busy += 1
            await asyncio.sleep(BUSY_PAUSE)
        if r.error or not r.ephemeral:
            raise AssertionError(f"{label} in #{channel.name}: {r.error} {r.content!r}")
    players = [Human(fake, watch, p, stats, think) for p in (host, guest)]
    try:
        await asyncio.gather(*(p.play(channel.id, over) for p in players))
    except TimeoutError:
        def last(human: Human) -> str:
            return "; ".join(f"{m.id} {m.content[:60]!r} {[b.custom_id for b in m.buttons]} "
                             f"{[x.custom_id for x in m.selects]} handled="
                             f"{(m.id, json.dumps(m.components, sort_keys=True)) in human.handled}"
                             for m in human.player.dm.messages[-3:])

        raise AssertionError(f"#{channel.name} stalled: {host.name} DM [{last(players[0])}]; "
                             f"{guest.name} DM [{last(players[1])}]; channel {posts()[-1].content[:80]!r}") from None
    stats.finished += 1


async def report_progress(fake: FakeDiscord, stats: Stats, n: int, started: float, every: float = 15.0) -> None:
    """A line every `every` seconds, so a stall shows when it began."""
    while True:
        await asyncio.sleep(every)
        print(f"  {time.monotonic() - started:6.0f} s: {len(fake.interactions)} interactions, "
              f"{stats.finished}/{n} matches finished", flush=True)


def routes(fake: FakeDiscord, top: int = 10) -> str:
    """The bot's REST requests by route (ids and tokens folded), most first."""
    counts = Counter(re.sub(r"/interactions/ID/[^/]+", "/interactions/ID/TOKEN",
                            re.sub(r"/webhooks/ID/[^/]+", "/webhooks/ID/TOKEN",
                                   f"{call.method} {re.sub(r'/[0-9]{5,}', '/ID', call.path.split('?', 1)[0])}"))
                     for call in fake.calls)
    return ", ".join(f"{route} {count}" for route, count in counts.most_common(top))


def bucket_sleeps(fake: FakeDiscord, dm_ids: set[int]) -> tuple[int, int]:
    """(channel writes, those that came with 4 others of their channel and route in the 5 s
    before: the request that takes a bucket's last token, after which discord.py sleeps out the
    window inside it) for the guild's channels. With players who answer at once a match writes
    its channel faster than 5 per 5 s allows: the floor of its channel notices' lag."""
    times: dict[tuple[str, str], list[float]] = {}
    for call in fake.calls:
        found = re.match(r"/channels/([0-9]+)/messages", call.path)
        if found is None or call.method not in ("POST", "PATCH") or int(found.group(1)) in dm_ids:
            continue
        times.setdefault((call.method, found.group(1)), []).append(call.at)
    writes = sum(len(each) for each in times.values())
    full = sum(1 for each in times.values() for n, at in enumerate(each) if n >= 4 and at - each[n - 4] < 5.0)
    return writes, full


def production_defaults() -> dict[str, Any]:
    """Settings the test harness changes from the bot's defaults (tests/e2e/procs.py), set back to
    the defaults: the benchmark measures the bot as it runs (a tree without them sets nothing)."""
    from bot.settings import Settings

    fields = Settings.model_fields
    return {name: fields[name].default for name in ("phase_edit_seconds", "board_edit_seconds") if name in fields}


EARLIER_CHANNEL = 10**17
"""Channel ids of the earlier matches ``--returning`` seeds (no channel of this run's guild)."""


async def seed_returning(db_url: str, fake: FakeDiscord, people: list[Player], seed_size: int) -> int:
    """The players of ``--returning`` came back from an earlier match: each pair sat in a lobby
    that was then aborted, and the bot stored the DM channel it had opened with each of them
    (as dm_opener.py does when a player sits down), so this run opens none. The earlier matches'
    notices are marked delivered (they went in that earlier week). Written through the service
    before the bot starts, on the same database; returns the newest notice id they wrote (the
    run's lag counts only notices after it)."""
    import sqlalchemy as sa

    from bot.service import MatchService
    from db import Store

    store = await Store.open(db_url)
    try:
        svc = MatchService(store)
        for pair in range(seed_size):
            channel = EARLIER_CHANNEL + pair
            host, guest = people[2 * pair], people[2 * pair + 1]
            await svc.create(None, channel, host.user.id, host.name, "tinybigwars", {"round_limit": 2})
            await svc.join(channel, guest.user.id, guest.name)
            await svc.abort(channel, host.user.id)
            for player in (host, guest):
                await svc.remember_user_dm_channel(player.user.id, fake.dm_channel(player.user).id)
        async with store.engine.begin() as conn:
            await conn.execute(sa.text("UPDATE notices SET delivered_at = created_at WHERE delivered_at IS NULL"))
            newest = (await conn.execute(sa.text("SELECT max(id) FROM notices"))).scalar()
        return int(newest or 0)
    finally:
        await store.close()


def first_dm_floor(opens: int, limit: int, period: float) -> tuple[float, float]:
    """The soonest the first DMs can go when ``opens`` DM channels are opened at once under the
    bot-wide bucket (``limit`` per ``period`` s): the k-th open (from 0) completes no sooner than
    period x floor(k / limit) s after the first. Their (p50, max) in seconds."""
    if opens <= 0:
        return 0.0, 0.0
    floors = [period * (k // limit) for k in range(opens)]
    return statistics.median(floors), floors[-1]


async def run(args: argparse.Namespace, db_url: str, workdir: Path) -> int:
    n = args.matches
    fake = FakeDiscord(guilds=0, rate_time_scale=args.rate_scale)
    guild = fake.add_guild("Bench", shard=0, channels=tuple(f"game-{i}" for i in range(n)))
    people = [fake.user(f"p{i}") for i in range(2 * n)]
    for p in people:
        fake.dm_channel(p.user)
    stats = Stats()
    watch = Watch(fake)
    record_acks(fake, stats)
    seeded = await seed_returning(db_url, fake, people, n) if args.returning else 0
    await fake.start()
    env = bot_env(discord_token="fake-token", database_url=db_url, discord_api_base=fake.api_base,
                  discord_gateway_url=fake.gateway_url, instance_name="bench", log_level="INFO",
                  max_open_matches_per_server=max(n, 25),  # every match runs in the one guild
                  **{**production_defaults(), **dict(item.split("=", 1) for item in args.settings)},
                  **({} if args.draw_workers is None else {"draw_workers": args.draw_workers}))
    if args.search_ms is not None:
        env["WARHOST_SEARCH_MS"] = str(args.search_ms)
    bot: BotProcess | None = None
    spy: subprocess.Popen | None = None
    probe_out = workdir / "probe.json"
    fake_loop_waits: list[float] = []
    try:
        python_args: tuple[str, ...] = ()
        if args.profile:
            python_args = ("-m", "cProfile", "-o", str(Path(args.profile).resolve()))
        if args.probe:
            python_args = (*python_args, str(PROBE))
            env["WARHOST_PROBE_OUT"] = str(probe_out)
            env["WARHOST_PROBE_TRY"] = args.try_fix or ""
        bot = await spawn_bot("bot", env, workdir, python_args)
        await bot.wait_connected(timeout=60)
        print(f"bot pid {bot.proc.pid}, {n} matches starting", flush=True)
        await fake.wait_until(lambda: fake.commands.get(None), timeout=30)
        if args.py_spy:
            spy = subprocess.Popen(["py-spy", "record", "--pid", str(bot.proc.pid), "--format", "raw", "--rate", "50",
                                    "--threads", "--output", str(Path(args.py_spy).resolve())],
                                   stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
        loop_watch = LoopWatch(asyncio.get_running_loop())
        cpu0, own0, started = cpu_seconds(bot.proc.pid), time.process_time(), time.monotonic()
        drawing0 = descendants_cpu(bot.proc.pid)
        load_before = Path("/proc/loadavg").read_text().split()[:3]
        tasks = [asyncio.create_task(one_match(fake, watch, guild.channels[i], people[2 * i], people[2 * i + 1],
                                               stats, args.rounds, args.ramp * i / n, args.think, args.ai))
                 for i in range(n)]
        progress = asyncio.create_task(report_progress(fake, stats, n, started))
        done, pending = await asyncio.wait(tasks, timeout=args.seconds)
        progress.cancel()
        fake_loop_waits = loop_watch.stop()
        for t in pending:
            t.cancel()
        elapsed = time.monotonic() - started
        cpu, own = cpu_seconds(bot.proc.pid) - cpu0, time.process_time() - own0
        drawing_cpu = sum(seconds - drawing0.get(child, 0.0) for child, seconds in descendants_cpu(bot.proc.pid).items())
        threads = thread_cpu(bot.proc.pid)
        main_cpu = threads.pop(bot.proc.pid, 0.0)
        mem = proc_status(bot.proc.pid)
        load_after = Path("/proc/loadavg").read_text().split()[:3]
        if spy is not None:
            spy.send_signal(signal.SIGINT)
            with contextlib.suppress(subprocess.TimeoutExpired):
                spy.wait(timeout=60)
        for t in done:
            if t.exception() is not None:
                stats.driver_errors.append(repr(t.exception()))
        await fake.quiesce(quiet=0.5, timeout=5)
    finally:
        if bot is not None:
            await bot.stop(timeout=30, sig=signal.SIGINT)
        await fake.stop()
    lags = await outbox_lag(db_url, after_id=seeded)
    lag, first_lag = lags.all, lags.first
    for p in people:
        stats.refusals += [f"{p.name}: {m.content}" for m in fake.channel_messages(fake.dm_channel(p.user))
                           if m.ephemeral]
    errors = bot.errors() if bot is not None else []
    if bot is not None and args.bot_log:
        Path(args.bot_log).write_text(bot.log())
    lat = stats.latencies
    kinds = Counter(v.kind for v in fake.violations)
    print(f"matches {n}: finished {stats.finished}, unfinished {n - stats.finished} "
          f"(bound {args.seconds:.0f} s, lobbies opened over {args.ramp:g} s), db {db_url.split(':', 1)[0]}, "
          f"players think {args.think:g} s, AI {args.ai}, "
          f"{'returning players (DM channels stored from an earlier match)' if args.returning else 'new players'}"
          f"{f' ({args.search_ms:g} CPU ms a decision)' if args.ai == 'search' and args.search_ms else ''}, "
          f"bot = python -m bot subprocess{', trying ' + args.try_fix if args.try_fix else ''}")
    print(f"wall {elapsed:.1f} s, interactions {len(fake.interactions)} ({len(lat)} acknowledged), "
          f"{len(lat) / elapsed:.1f} interactions/s, bot CPU {cpu:.1f} s ({100 * cpu / elapsed:.0f}% of one core; "
          f"event-loop thread {main_cpu:.1f} s, other threads {sum(threads.values()):.1f} s since start); "
          f"fake + players CPU {own:.1f} s; load average {' '.join(load_before)} -> {' '.join(load_after)}")
    if lat:
        print(f"ack latency ms: p50 {1000 * statistics.median(lat):.1f}  p90 {1000 * percentile(lat, 0.9):.1f}  "
              f"p99 {1000 * percentile(lat, 0.99):.1f}  max {1000 * max(lat):.1f}")
    if fake_loop_waits:
        print(f"  the fake's own event loop: a ready callback waited p50 {1000 * statistics.median(fake_loop_waits):.1f}  "
              f"p99 {1000 * percentile(fake_loop_waits, 0.99):.1f}  max {1000 * max(fake_loop_waits):.1f} ms "
              f"(in every ack above: the fake hears the callback that late)")
    for kind, values in sorted(stats.by_type.items()):
        print(f"  {kind:<32} {len(values):6d}  p50 {1000 * statistics.median(values):7.1f}  "
              f"p99 {1000 * percentile(values, 0.99):7.1f} ms")
    if stats.answered:
        done = stats.answered
        print(f"DM click -> the clicked message changed ms ({len(done)}): p50 {1000 * statistics.median(done):.1f}  "
              f"p90 {1000 * percentile(done, 0.9):.1f}  p99 {1000 * percentile(done, 0.99):.1f}")
    if lag:
        print(f"outbox lag (notice committed -> delivered) s: p50 {statistics.median(lag):.2f}  "
              f"p99 {percentile(lag, 0.99):.2f}  max {max(lag):.2f}  ({len(lag)} notices)")
        for kind, values in sorted(lags.by_kind.items(), key=lambda item: -len(item[1])):
            print(f"  {kind:<32} {len(values):6d}  p50 {statistics.median(values):6.2f}  "
                  f"p99 {percentile(values, 0.99):6.2f}  max {max(values):6.2f} s")
        rest = [lag for kind, values in lags.by_kind.items() if kind != FIRST_DM for lag in values]
        firsts = lags.by_kind.get(FIRST_DM, [])
        opens = sum(1 for call in fake.calls if call.method == "POST" and call.path.startswith("/users/@me/channels"))
        limit = next(rule for rule in ROUTE_LIMITS if rule.template == "/users/@me/channels")
        floor_p50, floor_max = first_dm_floor(opens, limit.limit, limit.period)
        if rest:
            print(f"  without the first DMs: p50 {statistics.median(rest):.2f}  p99 {percentile(rest, 0.99):.2f}  "
                  f"max {max(rest):.2f} s ({len(rest)} notices)")
        print(f"  the first DMs: {len(firsts)}, DM channels opened {opens} at {limit.limit} per {limit.period:g} s "
              f"bot-wide: floor p50 {floor_p50:.1f} s, max {floor_max:.1f} s"
              + (f"; measured p50 {statistics.median(firsts):.2f}, max {max(firsts):.2f} s" if firsts else ""))
    limited = Counter(re.sub(r"[0-9]{5,}", "ID", route) for route in fake.rate_limited)
    print(f"requests {len(fake.calls)} ({len(fake.calls) / max(1, len(lat)):.2f} per interaction, goal <= 2.5) by route: "
          f"{routes(fake)}")
    writes, full = bucket_sleeps(fake, {fake.dm_channel(p.user).id for p in people})
    print(f"channel writes (posts and edits) {writes}: {full} took their channel's 5th write within 5 s "
          f"(discord.py sleeps out the window in that request: the channel's later notices wait)")
    print(f"message edits {sum(watch.edits.values())}: "
          f"{', '.join(f'{kind} {count}' for kind, count in watch.edits.most_common())}")
    if args.edit_examples:
        Path(args.edit_examples).write_text(json.dumps(watch.examples, indent=1))
    print(f"429 answers {len(fake.rate_limited)} (rate windows x{args.rate_scale:g}): "
          f"{', '.join(f'{route} {count}' for route, count in limited.most_common(4))}")
    kinds_429 = Counter(refusal.kind for refusal in fake.rate_limiter.refusals)
    limited_requests = sum(1 for call in fake.calls if not call.path.startswith("/interactions/")
                           and not call.path.startswith("/webhooks/"))
    print(f"  by limit: {', '.join(f'{kind} {count}' for kind, count in kinds_429.most_common()) or 'none'}; "
          f"requests under the global limit (not interaction endpoints) {limited_requests / elapsed:.1f} a second "
          f"(Discord's global limit: 50 a second)")
    # the floor holds only while every match waits on a notice: players answering at once
    lag_floor = lags.floor_mean(limited_requests / len(lag)) if lag and not args.think else None
    print(f"bot peak RSS {mem.get('VmHWM', 0) / 2**20:.0f} MiB (RSS at end {mem.get('VmRSS', 0) / 2**20:.0f} MiB)")
    print(f"errors: violations {sum(kinds.values())} {dict(kinds)}, bot log errors {len(errors)}, "
          f"driver errors {len(stats.driver_errors)}, refusals {len(stats.refusals)}, lobby clicks told busy {stats.busy}")
    for line in (errors + stats.driver_errors + stats.refusals + [str(v) for v in fake.violations])[:10]:
        print(f"  {line}")
    probe = json.loads(probe_out.read_text()) if args.probe and probe_out.exists() else None
    writes = run_writes([(call.method, call.path) for call in fake.calls], len(lat)) if args.framework_floor else None
    await print_goals(args, cpu, lat, lag, first_lag, probe, drawing_cpu, writes, len(lat) / elapsed,
                      (lag_floor, lags.active_matches, limited_requests / len(lag)) if lag_floor is not None else None)
    bad = sum(kinds.values()) + len(errors) + len(stats.driver_errors) + len(stats.refusals) + n - stats.finished
    return 1 if bad else 0


def database(choice: str, workdir: Path) -> tuple[str, Any]:
    """The URL for --db, and a pgserver to clean up (or None)."""
    if choice == "sqlite":
        return f"sqlite+aiosqlite:///{workdir / 'bench.db'}", None
    if choice != "postgres":
        return choice, None
    given = os.environ.get("WARHOST_TEST_PG_URL")
    if given:
        return "postgresql+asyncpg://" + given.split("://", 1)[1], None
    import pgserver

    server = pgserver.get_server(workdir / "pg", cleanup_mode="stop")
    return "postgresql+asyncpg://" + server.get_uri().split("://", 1)[1], server


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=200, help="concurrent matches (default 200)")
    parser.add_argument("--seconds", type=float, default=900.0, help="stop waiting for matches after this long")
    parser.add_argument("--ramp", type=float, default=0.0,
                        help="open the lobbies spread over this many seconds (default 0: all at once)")
    parser.add_argument("--returning", action="store_true",
                        help="players the bot knows from an earlier match (their DM channels stored), as on a "
                             "server after its first week; default: every player new, each DM channel opened now")
    parser.add_argument("--rounds", type=int, default=2, help="round_limit of each match (default 2)")
    parser.add_argument("--draw-workers", type=int,
                        help="the bot's DRAW_WORKERS (default: its own, one per core but one; 0 = draw in a thread)")
    parser.add_argument("--think", type=float, default=0.0,
                        help="seconds a player takes to answer, on average (default 0: at once)")
    parser.add_argument("--ai", choices=("heuristic", "search", "random"), default="heuristic",
                        help="the AI seated in every match (default heuristic, the Add AI button; others by "
                             "`/game addai policy:`)")
    parser.add_argument("--search-ms", type=float,
                        help="the bot's WARHOST_SEARCH_MS, CPU ms per search decision (default: its own, 1000)")
    parser.add_argument("--db", default="sqlite", help="sqlite (default), postgres, or a database URL")
    parser.add_argument("--bot-log", help="copy the bot's log to this file")
    parser.add_argument("--edit-examples", help="write edits that came within a second of the last write here (JSON)")
    parser.add_argument("--workdir", help="keep the SQLite file and the bot's log in this directory")
    parser.add_argument("--profile", help="run the bot under cProfile and write its stats to this file")
    parser.add_argument("--rate-scale", type=float, default=1.0,
                        help="the fake's rate limit windows: 1 = Discord's (default), 0 = no limits")
    parser.add_argument("--py-spy", help="sample the bot with py-spy (collapsed stacks) into this file")
    parser.add_argument("--try", dest="try_fix", metavar="FIXES",
                        help="measure proposed fixes inside the bot: static-cache, dm-cache, wide-gate, uvloop (see bot_probe.py)")
    parser.add_argument("--no-probe", dest="probe", action="store_false",
                        help="run plain `python -m bot`, without benchmarks/bot_probe.py")
    parser.add_argument("--no-framework-floor", dest="framework_floor", action="store_false",
                        help="skip the framework's floor (benchmarks/framework_floor.py, about 10 s after the run)")
    parser.add_argument("--set", dest="settings", action="append", default=[], metavar="NAME=VALUE",
                        help="a bot setting other than its default (e.g. carry_wait_seconds=1); repeatable")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="warhost-load-") as tmp:
        if args.workdir:
            tmp = args.workdir
            Path(tmp).mkdir(parents=True, exist_ok=True)
        url, server = database(args.db, Path(tmp))
        try:
            return asyncio.run(run(args, url, Path(tmp)))
        finally:
            if server is not None:
                server.cleanup()


if __name__ == "__main__":
    sys.exit(main())
