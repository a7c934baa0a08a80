"""Discord noise benchmark: how many messages, edits, DMs and pings a match costs a server.

    python benchmarks/discord_noise.py [--only tinybigwars,samurai,defenders] [--rate-scale 0.05]
                                       [--transcript DIR]

Plays seeded matches in this process: the fake Discord, the real bot (discord.py, SQLite in a
temporary directory) and virtual players who answer every DM prompt (tests/e2e/harness.py's
AutoPlayer; Tiny Epic Defenders uses the e2e DefendersTable, which knows how to end a Turn).

- Tiny Big Wars: 3 seats (alice, bob, an AI), round_limit 6, seed 3;
- Samurai Swords: 4 seats (alice, bob, 2 AIs), base mode, round_limit 2 (the match ends at round 2);
- Tiny Epic Defenders: 2 seats (alice, bob), single mode, round_limit 2, seed 5.

Per round it prints: new messages everyone in the server can see (the match channel and its
threads, not ephemeral replies), edits of those, new DMs per player, pings per player (a mention
the message's allowed_mentions let through, counted when the message is created) and 429s the
fake answered. A round is the game's own round number as its public view shows it, sampled
while the match runs ("lobby" before the start); Defenders also shows the round's Turn cards.
Rate limits run at `--rate-scale` of Discord's windows (default 1/20, as in the e2e tests).
`--transcript DIR` writes what each player saw (DIR/<scenario>.txt): every channel message and DM
as it ended, with its edit count, buttons and attachments, to be read as a player would.
"""

from __future__ import annotations

import argparse
import asyncio
import re
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.e2e.defenders_play import DefendersTable  # noqa: E402
from tests.e2e.harness import AutoPlayer, ephemeral_reply, factory, settings_for  # noqa: E402
from tests.fakediscord.fixtures import BotRunner, running_fake  # noqa: E402
from tests.fakediscord.models import Channel, Message  # noqa: E402
from tests.fakediscord.server import FakeDiscord  # noqa: E402

OVER = "The match is over"
MENTION = re.compile(r"<@!?(\d+)>")
HEADING = re.compile(r"\*\*Round (\d+) ")
"""A phase post's heading: the post counts in the round it names (the sampled round can lag)."""
MATCH_SECONDS = 600.0


@dataclass
class RoundCounts:
    """What one round cost."""

    posts: int = 0
    edits: int = 0
    dms: Counter[str] = field(default_factory=Counter)
    pings: Counter[str] = field(default_factory=Counter)
    refusals: int = 0
    turn_cards: int | None = None


@dataclass
class Tally:
    """Counts every bot message as it is created or edited, under the round current then."""

    fake: FakeDiscord
    players: dict[int, str]
    round: str = "lobby"
    rounds: dict[str, RoundCounts] = field(default_factory=dict)
    refusals_seen: int = 0

    def now(self) -> RoundCounts:
        return self.rounds.setdefault(self.round, RoundCounts())

    def install(self) -> None:
        create, edit = self.fake.create_message, self.fake.edit_message

        def create_message(channel: Channel, body: dict, files: list, **kwargs: Any) -> Message:
            msg = create(channel, body, files, **kwargs)
            self.created(msg)
            return msg

        def edit_message(msg: Message, body: dict, files: list) -> Message:
            out = edit(msg, body, files)
            if msg.ephemeral_to is None and msg.channel.recipient is None and msg.interaction_id is None:
                self.now().edits += 1
            return out

        self.fake.create_message = create_message  # type: ignore[method-assign]
        self.fake.edit_message = edit_message  # type: ignore[method-assign]

    def created(self, msg: Message) -> None:
        counts = self.now()
        heading = HEADING.match(msg.content)
        if heading is not None and msg.channel.recipient is None:  # a phase post names its round
            counts = self.rounds.setdefault(heading[1], RoundCounts())
        if msg.channel.recipient is not None:
            counts.dms[self.players.get(msg.channel.recipient.id, "?")] += 1
            return
        if msg.ephemeral_to is not None:
            return
        counts.posts += 1
        for user_id in pinged(msg):
            counts.pings[self.players.get(user_id, str(user_id))] += 1

    def sample_refusals(self) -> None:
        total = len(self.fake.rate_limiter.refusals)
        self.now().refusals += total - self.refusals_seen
        self.refusals_seen = total


