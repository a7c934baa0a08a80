"""How a front-end writes what the service tells players.

The service decides what is said and names the commands it points to by neutral names
(``ACT``); a front-end hands MatchService a ``Wording`` that writes those names and the emphasis
in its own markup. ``CHAT`` is the chat markup every front-end shares today (Discord's, which the
terminal table prints as it is), so a front-end that passes nothing gets the texts players know.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime

from engine.words import counted as engine_counted

ACT = "act"
"""The command that shows a seat its open prompt (in the server, when DMs do not reach it)."""


def _chat_strong(text: str) -> str:
    return f"**{text}**"


def _chat_moment(when: datetime) -> str:
    """A moment as Discord shows it: in each reader's own time zone, and how far off it is."""
    seconds = int(when.timestamp())
    return f"<t:{seconds}:f> (<t:{seconds}:R>)"


def utc_moment(when: datetime) -> str:
    """A moment for a front-end without Discord's timestamps: in UTC."""
    return f"{when.astimezone(UTC):%Y-%m-%d %H:%M} UTC"


@dataclass(frozen=True)
class Wording:
    """A front-end's markup: how a named command is written, how a line is made to stand out,
    and who besides the host may use host powers (the transport's own permission)."""

    commands: Mapping[str, str] = field(default_factory=lambda: {ACT: "`/game act`"})
    strong: Callable[[str], str] = _chat_strong
    manager: str = "a member with Manage Server"
    managers: str = "members with Manage Server"
    moment: Callable[[datetime], str] = _chat_moment
    """A moment (a pause's end) as this front-end shows it."""

    def command(self, name: str) -> str:
        """The command called ``name`` as a player types it."""
        return self.commands[name]


CHAT = Wording()
"""The chat markup (bold with ``**``, commands in backticks) and its server managers."""


# ---------------------------------------------------------------- words every front-end shares
# Counted nouns, lists of names, who won and the AI's names: one place, so a text never reads
# "1 units", "AI 1 (heuristic)" or "carol, bob won" on a tie. The engine has its own pure copy of
# the counted noun (engine/words.py), since engine/ imports nothing from bot/.

AI_NAMES = ("AI Ayame", "AI Bruno", "AI Chiyo", "AI Dario", "AI Edda", "AI Fumio", "AI Greta", "AI Hiro")
"""The names AI seats take, in the order they are seated: a reader sees a name, not a policy."""
_LEGACY_AI = re.compile(r"AI (\d+) \((?:heuristic|random)\)")
"""How AI seats were named before they had names (database revisions before 0014)."""


def counted(count: int, singular: str, plural: str | None = None) -> str:
    """``count`` and the noun in the form its number takes: "1 game", "3 games"."""
    return engine_counted(count, singular, plural)


def listed(names: Sequence[str], last: str = "and") -> str:
    """Names as a sentence lists them: "alice", "alice and bob", "alice, bob and carol"."""
    items = [name for name in names if name]
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} {last} {items[-1]}"


def ai_name(number: int) -> str:
    """The name of the ``number``-th AI seated in a match (1 for the first)."""
    if 1 <= number <= len(AI_NAMES):
        return AI_NAMES[number - 1]
    return f"{AI_NAMES[(number - 1) % len(AI_NAMES)]} {(number - 1) // len(AI_NAMES) + 1}"


def seat_name(stored: str) -> str:
    """A stored seat name as players read it: an AI seat named the old way ("AI 2 (heuristic)")
    reads as the AI's name it would have today."""
    old = _LEGACY_AI.fullmatch(stored.strip())
    return ai_name(int(old.group(1))) if old else stored


def verdict(names: Sequence[str], winners: Sequence[int], draw: bool) -> str:
    """Who won, as a sentence's clause: "alice won", "a shared win for alice and bob",
    "a draw between alice and bob", "a draw", "nobody won"."""
    who = listed([names[seat] if 0 <= seat < len(names) else "someone" for seat in winners])
    if draw:
        return f"a draw between {who}" if len(winners) > 1 else "a draw"
    if len(winners) > 1:
        return f"a shared win for {who}"
    return f"{who} won" if who else "nobody won"


RATING_START = 1000
"""What a new player's rating shows: ``mu - 3 sigma`` is 0 then."""
RATING_STEP = 40
"""Shown points per unit of ``mu - 3 sigma`` (openskill's default sigma is 25/3)."""
RATING_MEANING = f"new players start at {RATING_START}"


def rating_points(ordinal: float) -> int:
    """The one number a rating shows: ``RATING_START + RATING_STEP * (mu - 3 sigma)``. It starts
    at 1,000 and grows as the bot becomes sure of a player's level; it stays above zero in any
    real history (that would take mu - 3 sigma below -25)."""
    return max(0, round(RATING_START + RATING_STEP * ordinal))


def sentence(text: str) -> str:
    """A text as a sentence: its first letter upper-case and a full stop at its end."""
    text = text.strip()
    if not text:
        return text
    text = text[:1].upper() + text[1:]
    return text if text[-1] in ".!?" else text + "."


_OPTION_WORDS = {
    "round_limit": "at most {value} {rounds}",
    "point_limit": "{value} force {points}",
    "to_win": "{value} influence to win",
    "mode": "{value} mode",
    "difficulty": "{value} difficulty",
    "setup": "{value} setup",
    "steps": "{value} steps",
    "seed": "seed {value}",
}
"""Match options as a lobby lists them; the option's name is the slash command's, not a text."""


def option_words(name: str, value: object) -> str:
    """One match option in words: "at most 6 rounds", never "round_limit 6"."""
    template = _OPTION_WORDS.get(name)
    if template is None:
        return f"{name.replace('_', ' ')} {value}"
    one = str(value) == "1"
    return template.format(value=value, rounds="round" if one else "rounds", points="point" if one else "points")
