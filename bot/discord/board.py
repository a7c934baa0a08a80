"""The status board: one message per match, edited in place, pinned where the bot may.

It is a plain message (content and a row of buttons), not Components V2: the same text is the
ephemeral `/game status` answer, it reads well in notifications and search, and an edit that
only changes content is the cheapest request there is. Edits are coalesced: at most one per
match every EDIT_INTERVAL seconds (the ``board_edit_seconds`` setting), each showing the state
when it is made (the last wins)."""

from __future__ import annotations

import contextlib
import hashlib
import logging
from typing import TYPE_CHECKING

import discord

from bot.discord import refused, table_links, texts, threads
from bot.discord.error_codes import ARCHIVED_THREAD, UNKNOWN_MESSAGE
from bot.discord.ids import BoardId
from bot.discord.mentions import NOBODY, ROUTINE, plain_name, plain_names
from bot.discord.paced import PacedRefresh
from bot.discord.permissions import PIN_MESSAGES, SEND_MESSAGES, SEND_MESSAGES_IN_THREADS, VIEW_CHANNEL
from bot.discord.prompt_ui import PlainView, moment, timestamp
from bot.discord.refusals import final_code
from engine.text import fill

if TYPE_CHECKING:
    from bot.discord.wiring import Host, Messenger
    from bot.service import MatchInfo, MatchService, Status
    from bot.service.types import SeatInfo

log = logging.getLogger(__name__)

EDIT_INTERVAL = 5.0
"""Seconds between two edits of one board. Discord allows 5 messages per 5 s in a channel, which
the board shares with the phase post (an edit per 4 s at most, phase_pace.py) and the posts. A
board a few seconds behind is still true to a table that plays asynchronously, and most moves
change a seat's line: at 2 s the load benchmark edited a board on 0.7 of its interactions, at
5 s on 0.4 (docs/benchmarks.md, session 14)."""
QUIET_WAIT = 30.0
"""Seconds the board's changes that only DMs and a phase post's lines told (its latest line, who
has chosen) may wait, gathered into one edit; a phase end, a turn, a result or any other post in
the channel edits it at once (at EDIT_INTERVAL). At a human pace each move changes the board's
latest line, which the phase post below it shows within phase_edit_seconds: edited for each
move, the board cost as many edits as the phase post (docs/benchmarks.md, session 21)."""
NONCE_LENGTH = 25


def seat_state(seat: SeatInfo, status: Status) -> str:
    """A seat's line on the board: what the table waits for at a glance. In a phase played in
    turns, a seat with nothing to do is waiting for its turn, not done."""
    info, standing = status.match, status.standing
    on_turn = standing.turn == seat.seat and info.status in ("active", "paused")
    if seat.open_since is not None and info.status in ("active", "paused"):
        return texts.SEAT_OPEN_STATE
    if seat.ai_policy is not None:
        return texts.SEAT_AI_ON_TURN if on_turn else texts.SEAT_AI
    if seat.away_until is not None and info.status in ("active", "paused"):
        meanwhile = texts.SEAT_AWAY_AI_PLAYS if info.away_mode == "ai" else texts.SEAT_AWAY_DEADLINES_WAIT
        return texts.SEAT_AWAY_UNTIL.format(until=timestamp(seat.away_until), meanwhile=meanwhile)
    if seat.ai_takeover:
        return texts.SEAT_TAKEN_OVER
    if info.status not in ("active", "paused"):
        return texts.SEAT_PLAYED
    if any(owing.seat == seat.seat for owing in status.waiting):
        return texts.SEAT_ON_TURN if on_turn else texts.SEAT_OWES
    if any(optional.seat == seat.seat for optional in status.may_act):
        return texts.SEAT_MAY_ACT
    if any(sealed.seat == seat.seat for sealed in status.chosen):
        return texts.SEAT_CHOSEN
    return texts.SEAT_WAITS_TURN if standing.turn is not None else texts.SEAT_WAITS