def pinged(msg: Message) -> list[int]:
    """Users a new message notifies: mentioned in its text and let through by allowed_mentions."""
    ids = [int(found) for found in MENTION.findall(msg.content)]
    allowed = msg.allowed_mentions
    if allowed is None:
        return ids
    if "users" in (allowed.get("parse") or []):
        return ids
    let = {int(u) for u in allowed.get("users") or []}
    return [i for i in ids if i in let]


async def follow_rounds(bot: Any, match_id: Callable[[], int | None], tally: Tally,
                        stop: asyncio.Event) -> None:
    """Keep `tally.round` at the match's current round (and the 429 count per round)."""
    while not stop.is_set():
        found = match_id()
        if found is not None:
            view = await bot.svc.public_view(found)
            label = str(view.get("round", "?"))
            if view.get("battle") is not None and view.get("battles", 1) > 1:
                label = f"{view['battle']}.{label}"
            if label != tally.round:
                tally.sample_refusals()
                tally.round = label
            deck = view.get("deck")
            counts = tally.now()
            if isinstance(deck, dict) and counts.turn_cards is None:
                counts.turn_cards = int(deck.get("round_cards", 0))
        tally.sample_refusals()
        await asyncio.sleep(0.05)


async def open_match(fake: FakeDiscord, host: Any, guests: list[Any], ais: int, **options: Any) -> None:
    """`/game new`, guests join, the host adds AIs and starts."""
    await host.slash("game new", **options)
    await host.wait_for(lambda m: m.button("Start") is not None, timeout=60)
    for guest in guests:
        await guest.click("Join")
        await host.wait_for(lambda m, g=guest: f"{g.name} joined" in m.content, timeout=60)
    for _ in range(ais):
        reply = await host.click("Add AI")
        assert "took a seat" in await ephemeral_reply(reply)
    await host.click("Start")


def over(fake: FakeDiscord) -> bool:
    """The result was posted (in the channel or any thread of it)."""
    return any(OVER in m.content for m in fake.messages.values()
               if m.channel.recipient is None and m.ephemeral_to is None)


async def autoplay(fake: FakeDiscord, players: list[Any]) -> None:
    autos = [AutoPlayer(p) for p in players]
    end = time.monotonic() + MATCH_SECONDS
    while not over(fake):
        if time.monotonic() > end:
            raise TimeoutError("the match did not finish")
        acted = False
        for auto in autos:
            acted = await auto.step() or acted
        if not acted:
            await asyncio.sleep(0.05)


async def tiny_big_wars(fake: FakeDiscord) -> None:
    alice, bob = fake.user("alice"), fake.user("bob")
    await open_match(fake, alice, [bob], ais=1, game="tinybigwars", round_limit=6, seed=3)
    await autoplay(fake, [alice, bob])


async def samurai(fake: FakeDiscord) -> None:
    alice, bob = fake.user("alice"), fake.user("bob")
    await open_match(fake, alice, [bob], ais=2, game="samurai", seats=4, mode="base", round_limit=2, seed=1)
    await autoplay(fake, [alice, bob])


async def defenders(fake: FakeDiscord) -> None:
    alice, bob = fake.user("alice"), fake.user("bob")
    await open_match(fake, alice, [bob], ais=0, game="defenders", mode="single", seats=2, round_limit=2, seed=5)
    table = DefendersTable([alice, bob])
    await table.finish(lambda: over(fake), timeout=MATCH_SECONDS)


SCENARIOS: dict[str, tuple[str, Callable[[FakeDiscord], Awaitable[None]]]] = {
    "tinybigwars": ("Tiny Big Wars, 3 seats (2 humans + AI), round_limit 6", tiny_big_wars),
    "samurai": ("Samurai Swords, 4 seats (2 humans + 2 AI), 2 rounds", samurai),
    "defenders": ("Tiny Epic Defenders, 2 seats (2 humans), 2 rounds", defenders),
}


