"""Runs the bot with timers on its map drawing and a count of its SQL statements.

    WARHOST_PROBE_OUT=probe.json python benchmarks/bot_probe.py -m bot

`benchmarks/discord_load.py` starts the bot this way so that what happens inside the bot
process can be read afterwards: the CPU time of every map, private panel and replay GIF the bot
drew, how often the Tiny Big Wars static layer was rebuilt, and every SQL statement and commit
the bot sent, by kind. The figures are written to the JSON file at exit.
The probe is the benchmark's instrument, and its CPU lands in the bot process's: so its hooks only
append what they saw to lists (an append is atomic under the GIL: no lock, no clock read), and
everything is sorted, counted and grouped at exit, after the driver read the bot's CPU. Its one
thread (the loop sampler) counts its own CPU, which `discord_load.py` leaves out of the bot's CPU
per interaction and prints apart; the hooks' appends are too cheap to time (timing one cost as
much as the append). The probe before this counted under a lock, read the clock twice a hook and
wrote every sample so far every ten seconds; a quiet run of each at 200 matches (session 24,
same code) read 10.3 ms an interaction with it (0.25 left out), 10.2 with this one (0.05 left
out) and 10.9 with no probe at all: the instrument is within the run-to-run noise either way.
The bot's own code is not changed: the probe wraps module attributes before `bot` starts.

The draws are counted by the bot's drawing pool itself (bot/service/drawing.py): each one's
CPU is `time.thread_time()` of whatever drew it, a worker process (DRAW_WORKERS >= 1) or a
thread of the bot (DRAW_WORKERS=0), and its wall time runs from the bot handing it over to the
PNG coming back (queueing behind other draws included). The probe keeps every pool the bot
configures. The static layer count is the bot process's own: draws in worker processes build
their layers in the workers' caches, which the probe does not see (0 builds there means the
bot drew nothing in its own threads).

`WARHOST_PROBE_TRY` (comma-separated) measures a proposed fix without making it, for the report:
- `static-cache`: the Tiny Big Wars static layer cache holds 512 maps instead of 16 (what keying
  it by geometry alone, or a larger cache, in render/tinybigwars/board.py would give);
- `dm-cache`: users fetched once and DM channels never evicted from discord.py's 128-entry LRU
  (what sending to the stored `seats.dm_channel_id` in bot/discord/delivery.py would give:
  no GET /users/{id} and no POST /users/@me/channels per DM);
- `wide-gate`: the outbox's 16 send slots (`PARALLEL_SENDS` in bot/discord/delivery.py) made 4,096,
  so a send that discord.py holds back for a full rate-limit bucket no longer keeps a slot
  from the sends of other channels (what taking the slot only around the request itself would give);
- `uvloop`: the bot's event loop is uvloop's (libuv) instead of asyncio's own (what running the
  bot on uvloop would give; uvloop must be installed).
"""

from __future__ import annotations

import asyncio
import atexit
import gc
import json
import os
import re
import runpy
import sys
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any, cast

ROOT = Path(__file__).resolve().parents[1]
LOOP_SAMPLE_SECONDS = 0.05
"""How often a callback is handed to the bot's loop to time its wait: each hand-over wakes the loop."""


COMMIT = "\x00commit"
"""A raw statement entry's text for a commit SQLAlchemy announced (no statement starts so)."""
ROLLBACK = "\x00rollback"
"""The same for a rollback."""


