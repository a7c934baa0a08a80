"""The web table's links in Discord posts (bot/web/): an "Open the table" link button on the
status board and the result, and a seat's own link in its decision DMs. With WEB_PORT unset the
bot has no links and nothing here adds anything."""

from __future__ import annotations

import discord

from bot.service.web_links import WebLinks

OPEN_THE_TABLE = "Open the table"
SEAT_LINK = "Your own table (a private link: keep it to yourself): <{url}>"


def links_of(bot: object) -> WebLinks | None:
    """The bot's web links, when its web table is on."""
    links = getattr(bot, "web_links", None)
    return links if isinstance(links, WebLinks) else None


def table_button(bot: object, match_id: int) -> discord.ui.Button[discord.ui.View] | None:
    """A link button to the match's public page (None: no web table)."""
    links = links_of(bot)
    return None if links is None else discord.ui.Button(label=OPEN_THE_TABLE, url=links.table(match_id))


def table_view(bot: object, match_id: int) -> discord.ui.View | None:
    """A row holding only the table's link button (the result post's), or None."""
    button = table_button(bot, match_id)
    if button is None:
        return None
    view = discord.ui.View(timeout=None)
    view.add_item(button)
    return view


def with_seat_link(bot: object, content: str, match_id: int, seat: int, user_id: int | None, limit: int = 2000) -> str:
    """A decision DM's text with the seat's fresh private link under it, when it fits."""
    links = links_of(bot)
    if links is None or user_id is None:
        return content
    line = SEAT_LINK.format(url=links.seat(match_id, seat, int(user_id)))
    return f"{content}\n\n{line}" if len(content) + len(line) + 2 <= limit else content
