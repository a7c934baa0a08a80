"""Summarise a py-spy profile (`py-spy record --format raw`, collapsed stacks) by where the time went.

    python benchmarks/spy_report.py FILE [--within TEXT] [--top 25]

Prints the share of samples per thread, the functions with the most samples anywhere on the
stack (inclusive) and at the top of it (self), and the share of samples in a few project areas
(rendering, the service, the store, SQLAlchemy, aiosqlite, discord.py). `--within` keeps only
the stacks with a frame containing TEXT (for example `submit (bot/service/core.py`).
py-spy leaves idle threads out by default; waits it misses (a worker's queue get, the event
loop's epoll) are dropped here by their leaf frame, so a sample is time a thread ran.
"""

from __future__ import annotations

import argparse
import re
from collections import Counter
from pathlib import Path

AREAS = {
    "render (Pillow drawing)": ("render/", "PIL/"),
    "bot/service": ("bot/service/",),
    "bot/discord": ("bot/discord/",),
    "db/": ("(db/",),
    "engine/": ("(engine/",),
    "SQLAlchemy / SQLModel": ("sqlalchemy/", "sqlmodel/"),
    "aiosqlite worker (sqlite3 itself)": ("aiosqlite/core.py",),
    "discord.py": ("discord/http.py", "discord/gateway.py", "discord/state.py", "discord/interactions.py",
                   "discord/webhook/", "discord/ui/", "discord/app_commands/"),
    "aiohttp": ("aiohttp/",),
    "pydantic": ("pydantic",),
    "json": ("json/",),
    "logging": ("logging/",),
}


IDLE = ("aiosqlite/core.py:59)", "EpollSelector.select (", "Condition.wait (", "_worker (concurrent/futures/thread.py:81)",
        "Probe.flush_forever (")
"""Leaf frames of a thread waiting (py-spy's idle test misses these waits: a queue get, epoll, a
sleep). SQLite waiting for its lock (busy_timeout) still shows as aiosqlite/core.py:63: read
the worker threads' share beside their CPU from /proc, or record with `py-spy --gil`."""


def read(path: Path) -> list[tuple[str, list[str], int]]:
    """(thread, frames from the outside in, samples) per collapsed stack line."""
    stacks = []
    for line in path.read_text().splitlines():
        stack, _, count = line.rpartition(" ")
        if not stack or not count.isdigit():
            continue
        frames = stack.split(";")
        thread = frames[0] if frames[0].startswith(("thread", "process")) else ""
        if thread:
            frames = frames[1:]
        while frames and frames[0].startswith(("process", "thread")):
            frames = frames[1:]
        if frames and any(mark in frames[-1] for mark in IDLE):
            continue
        stacks.append((thread, frames, int(count)))
    return stacks


def short(frame: str) -> str:
    """`function (path/to/file.py:line)` without the line, and with site-packages cut off."""
    frame = re.sub(r":\d+\)$", ")", frame)
    return re.sub(r"\(/[^ ]*?(site-packages|lib/python3\.\d+|wt-[^/]+|main)/", "(", frame)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file", type=Path)
    parser.add_argument("--within", help="only stacks with a frame containing this text")
    parser.add_argument("--thread", help="only threads whose name contains this text (e.g. MainThread)")
    parser.add_argument("--top", type=int, default=25)
    args = parser.parse_args()
    stacks = read(args.file)
    if args.within:
        stacks = [stack for stack in stacks if any(args.within in frame for frame in stack[1])]
    if args.thread:
        stacks = [stack for stack in stacks if args.thread in stack[0]]
    total = sum(count for _, _, count in stacks) or 1
    threads: Counter[str] = Counter()
    inclusive: Counter[str] = Counter()
    own: Counter[str] = Counter()
    areas: Counter[str] = Counter()
    for thread, frames, count in stacks:
        threads[re.sub(r"\d+", "N", thread.split("(", 1)[-1].rstrip(")")) or "?"] += count
        names = [short(f) for f in frames]
        for name in set(names):
            inclusive[name] += count
        if names:
            own[names[-1]] += count
        for area, marks in AREAS.items():
            if any(mark in frame for frame in frames for mark in marks):
                areas[area] += count
    print(f"{total} samples{' within ' + repr(args.within) if args.within else ''}")
    print("by thread:", ", ".join(f"{name} {100 * count / total:.1f}%" for name, count in threads.most_common(6)))
    print("by area (a sample counts in every area on its stack):")
    for area, count in areas.most_common():
        print(f"  {100 * count / total:5.1f}%  {area}")
    print(f"inclusive (top {args.top}):")
    for name, count in inclusive.most_common(args.top):
        print(f"  {100 * count / total:5.1f}%  {name}")
    print(f"self (top {args.top}):")
    for name, count in own.most_common(args.top):
        print(f"  {100 * count / total:5.1f}%  {name}")


if __name__ == "__main__":
    main()