class Probe:
    """What the bot did, gathered from any thread as list appends, counted at ``snapshot``."""

    def __init__(self, out: Path) -> None:
        self.out = out
        self.lock = threading.Lock()
        self.pools: list[Any] = []
        """The drawing pools the bot configured (bot/service/drawing.py), whose figures are the draws."""
        self.raw: list[tuple[int, str, str]] = []
        """Every statement as sent (its connection, its text, the task that sent it), and the commits
        and rollbacks (text COMMIT or ROLLBACK): counted and grouped by ``statement_counts``."""
        self.stages: dict[str, list[float]] = {}
        """A DM click's stages by name, wall seconds each (``time_clicks``): where a click waits;
        and the write turn's wait and hold, by who took it."""
        self.sampler_cpu = 0.0
        """CPU seconds of the probe's loop-sampling thread so far: the probe is the benchmark's, not
        the bot's, so its CPU is left out of the bot's."""
        self.kept: list[str] = []
        """Match transactions on kept rows and on rows read (``count_kept_rows``) and the engine
        views built, one name each: counted at ``snapshot``."""

        self.threads: list[str] = []
        """The name of every thread the bot started, digits as N (``count_threads_and_syncs``)."""
        self.sync_rounds: list[int] = []
        """One entry a sync round of the store's log (``count_threads_and_syncs``)."""

        self.gc_cpu = [0.0, 0.0, 0.0]
        """CPU seconds the garbage collector took, by generation (``watch_the_collector``)."""
        self.gc_runs = [0, 0, 0]
        """Collections made, by generation."""

    def watch_the_collector(self) -> None:
        """Time each garbage collection (CPU of the thread that runs it: the collector holds the
        GIL throughout, so one start and its stop are never another thread's)."""
        began = [0.0]

        def collected(phase: str, info: dict[str, Any]) -> None:
            if phase == "start":
                began[0] = time.thread_time()
                return
            generation = int(info["generation"])
            self.gc_cpu[generation] += time.thread_time() - began[0]
            self.gc_runs[generation] += 1

        gc.callbacks.append(collected)

    def note(self, stage: str, seconds: float) -> None:
        """Keep one timing of a stage (from any thread)."""
        self.stages.setdefault(stage, []).append(seconds)

    def install(self) -> None:
        """Keep the drawing pools the bot configures and listen to every SQLAlchemy engine."""
        from sqlalchemy import event
        from sqlalchemy.engine import Engine

        from bot.service import drawing

        configure = drawing.configure

        async def configure_kept(workers: int | None) -> Any:
            pool = await configure(workers)
            with self.lock:
                for kept in (pool, drawing.thinking_pool()):  # thinks are counted as "think"
                    if all(kept is not known for known in self.pools):
                        self.pools.append(kept)
            return pool

        drawing.configure = configure_kept  # type: ignore[assignment]
        self.watch_the_loop()
        self.watch_the_collector()

        raw = self.raw

        def key_of(conn: Any) -> int:
            return id(conn.connection.dbapi_connection) if conn.connection is not None else 0

        def before_cursor_execute(conn: Any, _cursor: Any, statement: str, *_rest: Any) -> None:
            raw.append((key_of(conn), statement, task_of()))

        def on_commit(conn: Any) -> None:
            raw.append((key_of(conn), COMMIT, ""))

        def on_rollback(conn: Any) -> None:
            raw.append((key_of(conn), ROLLBACK, ""))

        import engine
        from engine.kit.game import KitGame

        def counted(name: str, owner: Any) -> None:
            """Count the views a game's ``name`` method builds (``view``, or ``view_given``: a
            view from the prompts the service built already)."""
            inner = getattr(owner, name)

            def counted_view(game: Any, state: Any, seat: int | None, *args: Any) -> dict[str, Any]:
                self.kept.append("engine views built: public" if seat is None else "engine views built: a seat's")
                return cast(dict[str, Any], inner(game, state, seat, *args))

            setattr(owner, name, counted_view)

        counted("view", KitGame)
        for key in engine.SHIPPED:
            kind = type(engine.get(key))
            if "view_given" in vars(kind):
                counted("view_given", kind)
        event.listen(Engine, "before_cursor_execute", before_cursor_execute)
        event.listen(Engine, "commit", on_commit)
        event.listen(Engine, "rollback", on_rollback)
        self.count_kept_rows()
        self.count_threads_and_syncs()

    def count_threads_and_syncs(self) -> None:
        """Count the threads the bot starts (by name, digits as N: a kind that grows with the
        run, such as SQLite connections opened and closed again, costs the loop thread the GIL at
        each start and end) and the log's sync rounds (db/durability.py: each an fdatasync)."""
        from db.durability import LogSync

        start, begin_round = threading.Thread.start, LogSync._start

        def start_counted(thread: threading.Thread) -> None:
            self.threads.append(re.sub(r"\d+", "N", thread.name))
            start(thread)

        def round_counted(log_sync: LogSync, loop: Any, began_at: int) -> Any:
            self.sync_rounds.append(began_at)
            return begin_round(log_sync, loop, began_at)

        threading.Thread.start = start_counted  # type: ignore[method-assign]
        LogSync._start = round_counted  # type: ignore[method-assign]

    def count_kept_rows(self) -> None:
        """Count the match transactions that started from the rows their process kept (no read),
        those that read them, and why a transaction on kept rows ran again: its bump found
        another write (``kept rows: stale``), or it ended without writing, or raised (``kept
        rows: judged again``)."""
        from bot.service import transaction
        from db import kept_rows, store

        counted = self.kept.append

        held = kept_rows.KeptRows.held

        def held_counted(rows: Any) -> Any:
            counted("kept rows: used")
            return held(rows)

        lock_rows = store.Store.lock_match_rows

        async def lock_rows_counted(*args: Any, **kwargs: Any) -> Any:
            counted("match rows read")
            return await lock_rows(*args, **kwargs)

        bump = store.Store.bump

        async def bump_counted(*args: Any, **kwargs: Any) -> Any:
            try:
                return await bump(*args, **kwargs)
            except store.VersionConflict:
                counted("kept rows: stale" if kwargs.get("side") is not None else "version conflict")
                raise

        unsure = transaction._Unsure.__init__

        def unsure_counted(error: Any, *args: Any) -> None:
            counted("kept rows: judged again")
            unsure(error, *args)

        kept_rows.KeptRows.held = held_counted  # type: ignore[method-assign]
        store.Store.lock_match_rows = lock_rows_counted  # type: ignore[method-assign]
        store.Store.bump = bump_counted  # type: ignore[method-assign]
        transaction._Unsure.__init__ = unsure_counted  # type: ignore[method-assign]

    def time_clicks(self) -> None:
        """Time a click's reply stages, wall clock: waiting for the seat's turn, the submit's
        transaction, the reply's edit, and the whole (the router's ``_submit``). A stage is a
        click's when it runs inside the router's ``_submit``; delivery's turn waits count apart."""
        import contextlib
        import contextvars

        from bot.discord import router, seat_turns
        from bot.service import MatchService

        in_click: contextvars.ContextVar[bool] = contextvars.ContextVar("probe_in_click", default=False)

        note = self.note
        submit_turn = router.Router._submit

        async def timed_submit_turn(*args: Any, **kwargs: Any) -> Any:
            token = in_click.set(True)
            started = time.perf_counter()
            try:
                return await submit_turn(*args, **kwargs)
            finally:
                note("click: whole (turn held, submit, reply)", time.perf_counter() - started)
                in_click.reset(token)

        router.Router._submit = timed_submit_turn  # type: ignore[method-assign]
        hold = seat_turns.SeatTurns.hold

        @contextlib.asynccontextmanager
        async def timed_hold(turns: Any, *args: Any, **kwargs: Any) -> Any:
            started = time.perf_counter()
            async with hold(turns, *args, **kwargs) as fence:
                note("click: waiting for the seat's turn" if in_click.get() else "delivery: waiting for a seat's turn",
                     time.perf_counter() - started)
                yield fence

        seat_turns.SeatTurns.hold = timed_hold  # type: ignore[method-assign]

        def timed(owner: Any, name: str, stage: str) -> None:
            inner = getattr(owner, name)

            async def wrapper(*args: Any, **kwargs: Any) -> Any:
                if not in_click.get():
                    return await inner(*args, **kwargs)
                started = time.perf_counter()
                try:
                    return await inner(*args, **kwargs)
                finally:
                    note(stage, time.perf_counter() - started)

            setattr(owner, name, wrapper)

        from db.lean import LeanTransactions

        write_turn = LeanTransactions._write_turn
        after_write = LeanTransactions.after_write
        turn_taken: contextvars.ContextVar[float] = contextvars.ContextVar("probe_turn_taken", default=0.0)

        def who() -> str:
            return "click" if in_click.get() else task_of()

        async def timed_write_turn(store: Any) -> None:
            started = time.perf_counter()
            await write_turn(store)
            taken = time.perf_counter()
            turn_taken.set(taken)
            note(f"write turn, waited: {who()}", taken - started)

        async def timed_after_write(store: Any) -> None:
            taken = turn_taken.get()
            ending = time.perf_counter()
            if taken:
                note(f"write turn, held: {who()}", ending - taken)
            await after_write(store)  # lets the turn go, then waits for the sync (db/durability.py)
            note(f"write turn, its sync after: {who()}", time.perf_counter() - ending)

        LeanTransactions._write_turn = timed_write_turn  # type: ignore[method-assign]
        LeanTransactions.after_write = timed_after_write  # type: ignore[method-assign]
        timed(MatchService, "submit", "click: the submit's transaction")
        timed(router, "reply_in_dm", "click: the reply (read, render, edit)")
        timed(router, "next_decision_in_dm", "click: the next decision (read, render, edit)")

    def watch_the_loop(self) -> None:
        """Time how long a ready callback waits for the bot's event loop (a thread hands one in
        every LOOP_SAMPLE_SECONDS), and how old each interaction is when discord.py parses it:
        an acknowledgement's wait that is the loop's, not the click's work."""
        import discord
        from discord.state import ConnectionState

        note = self.note

        def sample(loop: asyncio.AbstractEventLoop) -> None:
            while not loop.is_closed():
                handed = time.perf_counter()
                try:
                    loop.call_soon_threadsafe(lambda handed=handed: note("event loop: a ready callback's wait",
                                                                         time.perf_counter() - handed))
                except RuntimeError:  # the loop closed meanwhile
                    return
                time.sleep(LOOP_SAMPLE_SECONDS)
                self.sampler_cpu = time.thread_time()

        parse = ConnectionState.parse_interaction_create
        watched: list[asyncio.AbstractEventLoop] = []

        def timed_parse(state: Any, data: Any) -> None:
            created = discord.utils.snowflake_time(int(data["id"]))
            note("interaction: its age when discord.py parses it",
                 max(0.0, (discord.utils.utcnow() - created).total_seconds()))
            if not watched:
                watched.append(asyncio.get_running_loop())
                threading.Thread(target=sample, args=(watched[0],), name="probe-loop", daemon=True).start()
            parse(state, data)

        ConnectionState.parse_interaction_create = timed_parse  # type: ignore[method-assign]

        from discord.webhook.async_ import AsyncWebhookAdapter

        respond = AsyncWebhookAdapter.create_interaction_response

        async def timed_respond(adapter: Any, interaction_id: int, *args: Any, **kwargs: Any) -> Any:
            params = kwargs.get("params")
            payload = getattr(params, "payload", None)
            if payload is None and getattr(params, "multipart", None):  # with files: the JSON is the first part
                payload = json.loads(params.multipart[0]["value"])
            kind = (payload or {}).get("type", "?")
            age = (discord.utils.utcnow() - discord.utils.snowflake_time(interaction_id)).total_seconds()
            note(f"interaction: its age when its callback (type {kind}) is sent", max(0.0, age))
            started = time.perf_counter()
            try:
                return await respond(adapter, interaction_id, *args, **kwargs)
            finally:
                note(f"interaction: its callback's request (type {kind})", time.perf_counter() - started)

        AsyncWebhookAdapter.create_interaction_response = timed_respond  # type: ignore[method-assign]

        from bot.discord import ack_window

        opened = ack_window.Window.__init__
        defer_after = ack_window.Window._defer_after

        def timed_open(window: Any, interaction: Any, *args: Any, **kwargs: Any) -> None:
            note("window: the interaction's age when its window opens", ack_window.age(interaction))
            opened(window, interaction, *args, **kwargs)

        async def timed_defer_after(window: Any, defer: Any) -> None:
            async def defer_noted() -> Any:
                note("window: the interaction's age when the timer defers", ack_window.age(window.interaction))
                return await defer()

            await defer_after(window, defer_noted)

        ack_window.Window.__init__ = timed_open  # type: ignore[method-assign]
        ack_window.Window._defer_after = timed_defer_after  # type: ignore[method-assign]

    def try_fixes(self, names: set[str]) -> None:
        """Patch in the proposed fixes named (see the module docstring)."""
        unknown = names - {"static-cache", "dm-cache", "wide-gate", "uvloop"}
        if unknown:
            raise SystemExit(f"unknown WARHOST_PROBE_TRY entries: {sorted(unknown)}")
        if "uvloop" in names:
            import uvloop

            asyncio.set_event_loop_policy(uvloop.EventLoopPolicy())
        if "static-cache" in names:
            from render.tinybigwars import board

            board._STATIC._max = 512
        if "wide-gate" in names:
            from bot.discord import delivery

            delivery.PARALLEL_SENDS = 4096
        if "dm-cache" in names:
            import discord
            from discord.state import ConnectionState

            def add_private_channel(state: Any, channel: Any) -> None:
                state._private_channels[channel.id] = channel
                if isinstance(channel, discord.DMChannel) and channel.recipient is not None:
                    state._private_channels_by_user[channel.recipient.id] = channel

            fetch_user = discord.Client.fetch_user
            users: dict[int, Any] = {}

            async def fetch_user_once(client: Any, user_id: int, /) -> Any:
                if user_id not in users:
                    users[user_id] = await fetch_user(client, user_id)
                return users[user_id]

            ConnectionState._add_private_channel = add_private_channel  # type: ignore[method-assign]
            discord.Client.fetch_user = fetch_user_once  # type: ignore[method-assign]

    def snapshot(self) -> dict[str, Any]:
        from render.tinybigwars import board

        with self.lock:
            pools = list(self.pools)
        draws: dict[str, list[tuple[float, float]]] = {"draw": [], "draw_private": []}
        where: Counter[str] = Counter()
        for pool in pools:
            for kind, figures in pool.figures().items():
                draws.setdefault(kind, []).extend(figures.samples)
            where.update(pool.where)
        return {
            "draws": draws,
            "drawing": {"workers": [pool.workers for pool in pools], "where": dict(where),
                        "pools_replaced": sum(pool.replaced for pool in pools)},
            **statement_counts(self.raw[:]),
            "probe_cpu_seconds": self.sampler_cpu,
            "gc": {"cpu_seconds": self.gc_cpu[:], "collections": self.gc_runs[:]},
            "kept_rows": dict(Counter(self.kept[:])),  # and the engine views built
            "click_stages": {stage: seconds[:] for stage, seconds in list(self.stages.items())},
            "threads_started": dict(Counter(self.threads[:])),
            "sync_rounds": len(self.sync_rounds),
            "tinybigwars_static_builds": board._STATIC.builds,
            "tinybigwars_static_entries": len(board._STATIC),
        }

    def flush(self) -> None:
        """Write the figures (atomically: the reader never sees half a file)."""
        partial = self.out.with_suffix(".partial")
        partial.write_text(json.dumps(self.snapshot()))
        partial.replace(self.out)


