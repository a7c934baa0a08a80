"""A match at the terminal: you take one seat, AI policies the rest. It runs on the same
service and store as the Discord bot, so an interrupted match resumes with --resume."""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, TextIO

import engine
import render
from bot.service import MatchService, ServiceError
from db.store import Store

LOCAL_GUILD = 0
LOCAL_CHANNEL = 1
LOCAL_USER = 1


class Table:
    def __init__(
        self,
        svc: MatchService,
        maps: Path,
        read: Callable[[], str | None],
        out: TextIO = sys.stdout,
    ) -> None:
        self.svc = svc
        self.maps = maps
        self.read = read
        self.out = out
        self.frame = 0

    def say(self, text: str = "") -> None:
        print(text, file=self.out, flush=True)

    async def open(self, game: str, seats: int, seed: int | None, name: str, resume: bool, options: dict[str, Any]) -> int:
        info = await self.svc.find_match(LOCAL_CHANNEL)
        if resume:
            if info is None:
                raise ServiceError("There is no interrupted local match to resume; start one without --resume.")
            self.say(f"Resuming match #{info.id} ({info.title}).")
            return int(info.id)
        if info is not None:
            await self.svc.abort(LOCAL_CHANNEL, LOCAL_USER, is_manager=True)
            self.say(f"(The earlier unfinished local match #{info.id} was closed; use --resume to continue one.)")
        info = await self.svc.create(
            LOCAL_GUILD, LOCAL_CHANNEL, LOCAL_USER, name, game, options, max_seats=seats, seed=seed
        )
        for _ in range(seats - 1):
            await self.svc.add_ai(LOCAL_CHANNEL, LOCAL_USER)
        await self.svc.start(LOCAL_CHANNEL, LOCAL_USER)
        self.say(f"Match #{info.id}: {info.title}, {seats} seat{'s' if seats != 1 else ''}. You are seat 1"
                 + ("; the AI plays the others." if seats > 1 else "."))
        self.say(f"Maps of each phase are saved in {self.maps}/. Press Enter to take the suggested answer.")
        return int(info.id)

    async def show_notices(self, match_id: int) -> dict[str, Any] | None:
        """Print what the channel would see; save each phase map. Returns the result, if any."""
        result = None
        for notice in await self.svc.outbox(limit=500):
            if notice.match_id != match_id:
                await self.svc.delivered(notice.id, "local-skip")
                continue
            payload = notice.payload
            if notice.kind in ("phase", "result"):
                self.frame += 1
                info = await self.svc.get_match(match_id)
                png = render.draw(payload["game"], payload["view"], names=info.names())
                path = self.maps / f"{self.frame:03d}-{notice.kind}.png"
                path.write_bytes(png)
                self.say(f"\n{payload.get('text', '')}\n[map saved: {path}]")
                if notice.kind == "result":
                    result = payload.get("result")
            elif notice.kind in ("events", "progress", "timeout"):
                # ("turn" pings point to Discord DMs; here the question follows at once.)
                self.say(payload.get("text", ""))
            await self.svc.delivered(notice.id, "local")
        return result

    def ask(self, prompt: dict[str, Any]) -> dict[str, Any] | None:
        """One answer from the keyboard, shaped as the prompt wants; None at end of input."""
        self.say(f"\n>> {prompt['text']}" + ("  (secret)" if prompt.get("secret") else ""))
        kind = prompt.get("input", "choose")
        default = prompt.get("default") or {}
        options = prompt.get("options") or []
        if kind in ("choose", "multi"):
            for i, opt in enumerate(options, 1):
                desc = f" - {opt['description']}" if opt.get("description") else ""
                self.say(f"  {i}) {opt['label']}{desc}")
            hint = "number" if kind == "choose" else f"numbers separated by commas ({prompt.get('min_picks', 0)}-{prompt.get('max_picks', 1)})"
            self.say(f"Your choice ({hint}; Enter = suggested):")
            line = self.read()
            if line is None:
                return None
            line = line.strip()
            if not line:
                return default
            picks: list[int] = []
            for part in line.replace(" ", ",").split(","):
                if not part:
                    continue
                if not part.isdigit() or not 1 <= int(part) <= len(options):
                    raise ServiceError(f"'{part}' is not one of the numbers 1 to {len(options)}.")
                picks.append(int(part) - 1)
            if kind == "choose":
                if len(picks) != 1:
                    raise ServiceError("Pick exactly one number.")
                return options[picks[0]]["choice"]
            return {prompt.get("field", "picks"): [options[i]["value"] for i in picks]}
        answer: dict[str, Any] = {}
        for field in prompt.get("fields") or []:
            suggested = default.get(field["name"], field["min"])
            self.say(f"{field['label']} ({field['min']}-{field['max']}, Enter = {suggested}):")
            line = self.read()
            if line is None:
                return None
            line = line.strip()
            if not line:
                answer[field["name"]] = suggested
            elif line.lstrip("-").isdigit():
                answer[field["name"]] = int(line)
            else:
                raise ServiceError(f"'{line}' is not a whole number.")
        return answer

    async def play(self, match_id: int) -> int:
        while True:
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
            prompt = pending.prompt.model_dump()
            try:
                choice = self.ask(prompt)
                if choice is None:
                    self.say("\nInput ended. Your match is saved: continue with  python -m bot play --resume")
                    return 3
                await self.svc.submit(match_id, LOCAL_USER, choice, version=pending.version)
            except ServiceError as exc:
                self.say(f"Not allowed: {exc} Try again.")


async def play_local(
    db_url: str,
    game: str,
    seats: int,
    seed: int | None,
    maps: Path,
    resume: bool = False,
    name: str = "You",
    options: dict[str, Any] | None = None,
    read: Callable[[], str | None] | None = None,
) -> int:
    if game not in engine.games():
        raise SystemExit(f"unknown game {game!r}; choose one of: {', '.join(sorted(engine.games()))}")
    maps.mkdir(parents=True, exist_ok=True)
    store = await Store.open(db_url, migrate=True)
    try:
        svc = MatchService(store)
        reader = read or _stdin_line
        table = Table(svc, maps, reader)
        try:
            match_id = await table.open(game, seats, seed, name, resume, options or {})
        except ServiceError as exc:
            table.say(str(exc))
            return 2
        return await table.play(match_id)
    finally:
        await store.close()


def _stdin_line() -> str | None:
    line = sys.stdin.readline()
    return None if line == "" else line