def board_text(status: Status, latest: str | None, unreminded: frozenset[int] = frozenset()) -> str:
    """Game, round and phase, the deadline, the turn order, every seat with its score, the
    table's score and the latest result line. A seat whose player turned reminders off
    (``unreminded``, seat numbers) says so while it owes: the table knows no reminder will come."""
    info, standing = status.match, status.standing
    names = plain_names(info.names())
    lines = [texts.BOARD_HEAD.format(title=plain_name(info.title), match_id=info.id, phase=fill(status.phase, names))]
    if info.status == "paused" and info.paused_until is not None:
        lines.append(texts.BOARD_PAUSED_UNTIL.format(until=moment(info.paused_until)))
    elif info.status == "paused":
        lines.append(texts.BOARD_PAUSED)
    elif status.deadline is not None and info.status == "active":
        lines.append(texts.BOARD_DEADLINE.format(deadline=moment(status.deadline)))
    if standing.order and info.status in ("active", "paused"):
        order = [names[seat] for seat in standing.order if 0 <= seat < len(names)]
        lines.append(texts.BOARD_ORDER.format(order=", ".join(order)))
    for seat in sorted(info.seats, key=lambda one: one.seat):
        host = texts.BOARD_HOST if seat.user_id is not None and seat.user_id == info.host_id else ""
        score = standing.scores.get(seat.seat)
        shown = texts.BOARD_SCORE.format(score=score, name=standing.score_name) if score is not None else ""
        state = seat_state(seat, status)
        if seat.seat in unreminded and state in (texts.SEAT_ON_TURN, texts.SEAT_OWES):
            state += texts.SEAT_NO_REMINDERS
        lines.append(texts.BOARD_SEAT.format(name=plain_name(seat.name), host=host, state=state, score=shown))
    if standing.team_score:
        lines.append(texts.BOARD_TEAM_SCORE.format(score=discord.utils.escape_mentions(standing.team_score)))
    if latest:
        lines.append(texts.BOARD_LATEST.format(line=discord.utils.escape_mentions(latest)[:300]))
    if info.status in ("finished", "aborted"):
        lines.append(texts.BOARD_ENDED.format(status=info.status))
    return "\n".join(lines)[:1900]


def board_view(match_id: int, status: str, table: discord.ui.Button[discord.ui.View] | None = None) -> discord.ui.View:
    """Act, Map and Rules, routed by custom_id (bot/discord/router.py), so they work after a restart,
    and the web table's link button when there is one (``table``)."""
    view = PlainView()
    open_match = status in ("active", "paused")
    for action, label, style in (("act", "Act", discord.ButtonStyle.primary),
                                 ("map", "Map", discord.ButtonStyle.secondary),
                                 ("rules", "Rules", discord.ButtonStyle.secondary)):
        view.add_item(discord.ui.Button(label=label, style=style, custom_id=BoardId(match_id, action).encode(),
                                        disabled=action == "act" and not open_match))
    if table is not None:
        view.add_item(table)
    return view


async def board_of(service: MatchService, match_id: int) -> tuple[str, discord.ui.View, MatchInfo]:
    """The board's text and buttons now, and the match."""
    board = await service.board_of(match_id)
    status = board.status
    unreminded = frozenset([seat.seat for seat in status.waiting if seat.user_id is not None
                            and not (await service.notify_prefs(match_id, seat.user_id)).reminders])
    return board_text(status, board.latest, unreminded), board_view(match_id, status.match.status), status.match


def holds(messenger: Messenger, channel_id: int, flag: int, unknown: bool) -> bool:
    """Whether the bot holds a permission in the channel as discord.py's cache knows it
    (``unknown`` when the cache does not know the channel)."""
    channel = messenger.get_channel(channel_id)
    if not isinstance(channel, discord.abc.GuildChannel | discord.Thread) or channel.guild.me is None:
        return unknown  # unknown to the cache, or a private channel (no guild, no permissions)
    return channel.permissions_for(channel.guild.me).value & flag == flag


def may_pin(messenger: Messenger, channel_id: int) -> bool:
    """A bot without Pin Messages leaves the board unpinned rather than ask and be refused."""
    return holds(messenger, channel_id, PIN_MESSAGES, unknown=False)


