"""When a phase post's new lines go out: at once after a quiet spell, else gathered until the
post's pace allows its next write, then one edit shows them all.

Players of an asynchronous game do not miss seeing a move within the same second; they would
miss a stale or wrong post. So a match's phase posts are written at most once every
``interval`` seconds: lines (``events``/``progress`` notices) that come when the last write of
the match's phase posts is older than that go out at once; lines that come sooner wait until
``interval`` seconds after that write, and every line written meanwhile joins the same edit: a
burst of moves costs one edit, not one a move, and the first move after a pause shows at once.
While delivery is behind (a line first seen more than ``FRESH_SECONDS`` after its commit:
Discord's limits hold the bot's requests back), a line waits the whole ``interval`` from when it
was seen, quiet spell or not: the moves behind it join the same edit, and the requests saved are
what the backlog lacks.
What closes a post (the phase end with its map, a result, anything else posted to the channel
after the lines) never waits: it goes at once and takes the waiting lines with it.

Nothing here is stored. Lines that wait are notices not yet delivered: their marks are written
only once the edit showing them went out (delivery.py), so a restart delivers them again, at
once, into the same post (the post is rebuilt from the delivered notices)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from datetime import datetime

from bot.service import Notice
from bot.service.outbox import GATHERING, PHASE_POST_KINDS, target_of

PHASE_EDIT_SECONDS = 4.0
"""Seconds between two writes of a match's phase posts while lines come. Discord allows 5
messages per 5 s in a channel, and a match's channel also carries its status board (an edit
every 5 s at most) and its posts; one phase edit per 4 s keeps the channel under half its
limit, and in the load benchmark a match's moves come in bursts (the seats of a phase answering
at once, then the AI) that the wait gathers into one edit. Until session 28 every line waited
the whole window from when it was first seen, also after a quiet spell: at a human pace each
move reached the channel 4 s late (the lines' lag p50 4.01 s at 15 s of thought; now 0.01 s)."""
FRESH_SECONDS = 1.0
"""A line first seen within this long of its commit finds delivery keeping up (it goes as the
pace allows); one seen later finds it behind (it gathers a whole window). At 200 matches with
players answering at once the outbox lags ~12 s and every line gathered: going at once after a
quiet spell there cost 0.08 requests an interaction more (2.36 -> 2.44) for lines 12 s late anyway."""
WRITES_KEPT = 4096
"""Matches whose last phase post write is remembered at most; past it the writes older than the
interval are forgotten (a forgotten one only lets the next lines go at once)."""


def standalone(notice: Notice) -> bool:
    """A result, or a notice that changes what the open post told (an undo), is a post of its own."""
    return notice.kind == "result" or bool(notice.payload.get("standalone"))


QUIET_DMS = frozenset({"prompt", "private", "last_to_choose", "reminder", "heads_up"})
"""DMs that tell a seat its own decision or news: what they change on the status board (who has
chosen, the latest line) is nothing the channel waits on. Votes, undo consents and seat changes
are not among them: the board says those at once."""


def quiet(group: list[Notice]) -> bool:
    """Whether the group changes nothing in its match's channel that a player waits on: only
    a seat's own DMs (QUIET_DMS) and lines a phase post gathers (which the post shows). Then the
    status board's change may wait to be gathered with the next (board.py); a phase end, a
    result, a turn, or any other post in the channel edits it at once."""
    return all(notice.kind in QUIET_DMS and notice.user_id is not None
               or notice.kind in GATHERING and notice.user_id is None and not standalone(notice)
               for notice in group)


def groups(batch: list[Notice]) -> list[list[Notice]]:
    """The batch in delivery order, a phase post's notices of one channel together: each joins
    the channel's group still gathering (nothing closed it, nothing else was posted to the
    channel after it), across notices for other targets (DMs), so lines that wait are never
    overtaken by later lines of the same post. A group goes where its first notice was."""
    out: list[list[Notice]] = []
    gathering: dict[int, list[Notice]] = {}
    for notice in batch:
        channel_id = int(notice.channel_id or 0)
        if notice.kind in PHASE_POST_KINDS and not standalone(notice) and notice.user_id is None:
            group = gathering.pop(channel_id, None)
            if group is None:
                group = []
                out.append(group)
            group.append(notice)
            if notice.kind in GATHERING:
                gathering[channel_id] = group
            continue
        kind, target_id = target_of(notice)
        if kind == "channel":
            gathering.pop(target_id, None)
        out.append([notice])
    return out


def may_wait(group: list[Notice], batch: list[Notice]) -> bool:
    """Whether the group only adds lines to a phase post (nothing in the batch closes it or
    follows it in its channel): then it may wait to be gathered with the next lines."""
    last = group[-1]
    if last.kind not in GATHERING or standalone(group[0]) or group[0].user_id is not None:
        return False
    target = target_of(group[0])
    after = [notice for notice in batch if notice.id > last.id]
    return not any(target_of(notice) == target for notice in after)


class PhasePace:
    """The phase posts' waiting lines, per match: when they go out (a timer wakes the match's
    delivery then), and which were put off, so their edit does not bring the turn DMs up to date
    a second time (the run that put them off did)."""

    def __init__(self, interval: float, wake: Callable[[int], None], clock: Callable[[], datetime]) -> None:
        self.interval = interval
        self.wake = wake
        self.clock = clock
        """The service's clock, which stamps the notices' commits (how late a line is seen)."""
        self.first_seen: dict[int, float] = {}
        """Notice id of a group's oldest notice -> when delivery first saw it (the loop's clock)."""
        self.due: dict[int, float] = {}
        """Match -> when its waiting lines go out (the loop's clock): a periodic round starts no worker for it before."""
        self.put_off: dict[int, set[int]] = {}
        """Match -> ids of the notices put off by a run that then brought the turn DMs up to date."""
        self.timers: dict[int, asyncio.TimerHandle] = {}
        self.written: dict[int, float] = {}
        """Match -> when its phase posts were last written (the loop's clock)."""
        self.behind: set[int] = set()
        """Notice ids of groups first seen late (``FRESH_SECONDS``): they gather a whole window."""

    def wait(self, group: list[Notice], batch: list[Notice]) -> float:
        """Seconds the group still waits (0: it goes now): until ``interval`` after the last
        write of the match's phase posts, none after a quiet spell or once its wait ended."""
        if self.interval <= 0 or not may_wait(group, batch):
            return 0.0
        now = asyncio.get_running_loop().time()
        first = group[0]
        if first.id not in self.first_seen:
            self.first_seen[first.id] = now
            if (self.clock() - first.created_at).total_seconds() > FRESH_SECONDS:
                self.behind.add(first.id)
        seen = self.first_seen[first.id]
        if seen == float("-inf"):
            return 0.0  # its wait ended (``_wake``)
        if first.id in self.behind:
            return max(0.0, seen + self.interval - now)
        last = self.written.get(first.match_id)
        return 0.0 if last is None else max(0.0, last + self.interval - now)

    def hold(self, group: list[Notice], seconds: float) -> None:
        """The group waits ``seconds``: its match's delivery is woken then."""
        match_id = group[0].match_id
        self.put_off.setdefault(match_id, set()).update(notice.id for notice in group)
        loop = asyncio.get_running_loop()
        due = loop.time() + seconds
        old = self.timers.get(match_id)
        if old is not None and old.when() <= due:
            self.due[match_id] = old.when()  # woken sooner already (another post's lines)
            return
        if old is not None:
            old.cancel()
        self.due[match_id] = due
        self.timers[match_id] = loop.call_at(due, self._wake, match_id)

    def _wake(self, match_id: int) -> None:
        """The match's window ended: its lines put off go with its next run (a timer may fire a
        little early: the window is over for them all the same)."""
        for notice_id in self.put_off.get(match_id, ()):
            if notice_id in self.first_seen:
                self.first_seen[notice_id] = float("-inf")
        self.timers.pop(match_id, None)
        self.due.pop(match_id, None)
        self.wake(match_id)

    def skips(self, match_id: int) -> bool:
        """Whether a periodic round leaves the match alone: only its waiting lines are left, and
        not yet due (a wake naming the match, or its timer, starts its worker)."""
        return self.due.get(match_id, 0.0) > asyncio.get_running_loop().time()

    def woken(self, match_id: int) -> None:
        """The match has new notices: its worker starts, whatever waits."""
        self.due.pop(match_id, None)

    def went(self, group: list[Notice]) -> int:
        """The group went out: how many of its notices had been put off (their changes are in
        the turn DMs already); forgets them."""
        match_id = group[0].match_id
        if group[0].kind in PHASE_POST_KINDS and group[0].user_id is None:
            self._wrote(match_id)
        waited = self.put_off.get(match_id, set())
        before = len(waited)
        waited.difference_update(notice.id for notice in group)
        for notice in group:
            self.first_seen.pop(notice.id, None)
            self.behind.discard(notice.id)
        if not waited:
            self.put_off.pop(match_id, None)
        return before - len(waited)

    def _wrote(self, match_id: int) -> None:
        """The match's phase post was written now: its next lines wait for the pace."""
        now = asyncio.get_running_loop().time()
        self.written[match_id] = now
        if len(self.written) > WRITES_KEPT:
            self.written = {match: at for match, at in self.written.items() if at + self.interval > now}

    def stop(self) -> None:
        for timer in self.timers.values():
            timer.cancel()
        self.timers.clear()
        self.due.clear()
