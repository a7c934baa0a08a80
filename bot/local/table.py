"""A match at the terminal: you take one seat, AI policies the rest. It runs on the same
service and store as the Discord bot, so an interrupted match resumes with --resume."""

from __future__ import annotations

import asyncio
import getpass
import os
import signal
import sys
import threading
from collections.abc import Callable
from itertools import groupby
from pathlib import Path
from types import FrameType
from typing import Any, TextIO

import engine
import render
from bot.naming import ShownPrompt, named_prompt
from bot.service import MatchService, ServiceError
from bot.service.history import REPLAY_NOTICE
from bot.service.types import Notice
from bot.service.wording import ACT, Wording, listed, utc_moment
from db.store import Store
from engine.contract import Option, Prompt
from render import views as render_views

LOCAL_GUILD = 0
LOCAL_CHANNEL = 1
LOCAL_USER = 1
RESUME_LINES = 8
"""Public lines reprinted on --resume, so a returning player sees where the match stood."""
TERMINAL = Wording(commands={ACT: "the question below"}, strong=lambda text: text,
                   manager="the player at the terminal", managers="the player at the terminal", moment=utc_moment)
"""The terminal's markup: none. A heading is a line of its own (``heading``), never ``**bold**``."""
WAIVING = frozenset({"done", "pass", "end", "stop", "decline", "forfeit", "calloff"})
"""Options that let a turn, a phase or a chance go by: Enter takes one of them only when pressed
twice, so a turn is never thrown away by a stray key."""


def data_dir() -> Path:
    """Where the terminal table keeps its database and maps: $WARHOST_DATA_DIR, else the user's
    data directory (XDG), never the working tree."""
    configured = os.environ.get("WARHOST_DATA_DIR")
    if configured:
        return Path(configured)
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "warhost"


def local_db(given: str | None, resume: bool) -> str:
    """The database to play in: the one given, else on --resume the one the last match used,
    else the default file in the data directory."""
    if given:
        return given
    remembered = data_dir() / "last-local-db"
    if resume and remembered.is_file() and remembered.read_text().strip():
        return remembered.read_text().strip()
    return f"sqlite+aiosqlite:///{data_dir() / 'local.db'}"


def default_name() -> str:
    """Your name in the story when --name gives none: your login name, else "Sam" (a name reads
    in "Sam passes." where "Player" or "you" would not)."""
    try:
        login = getpass.getuser()
    except (KeyError, OSError):
        login = ""
    return login.capitalize() if login.isalpha() and login not in ("root", "admin", "user") else "Sam"


def remember_db(db_url: str) -> None:
    """`--resume` without `--db` finds the match where it was started."""
    data_dir().mkdir(parents=True, exist_ok=True)
    (data_dir() / "last-local-db").write_text(db_url + "\n")


class StopRequest:
    """Ctrl-C at the terminal. During a question it ends the read at once; anywhere else it asks
    the match loop to stop at its next step, so no database work is cut in half (asyncio's own
    handler would cancel the task mid-transaction and print tracebacks)."""

    def __init__(self) -> None:
        self.reading = False
        self.requested = False

    def __call__(self, signum: int, frame: FrameType | None) -> None:
        self.requested = True
        if self.reading:
            raise KeyboardInterrupt

    def read(self, reader: Callable[[], str | None]) -> str | None:
        self.reading = True
        try:
            if self.requested:
                raise KeyboardInterrupt
            return reader()
        finally:
            self.reading = False


STOPPED = "\nStopped. Your match is saved: continue with  python -m bot play --resume"