def may_post(messenger: Messenger, channel_id: int) -> bool:
    """A board post refused for a missing permission would be a second refusal beside the
    outbox's (which parks the channel); the board waits for the permission instead."""
    send = SEND_MESSAGES_IN_THREADS if isinstance(messenger.get_channel(channel_id), discord.Thread) else SEND_MESSAGES
    return holds(messenger, channel_id, send | VIEW_CHANNEL, unknown=True)


class Boards(PacedRefresh):
    """Keeps every running match's board current, at most one edit per EDIT_INTERVAL per match."""

    interval = EDIT_INTERVAL
    subject = "the status board"

    def __init__(self, host: Host) -> None:
        super().__init__()
        self.host = host
        settings = getattr(host, "settings", None)
        self.interval = float(getattr(settings, "board_edit_seconds", EDIT_INTERVAL))
        self.quiet = float(getattr(settings, "board_wait_seconds", QUIET_WAIT))
        """Seconds a change nothing waits on may wait for the board's next edit (``touch``'s ``within``)."""
        self.shown: dict[int, tuple[int, str, str]] = {}
        """Match -> (board message, text, status) as last posted or edited: an unchanged board is
        not edited again."""

    async def refresh(self, match_id: int) -> None:
        """Edit the board, or post (and try to pin) it the first time or after it was deleted."""
        board = await self.host.svc.board_of(match_id)
        status, info = board.status, board.status.match
        if info.status == "lobby":
            return
        if any(b.kind == "channel" and b.target_id == info.channel_id for b in status.blocked):
            return  # the channel refuses posts for now; delivery's probe finds when it works again
        if not may_post(self.host, info.channel_id):
            return
        text = board_text(status, board.latest)
        view = board_view(match_id, info.status, table_links.table_button(self.host, match_id))
        channel = self.host.get_partial_messageable(info.channel_id)
        ref = board.message_id
        if ref is not None:
            if self.shown.get(match_id) == (ref, text, info.status):
                self._showed(match_id, info.version)
                return  # the board already shows this: its buttons follow the status alone
            try:
                await self._edit(channel, ref, text, view, reopen=info.status in ("active", "paused"))
                self.shown[match_id] = (ref, text, info.status)
                self._showed(match_id, info.version)
                return
            except discord.HTTPException as exc:
                if exc.code != UNKNOWN_MESSAGE and not refused.is_refusal(exc) or final_code(exc) is not None:
                    raise
                if exc.code != UNKNOWN_MESSAGE:  # e.g. 30046, edits of an hour-old message capped: a new board
                    log.info("Discord refused the edit of the status board of match %s (%s); posting it again",
                             match_id, exc)
        # The nonce makes a retried post (a response lost to a 5xx) return the same message.
        nonce = hashlib.sha256(f"warhost:{match_id}:board:{ref}".encode()).hexdigest()[:NONCE_LENGTH]
        msg = await channel.send(text, view=view, allowed_mentions=NOBODY, nonce=nonce, silent=ROUTINE)
        await self.host.svc.set_board_message(match_id, msg.id)
        self.shown[match_id] = (msg.id, text, info.status)
        self._showed(match_id, info.version)
        if may_pin(self.host, info.channel_id):
            with contextlib.suppress(discord.HTTPException):  # lost the permission meanwhile: unpinned
                await msg.pin(reason="warhost status board")

    def _showed(self, match_id: int, version: int) -> None:
        self.read_version[match_id] = max(version, self.read_version.get(match_id, -1))

    async def _edit(self, channel: discord.PartialMessageable, ref: int, text: str, view: discord.ui.View, reopen: bool) -> None:
        """Edit the board; in a running match's thread that auto-archived meanwhile, reopen it
        first (Discord refuses edits in an archived thread, though a post would reopen it). An
        ended match's archived thread stays archived."""
        message = channel.get_partial_message(ref)
        try:
            await message.edit(content=text, view=view, allowed_mentions=NOBODY)
        except discord.HTTPException as exc:
            if not reopen or exc.code != ARCHIVED_THREAD or not await threads.reopen(self.host, channel.id):
                raise
            await message.edit(content=text, view=view, allowed_mentions=NOBODY)