def transcript(fake: FakeDiscord) -> str:
    """Every message a person could see, oldest first, as it ended (ephemeral replies included)."""
    lines: list[str] = []
    for msg in sorted(fake.messages.values(), key=lambda m: m.id):
        if msg.deleted or msg.author.id != fake.bot_user.id:
            continue
        if msg.channel.recipient is not None:
            where = f"DM {msg.channel.recipient.name}"
        elif msg.ephemeral_to is not None:
            where = f"#{msg.channel.name} (only {msg.ephemeral_to.name})"
        else:
            where = f"#{msg.channel.name}"
        edits = len(msg.versions) - 1
        lines.append(f"--- {where} · message {msg.id}" + (f" · edited {edits}x" if edits > 0 else ""))
        lines.append(msg.text)  # the content and the embeds' text: a long phase post goes on in one
        buttons = [c.get("label") or c.get("placeholder") or "?" for row in msg.components
                   for c in row.get("components", [])]
        if buttons:
            lines.append("[" + "] [".join(str(b) for b in buttons) + "]")
        for attachment in msg.attachments:
            lines.append(f"(attachment {attachment.filename})")
    return "\n".join(lines) + "\n"


async def run_scenario(name: str, rate_scale: float, workdir: Path,
                       transcripts: Path | None = None) -> dict[str, RoundCounts]:
    async with running_fake(players=("alice", "bob"), rate_time_scale=rate_scale) as fake:
        players = {p.user.id: p.name for p in (fake.user("alice"), fake.user("bob"))}
        tally = Tally(fake, players)
        tally.install()
        runner = BotRunner(fake)
        bot = await runner(factory(settings_for(fake, workdir / f"{name}.db")))
        stop = asyncio.Event()
        found: list[int] = []

        def match_id() -> int | None:
            return found[0] if found else None

        async def find() -> None:
            while not found and not stop.is_set():
                info = await bot.svc.find_match(fake.channel.id)
                if info is not None and info.status != "lobby":
                    found.append(info.id)
                await asyncio.sleep(0.05)

        watcher = asyncio.create_task(follow_rounds(bot, match_id, tally, stop))
        finder = asyncio.create_task(find())
        started = time.monotonic()
        try:
            await SCENARIOS[name][1](fake)
            await fake.quiesce(quiet=1.0, timeout=30)
            tally.sample_refusals()
            if transcripts is not None:
                transcripts.mkdir(parents=True, exist_ok=True)
                (transcripts / f"{name}.txt").write_text(transcript(fake))
        finally:
            stop.set()
            await asyncio.gather(watcher, finder, return_exceptions=True)
            await runner.stop_all()
        print(f"  ({time.monotonic() - started:.0f} s; violations {len(fake.violations)})", flush=True)
        for violation in fake.violations[:5]:
            print(f"  violation: {violation}")
        return tally.rounds


def table(rounds: dict[str, RoundCounts], people: list[str]) -> list[str]:
    head = "| round | channel posts | channel edits | " + " | ".join(
        f"DMs {p}" for p in people) + " | " + " | ".join(f"pings {p}" for p in people) + " | 429s | Turn cards |"
    lines = [head, "|" + "---|" * (head.count("|") - 1)]
    total = RoundCounts()
    for label, c in rounds.items():
        lines.append(f"| {label} | {c.posts} | {c.edits} | " + " | ".join(str(c.dms[p]) for p in people) + " | "
                     + " | ".join(str(c.pings[p]) for p in people)
                     + f" | {c.refusals} | {'' if c.turn_cards is None else c.turn_cards} |")
        total.posts += c.posts
        total.edits += c.edits
        total.dms.update(c.dms)
        total.pings.update(c.pings)
        total.refusals += c.refusals
    lines.append(f"| total | {total.posts} | {total.edits} | " + " | ".join(str(total.dms[p]) for p in people)
                 + " | " + " | ".join(str(total.pings[p]) for p in people) + f" | {total.refusals} | |")
    return lines


async def main_async(names: list[str], rate_scale: float, transcripts: Path | None) -> int:
    with tempfile.TemporaryDirectory(prefix="warhost-noise-") as tmp:
        for name in names:
            print(f"\n### {SCENARIOS[name][0]}", flush=True)
            rounds = await run_scenario(name, rate_scale, Path(tmp), transcripts)
            print("\n".join(table(rounds, ["alice", "bob"])), flush=True)
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", default=",".join(SCENARIOS), help="comma-separated scenarios")
    parser.add_argument("--rate-scale", type=float, default=0.05, help="rate limit windows as a share of Discord's")
    parser.add_argument("--transcript", type=Path, help="folder for what each player saw, per scenario")
    args = parser.parse_args()
    return asyncio.run(main_async([n for n in args.only.split(",") if n], args.rate_scale, args.transcript))


if __name__ == "__main__":
    sys.exit(main())