class Table:
    def __init__(
        self,
        svc: MatchService,
        maps: Path | None,
        read: Callable[[], str | None],
        out: TextIO = sys.stdout,
    ) -> None:
        self.svc = svc
        self.maps_given = maps
        self.maps = maps or data_dir() / "maps"
        self.read = read
        self.out = out
        self.frame = 0
        self.names: list[str] = []
        self.heading = ""
        """The heading printed last: the lines under it belong to that phase."""
        self.listed = ""
        """The question whose options were printed last: asked again after a refusal, only the
        reason and the line to answer are printed, not the whole list again."""
        self.refused = False
        """The last answer was refused (its reason printed)."""
        self.stop = StopRequest()

    def say(self, text: str = "") -> None:
        print(text, file=self.out, flush=True)

    def head(self, label: str) -> None:
        """The phase's heading, once, before its first line."""
        if label and label != self.heading:
            self.heading = label
            self.say(f"\n── {label} ──")

    async def open(self, game: str, seats: int, seed: int | None, name: str, resume: bool,
                   options: dict[str, Any], new: bool = False) -> int:
        info = await self.svc.find_match(LOCAL_CHANNEL)
        if resume:
            if info is None:
                raise ServiceError("There is no interrupted local match to resume; start one without --resume.")
            self._use_maps(int(info.id))
            self.names = info.names()
            self.say(f"Resuming match #{info.id} ({info.title}). Maps go to {self.maps}/.")
            recent = await self.svc.log(LOCAL_CHANNEL, limit=RESUME_LINES)
            if recent:
                self.say("Where you left off:")
                for line in recent:
                    self.say(f"  {line}")
            return int(info.id)
        if info is not None:
            if not new:
                raise ServiceError(
                    f"You have an unfinished local match #{info.id} ({info.title}). Continue it with "
                    "--resume, or start over with --new (which closes it).")
            await self.svc.abort(LOCAL_CHANNEL, LOCAL_USER, is_manager=True)
            self.say(f"(The unfinished local match #{info.id} was closed, as --new asked.)")
        info = await self.svc.create(
            LOCAL_GUILD, LOCAL_CHANNEL, LOCAL_USER, name, game, options, max_seats=seats, seed=seed
        )
        for _ in range(seats - 1):
            await self.svc.add_ai(LOCAL_CHANNEL, LOCAL_USER)
        await self.svc.start(LOCAL_CHANNEL, LOCAL_USER)
        self._use_maps(int(info.id))
        self.names = (await self.svc.get_match(int(info.id))).names()
        others = listed(self.names[1:])
        self.say(f"Match #{info.id}: {info.title}. You play {name}" + (f"; the AI plays {others}." if others else "."))
        self.say(f"Maps of each phase are saved in {self.maps}/. Press Enter to take the suggested answer "
                 "(twice when it lets a turn or a phase go by).")
        return int(info.id)

    def _use_maps(self, match_id: int) -> None:
        """Each match draws into a folder of its own, unless --maps named one."""
        if self.maps_given is None:
            self.maps = data_dir() / "maps" / f"match-{match_id}"
        self.maps.mkdir(parents=True, exist_ok=True)

    async def show_notices(self, match_id: int) -> dict[str, Any] | None:
        """Print what the channel would see, in full, and your own private lines; save each
        phase map. Returns the result, if any."""
        result = None
        for notice in _own_lines_first(await self.svc.outbox(limit=500)):
            if notice.match_id != match_id:
                await self.svc.delivered(notice.id, "local-skip")
                continue
            payload = notice.payload
            if notice.kind == "phase" and payload.get("label"):
                self.head(str(payload["label"]))
            if notice.kind in ("phase", "result"):
                label = str(payload.get("label") or "")
                body = [line for line in payload.get("events") or [] if line.rstrip(".") != label] \
                    if notice.kind == "phase" else None
                if notice.kind == "result" or (body is None and payload.get("text")):
                    self.say("\n" + str(payload.get("text", "")))
                elif body:
                    self.say("\n".join(body))
                if payload.get("view"):  # a phase closed mid-transaction has none: the map comes with the last
                    self.say(f"[map saved: {self._save_map(notice.kind, payload)}]")
                if notice.kind == "result":
                    result = payload.get("result")
            elif notice.kind == REPLAY_NOTICE:
                path = self.maps / "replay.gif"
                path.write_bytes((await self.svc.replay_gif(match_id)).data)
                self.say(f"[replay of every phase saved: {path}]")
            elif notice.kind == "events":
                self.head(str(payload.get("label") or ""))
                self.say("\n".join(payload.get("events") or [payload.get("text", "")]))
            elif notice.kind == "timeout":
                # ("progress" says whom the table waits for: here the question follows at once;
                # "turn" pings point to Discord DMs.)
                self.say(payload.get("text", ""))
            elif notice.kind == "private" and notice.user_id == LOCAL_USER:
                for line in payload.get("events") or [payload.get("text", "")]:
                    self.say(f"(only you see this) {line}")
            elif notice.kind == "prompt" and notice.user_id == LOCAL_USER:
                for line in payload.get("news") or []:  # private lines that came with the next decision
                    self.say(f"(only you see this) {line}")
            await self.svc.delivered(notice.id, "local")
        return result

    def _save_map(self, kind: str, payload: dict[str, Any]) -> Path:
        """Draw the notice's public map into the match's folder; returns where."""
        self.frame += 1
        view = render_views.public(payload["game"], payload["view"])
        path = self.maps / f"{self.frame:03d}-{kind}.png"
        path.write_bytes(render.draw(payload["game"], view, names=self.names))
        return path

    @staticmethod
    def _number(prompt: ShownPrompt) -> list[tuple[int, Option]]:
        """Each option with its number, 1 to n in the order the game lists them."""
        return list(enumerate(prompt.options, start=1))

    def ask(self, asked: Prompt | ShownPrompt) -> dict[str, Any] | None:
        """One answer from the keyboard, shaped as the prompt wants; None at end of input. A
        question asked again after a refusal is not listed again: the reason was just printed."""
        prompt = named_prompt(asked, self.names)
        kind = prompt.input
        default = prompt.default
        shown = repr((prompt.text, prompt.options, prompt.fields))
        again, self.listed, self.refused = self.refused and shown == self.listed, shown, False
        if not again:
            self.say(f"\n>> {prompt.text}" + ("  (secret)" if prompt.secret else ""))
        if kind in ("choose", "multi"):
            numbered = self._number(prompt)
            by_number = {number: option for number, option in numbered}
            for number, option in [] if again else numbered:
                desc = f" - {option.description}" if option.description else ""
                self.say(f"  {number}) {option.label}{desc}")
            hint = "a number" if kind == "choose" else f"numbers separated by commas ({prompt.min_picks}-{prompt.max_picks})"
            waiving = kind == "choose" and len(numbered) > 1 and any(
                option.choice == default and option.value in WAIVING for _, option in numbered)
            enter = "Enter twice" if waiving else "Enter"
            self.say(f"Your choice, {hint} [{enter} takes {self._suggestion(prompt, numbered)}]:")
            line = self.stop.read(self.read)
            if line is None:
                return None
            line = line.strip()
            if not line and waiving:
                self.say(f"Enter again to take {self._suggestion(prompt, numbered)}, or type a number:")
                line = self.stop.read(self.read)
                if line is None:
                    return None
                line = line.strip()
            if not line:
                return default
            picks: list[Option] = []
            for part in line.replace(" ", ",").split(","):
                if not part:
                    continue
                if not part.isdigit() or int(part) not in by_number:
                    raise ServiceError(f"'{part}' is not a number from 1 to {len(by_number)}.")
                picks.append(by_number[int(part)])
            if kind == "choose":
                if len(picks) != 1:
                    raise ServiceError("Pick exactly one number.")
                return picks[0].choice
            return {prompt.field: [option.value for option in picks]}
        answer: dict[str, Any] = {}
        for field in prompt.fields:
            suggested = default.get(field.name, field.min)
            self.say(f"{field.label}, {field.min} to {field.max} [Enter takes {suggested}]:")
            line = self.stop.read(self.read)
            if line is None:
                return None
            line = line.strip()
            if not line:
                answer[field.name] = suggested
            elif line.lstrip("-").isdigit():
                answer[field.name] = int(line)
            else:
                raise ServiceError(f"'{line}' is not a whole number.")
        return answer

    @staticmethod
    def _suggestion(prompt: ShownPrompt, numbered: list[tuple[int, Option]]) -> str:
        """What Enter takes, by number and name."""
        default = prompt.default
        if prompt.input == "multi":
            picked = set(default.get(prompt.field, []))
            chosen = [f"{number}, {option.label}" for number, option in numbered if option.value in picked]
            return "; ".join(chosen) if chosen else "none"
        found = next((f"{number}, {option.label}" + (f" ({option.description})" if option.description else "")
                      for number, option in numbered if option.choice == default), None)
        return found or "the suggested answer"

    async def play(self, match_id: int) -> int:
        try:
            return await self._play(match_id)
        except KeyboardInterrupt:
            self.say(STOPPED)
            return 130

    async def _play(self, match_id: int) -> int:
        while True:
            if self.stop.requested:
                raise KeyboardInterrupt
            result = await self.show_notices(match_id)
            info = await self.svc.get_match(match_id)
            if result is not None or info.status in ("finished", "aborted"):
                self.say("\nThe match is over.")
                return 0
            pending = await self.svc.pending_prompt(match_id, LOCAL_USER)
            if pending is None:
                await asyncio.sleep(0.01)
                if await self.svc.pending_prompt(match_id, LOCAL_USER) is None and not await self.svc.outbox(limit=1):
                    st = await self.svc.status(LOCAL_CHANNEL)
                    self.say(f"Waiting on the AI... ({st.phase})")
                    await asyncio.sleep(0.05)
                continue
            try:
                choice = self.ask(pending.prompt)
                if choice is None:
                    self.say("\nInput ended. Your match is saved: continue with  python -m bot play --resume")
                    return 3
                await self.svc.submit(match_id, LOCAL_USER, choice, version=pending.version)
            except ServiceError as exc:
                self.say(f"Not allowed: {exc}")
                self.refused = True


