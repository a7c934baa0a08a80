"""The texts of `/game history`, `/game stats` and `/game leaderboard`.

Players choose their own names, so every name is escaped (it can neither ping nor format), and
the replies go out with no mention allowed at all. Each reply is one page under Discord's 2,000
characters: a line too many is dropped, never cut in half."""

from __future__ import annotations

from collections.abc import Sequence

import engine
from bot.discord import texts
from bot.discord.mentions import plain_name
from bot.service.core import team_verdict
from bot.service.history import HistoryEntry
from bot.service.pace import Pace
from bot.service.ratings import GameStats, Standing, is_cooperative
from bot.service.replacements import SharedSeat, Stretch, ended, seat_label
from bot.service.wording import RATING_MEANING, counted, rating_points, seat_name
from bot.service.wording import verdict as who_won

PAGE = 1900
"""Characters of one reply page (Discord allows 2,000)."""
LEADERBOARD_ONE = 10
"""Players listed when one game is asked for."""
LEADERBOARD_EACH = 5
"""Players listed per game when every game is shown."""
JUMP = "https://discord.com/channels/{guild}/{channel}/{message}"


def title_of(key: str) -> str:
    try:
        return str(engine.get(key).title)
    except KeyError:
        return key


def _page(head: str, lines: Sequence[str], more: str) -> str:
    """The heading and as many whole lines as fit; says how many were left out."""
    text = head
    for n, line in enumerate(lines):
        room = PAGE if n == len(lines) - 1 else PAGE - 40  # room for the "more" line
        if len(text) + 1 + len(line) > room:
            return f"{text}\n{more.format(left=len(lines) - n)}"
        text += "\n" + line
    return text


def verdict(entry: HistoryEntry) -> str:
    """Who won, as the history line says it."""
    if entry.abandoned:
        return "abandoned by its players"
    try:
        game = engine.get(entry.game)
    except KeyError:
        team = None  # a game this build no longer knows: its winners are named instead
    else:
        team = team_verdict(game, [s.seat for s in entry.winners])
    if team is not None:
        return team
    names = [plain_name(seat_name(s.name)) for s in entry.winners]
    return who_won(names, list(range(len(names))), entry.draw)


def stretch_words(stretch: Stretch) -> str:
    """One player's stretch at a seat: "Alice (rounds 1-3)" (choices, in a game without rounds)."""
    name = plain_name(seat_name(stretch.name))
    if stretch.from_round is not None and stretch.to_round is not None:
        if stretch.from_round == stretch.to_round:
            return f"{name} (round {stretch.from_round})"
        return f"{name} (rounds {stretch.from_round}-{stretch.to_round})"
    last = stretch.to_step if stretch.to_step is not None else stretch.from_step
    return f"{name} (choices {stretch.from_step + 1}-{last})"


def seat_stretches_line(seat: int, stretches: list[Stretch]) -> str:
    """"seat 2: Alice (rounds 1-3), Bob (rounds 3-7)"."""
    return f"{seat_label(seat)}: " + ", ".join(stretch_words(s) for s in stretches)


def history_line(entry: HistoryEntry, stretches: dict[int, list[Stretch]] | None = None) -> str:
    length = [counted(entry.rounds, "round")] if entry.rounds is not None else []
    length.append(counted(entry.choices, "choice"))
    if entry.replay_message_id is not None and entry.guild_id is not None:
        where = "[replay](" + JUMP.format(guild=entry.guild_id, channel=entry.channel_id,
                                         message=entry.replay_message_id) + ")"
    else:
        where = f"<#{entry.channel_id}>"
    shared = "".join(f" · {seat_stretches_line(seat, ended(rows, entry.rounds, entry.choices))}"
                     for seat, rows in sorted((stretches or {}).items()))
    return (f"**#{entry.match_id} {title_of(entry.game)}** · <t:{int(entry.finished_at.timestamp())}:d> · "
            f"{verdict(entry)} · {', '.join(length)}{shared} · {where}")


def history_text(entries: list[HistoryEntry], game: str | None,
                 stretches: dict[int, dict[int, list[Stretch]]] | None = None) -> str:
    """The history; ``stretches``: match -> seat -> who played it when, for seats that changed hands."""
    what = f"{title_of(game)} match" if game else "match"
    if not entries:
        return f"No {what} has finished on this server yet."
    head = f"**Finished {what}es on this server**, newest first:"
    found = stretches or {}
    return _page(head, [history_line(e, found.get(e.match_id)) for e in entries], "... and {left} more.")