def statement_counts(raw: list[tuple[int, str, str]]) -> dict[str, Any]:
    """The statements of ``Probe.raw`` counted: by kind, by the task that sent them, by kind and
    first table ("SELECT notices"), by both ("Delivery._work: SELECT notices"), the commits, and
    the transactions by who began them and what they sent ("Delivery._work | UPDATE notices |
    SELECT choices"): which reads and writes share a BEGIN (a statement sent outside one counts as
    its own, "(no BEGIN)", as all do on PostgreSQL, whose BEGIN is no statement). A transaction
    is counted at its COMMIT (or a rollback SQLAlchemy announces), else at the next BEGIN on its
    connection (a rollback sent on the connection itself is not announced); once it ended, a
    statement sent outside any transaction (an autocommitted mark on the same connection) is
    filed as "(no BEGIN)", not under the transaction before it."""
    statements: Counter[str] = Counter()
    by_task: Counter[str] = Counter()
    by_table: Counter[str] = Counter()
    by_task_table: Counter[str] = Counter()
    transactions: Counter[str] = Counter()
    tables: dict[str, str] = {}
    open_tx: dict[int, list[str]] = {}
    commits = 0
    for key, statement, where in raw:
        if statement in (COMMIT, ROLLBACK):
            commits += statement == COMMIT
            done = open_tx.pop(key, None)
            if done:
                transactions[" | ".join(done)] += 1
            continue
        what = tables.get(statement)
        if what is None:
            kind = statement.lstrip().split(None, 1)[0].upper() if statement.strip() else "?"
            what = tables[statement] = kind_and_table(kind, statement)
        kind = what.split(" ", 1)[0]
        if kind == "BEGIN":
            done = open_tx.pop(key, None)
            if done:
                transactions[" | ".join(done)] += 1
            open_tx[key] = [where]
        elif key in open_tx:
            open_tx[key].append(what)
        else:
            transactions[f"{where} (no BEGIN) {what}"] += 1
        statements[kind] += 1
        by_task[where] += 1
        by_table[what] += 1
        by_task_table[f"{where}: {what}"] += 1
    return {"statements": dict(statements), "statements_by_task": dict(by_task),
            "statements_by_table": dict(by_table), "statements_by_task_table": dict(by_task_table),
            "transactions": dict(transactions), "commits": commits}