async def play_local(
    db_url: str | None,
    game: str,
    seats: int,
    seed: int | None,
    maps: Path | None,
    resume: bool = False,
    name: str | None = None,
    options: dict[str, Any] | None = None,
    read: Callable[[], str | None] | None = None,
    new: bool = False,
) -> int:
    if game not in engine.games():
        raise SystemExit(f"unknown game {game!r}; choose one of: {', '.join(sorted(engine.games()))}")
    url = local_db(db_url, resume)
    if url.startswith("sqlite") and ":///" in url:
        Path(url.split(":///", 1)[1]).parent.mkdir(parents=True, exist_ok=True)
    store = await Store.open(url, migrate=True)
    previous: Any = None
    try:
        svc = MatchService(store, wording=TERMINAL)
        reader = read or _stdin_line
        table = Table(svc, maps, reader)
        if threading.current_thread() is threading.main_thread():
            previous = signal.signal(signal.SIGINT, table.stop)
        try:
            match_id = await table.open(game, seats, seed, name or default_name(), resume, options or {}, new=new)
        except ServiceError as exc:
            table.say(str(exc))
            return 2
        remember_db(url)
        return await table.play(match_id)
    finally:
        await store.close()
        if previous is not None:
            signal.signal(signal.SIGINT, previous)


def _own_lines_first(notices: list[Notice]) -> list[Notice]:
    """The notices in order, but within one change of the match (one version) the seat's own
    private lines (alone or with its next question) come before the public ones: "You sealed
    ..." is read before the reveal it led to, not after it."""
    out: list[Notice] = []
    for _, together in groupby(notices, key=lambda notice: (notice.match_id, notice.key.split(":", 1)[0])):
        group = list(together)
        own = [notice for notice in group if notice.kind in ("private", "prompt") and notice.user_id == LOCAL_USER]
        out += own + [notice for notice in group if notice not in own]
    return out


def _stdin_line() -> str | None:
    line = sys.stdin.readline()
    return None if line == "" else line
