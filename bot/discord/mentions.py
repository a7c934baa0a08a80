"""Who a message may ping, and names that cannot ping or format anything.

Players choose their own names: a nickname written as `<@123>`, `@everyone` or `**bold**` must
read as those characters wherever the bot repeats it, and only the players a message is meant
for may be pinged by it."""

from __future__ import annotations

from collections.abc import Iterable

import discord

NOBODY = discord.AllowedMentions.none()
ROUTINE = True
"""``silent=`` of a routine post (phase posts, lobby, board, result and replay posts, news such as
"time is up"): sent with Discord's SUPPRESS_NOTIFICATIONS flag, so it reaches nobody's phone.
Only a turn announcement, a reminder and a refusal buzz. Edits never notify on Discord, so every
edit of a post (a phase post growing, the board moving) is silent by construction."""


def plain_name(name: str) -> str:
    """A player's name as inert text: markdown and mentions escaped."""
    return discord.utils.escape_mentions(discord.utils.escape_markdown(name))


def plain_names(names: Iterable[str]) -> list[str]:
    return [plain_name(n) for n in names]


def only(user_ids: Iterable[int]) -> discord.AllowedMentions:
    """Ping exactly these users (nobody if empty): never @everyone, roles or other users."""
    ids = list(dict.fromkeys(int(u) for u in user_ids))
    if not ids:
        return NOBODY
    return discord.AllowedMentions(everyone=False, roles=False, users=[discord.Object(u) for u in ids],
                                   replied_user=False)


def mentions(user_ids: Iterable[int]) -> str:
    return " ".join(f"<@{int(uid)}>" for uid in user_ids)