TABLE = re.compile(r"\b(?:FROM|INTO|UPDATE)\s+\"?(\w+)", re.IGNORECASE)


def kind_and_table(kind: str, statement: str) -> str:
    """The statement's kind and the first table it names after FROM, INTO or UPDATE ("SELECT
    notices"); the kind alone for statements that name none (BEGIN, SAVEPOINT)."""
    found = TABLE.search(statement)
    return f"{kind} {found.group(1)}" if found else kind


def task_of() -> str:
    """The running asyncio task's coroutine name (a running coroutine's callers cannot be walked
    from inside SQLAlchemy's greenlet, so the task is the finest attribution at hand)."""
    try:
        task = asyncio.current_task()
    except RuntimeError:
        return "no event loop (a thread)"
    if task is None:
        return "no task"
    return getattr(task.get_coro(), "__qualname__", "?")


def main() -> None:
    if sys.argv[1:] != ["-m", "bot"]:
        raise SystemExit("usage: WARHOST_PROBE_OUT=FILE python benchmarks/bot_probe.py -m bot")
    # the script's folder holds benchmarks named render.py and engine.py: the project root instead
    sys.path[0] = str(ROOT)
    probe = Probe(Path(os.environ["WARHOST_PROBE_OUT"]))
    probe.install()
    probe.time_clicks()
    probe.try_fixes({name.strip() for name in os.environ.get("WARHOST_PROBE_TRY", "").split(",") if name.strip()})
    atexit.register(probe.flush)
    sys.argv = [str(ROOT / "bot" / "__main__.py")]
    runpy.run_module("bot", run_name="__main__", alter_sys=True)


if __name__ == "__main__":
    main()
