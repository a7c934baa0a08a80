"""The terminal table reads like the Discord texts: plain headings before their lines, no markdown,
options numbered 1 to n, an Enter default that says what it does and asks again before it lets a
turn go by, a refusal that prints only its reason, your own lines before the reveal they led to.
Driven in-process through `Table`, by a reader that answers what the last printed line asks."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

from bot.local.table import TERMINAL, Table
from bot.service import MatchService
from db.store import Store
from tests.bot.wording_scan import problems
from tests.games import KEYS, short, table_of


class Player:
    """Answers the table as a player at the keyboard: a bad number first, then a real choice at
    the first Done, then Enter everywhere (pressed again when the table asks to confirm)."""

    def __init__(self, out: io.StringIO) -> None:
        self.out = out
        self.asked: list[str] = []
        self.refused_once = False
        self.recruited = False
        self.typed = False

    def __call__(self) -> str | None:
        last = self.out.getvalue().rstrip("\n").splitlines()[-1]
        self.asked.append(last)
        if len(self.asked) > 3000:
            return None
        if not self.refused_once and last.startswith("Your choice"):
            self.refused_once = True
            return "99"
        if not self.recruited and "Enter twice takes " in last and "Done" in last:
            self.recruited = True
            return ""  # Enter once: the table must ask again, not finish the Clan Phase
        if self.recruited and last.startswith("Enter again to take") and self.asked[-2].startswith("Your choice") \
                and "Done" in self.asked[-2] and not self.typed:
            self.typed = True
            return "1"  # ... and a number then is a real choice: recruit
        return ""


async def play_table(tmp_path: Path, game: str, seats: int, seed: int) -> tuple[str, Player]:
    store = await Store.open(f"sqlite+aiosqlite:///{tmp_path / 'table.db'}", migrate=True)
    out = io.StringIO()
    player = Player(out)
    try:
        table = Table(MatchService(store, wording=TERMINAL), tmp_path / "maps", player, out=out)
        match_id = await table.open(game, seats, seed, "Sam", False, short(game, rounds=2))
        assert await table.play(match_id) == 0, out.getvalue()[-2000:]
    finally:
        await store.close()
    return out.getvalue(), player


def option_blocks(out: str) -> list[list[int]]:
    """The numbers of each printed list of options."""
    blocks: list[list[int]] = []
    previous = False
    for line in out.splitlines():
        found = re.match(r"  (\d+)\) ", line)
        if found and previous:
            blocks[-1].append(int(found.group(1)))
        elif found:
            blocks.append([int(found.group(1))])
        previous = bool(found)
    return blocks


async def test_tiny_big_wars_at_the_table(tmp_path: Path) -> None:
    out, player = await play_table(tmp_path, "tinybigwars", 2, 3)
    assert "The match is over" in out
    assert "**" not in out and "waiting for" not in out and "Try again" not in out
    assert problems(out) == [], problems(out)[:10]
    # A refusal prints its reason and the line to answer, not the 19 options again.
    assert "Not allowed: '99' is not a number from 1 to 19." in out
    assert out.count("  1) Ember Fist") == 1
    # Options are numbered 1 to n, with no gap.
    assert all(block == list(range(1, len(block) + 1)) for block in option_blocks(out))
    # Enter says what it takes; a default that lets the Clan Phase go by needs Enter twice.
    assert re.search(r"\[Enter twice takes \d+, Done \(Unspent coins are lost[^\]]*\)\]", out)
    assert "Enter again to take" in out and player.recruited
    assert "Sam recruits" in out, "the number typed after one Enter is the choice, not Done"
    # Headings are plain lines, each before the lines of its phase.
    assert out.index("── Force Building ──") < out.index("Forces revealed.")
    assert out.index("── Round 1 - Clan Phase ──") < out.index("Round 1: Clan Phase over")
    # Your own sealed force is read before the reveal, not after it.
    assert out.index("(only you see this) You sealed a force") < out.index("Forces revealed.")


@pytest.mark.parametrize("game", KEYS)
async def test_every_game_at_the_table(tmp_path: Path, game: str) -> None:
    out, _ = await play_table(tmp_path, game, table_of(game), 3)
    assert "The match is over" in out
    assert "**" not in out and "waiting for" not in out
    assert problems(out) == [], problems(out)[:10]
    assert all(block == list(range(1, len(block) + 1)) for block in option_blocks(out))