def stats_line(stats: GameStats) -> str:
    parts = [counted(stats.games, "game"), counted(stats.wins, "win")]
    if stats.rated:
        parts.append(f"rating {rating_points(stats.rating)} ({RATING_MEANING}; "
                     f"{counted(stats.rated, 'rated match', 'rated matches')})")
    elif _cooperative(stats.game):
        parts.append("cooperative: not rated")
    else:
        parts.append("not rated yet (a rated match needs two human players)")
    line = f"**{stats.title}**: " + ", ".join(parts)
    if stats.favourite is not None:
        line += f"; favourite {stats.favourite_kind}: {plain_name(stats.favourite)}"
    return line


def duration_text(seconds: float) -> str:
    """A time to answer in words a player reads at a glance: "under a minute", "25 min", "2.5 h", "3.2 days"."""
    if seconds < 60:
        return "under a minute"
    if seconds < 3600:
        return f"{seconds / 60:.0f} min"
    if seconds < 48 * 3600:
        return f"{seconds / 3600:.1f} h"
    return f"{seconds / 86400:.1f} days"


def pace_line(pace: Pace) -> str:
    """How fast the player answers and how many deadlines they let pass, on this server."""
    answer = (texts.PACE_NO_ANSWER if pace.median_seconds is None else
              texts.PACE_ANSWER.format(time=duration_text(pace.median_seconds), count=counted(pace.answers, "answer")))
    share = pace.missed_share
    missed = (texts.PACE_NO_DEADLINE if share is None else
              texts.PACE_MISSED.format(missed=pace.missed, owed=pace.owed, share=f"{share:.0%}"))
    return texts.PACE_LINE.format(answer=answer, missed=missed)


def stats_text(name: str, stats: list[GameStats], pace: Pace | None = None,
               shared: list[SharedSeat] | None = None) -> str:
    """The player's games on this server, (``pace``) how fast they answer there, and (``shared``)
    the seats they played only in part (a seat that changed hands)."""
    who = plain_name(name)
    timed = pace is not None and (pace.answers or pace.owed)
    tail = [pace_line(pace)] if pace is not None and timed else []
    parts = [texts.SHARED_SEAT.format(match_id=seat.match_id, title=title_of(seat.game),
                                      seat=seat_stretches_line(seat.seat, seat.stretches))
             for seat in shared or []]
    if not stats and not parts:
        return "\n".join([texts.NO_FINISHED_YET.format(who=who), *tail])
    lines = [stats_line(s) for s in stats] or [f"{who} has no finished match of their own on this server yet."]
    if parts:
        lines += [texts.SHARED_SEATS, *parts]
    return _page(f"**{who}** on this server:", [*tail, *lines], "... and {left} more lines.")


def leaderboard_lines(game: str, standings: list[Standing]) -> list[str]:
    cooperative = _cooperative(game)
    lines = []
    for standing in standings:
        record = texts.LEADERBOARD_RECORD.format(wins=counted(standing.wins, "win"), games=counted(standing.games, "game"))
        rating = "" if cooperative or not standing.rated else f" · rating {rating_points(standing.rating)}"
        unrated = "" if cooperative or standing.rated else " · not rated yet"
        lines.append(f"{standing.place}. {plain_name(seat_name(standing.name))}{rating}{unrated} · {record}")
    return lines


def leaderboard_text(boards: dict[str, list[Standing]], game: str | None) -> str:
    """One game's board, or (no game asked) every game played on this server."""
    boards = {key: rows for key, rows in boards.items() if rows}
    if not boards:
        if game is not None:
            return f"Nobody has finished a {title_of(game)} match on this server yet."
        return "Nobody has finished a match on this server yet."
    lines: list[str] = []
    for key, rows in boards.items():
        order = "by wins (cooperative: not rated)" if _cooperative(key) else f"by rating ({RATING_MEANING})"
        lines.append(f"**{title_of(key)}** {order}")
        lines.extend(leaderboard_lines(key, rows))
    return _page("**Leaderboard of this server**", lines, "... ({left} more lines)")


def _cooperative(key: str) -> bool:
    """Whether the game of ``key`` is cooperative; a game this build no longer knows is not."""
    try:
        return is_cooperative(engine.get(key))
    except KeyError:
        return False
