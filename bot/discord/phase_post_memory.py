"""The open phase post of each match as this process left it, so the next group of phase-post
notices needs no read of the outbox to find it (``open_phase_post``).

While a process holds the delivery lease it is the only writer of phase posts, so after it
delivered a group it knows what ``open_phase_post`` would answer for the notices after that
group. What it knows is used only when nothing else can have changed that answer:

- the lease term is the one it was learned in (a lease lost, or lost and taken again, forgets);
- the group comes after the newest phase-post notice this process tried to send for the match
  (a group sent out of order, dropped, parked or sent again reads the database);
- the group goes to the same channel;
- the post it knows was reached by a plain post or edit (a standalone notice, a post made again
  after a refusal, a probe of a blocked target, or a post too long to rebuild forget it).

A restarted process knows nothing and reads. When unsure, the delivery reads.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from bot.service.outbox import GATHERING, PHASE_POST_SCAN, Fence, post_lines
from bot.service.types import Notice, OpenPost


@dataclass
class _Known:
    fence: Fence | None
    newest: int = 0
    """The newest phase-post notice of the match this process tried to send in this term."""
    upto: int = 0
    """The notice after which ``post`` is what the outbox names (0: nothing is known)."""
    channel_id: int = 0
    post: OpenPost | None = None
    """The open post; None: the newest phase-post notice closed its post."""


@dataclass(frozen=True)
class Before:
    """What the delivery found open before a group: ``post``, and whether it came from memory."""

    post: OpenPost | None
    remembered: bool


class PostMemory:
    """Match -> its open phase post as this process's last phase-post delivery left it."""

    def __init__(self, fence: Callable[[], Fence | None]) -> None:
        self.fence = fence
        self.matches: dict[int, _Known] = {}

    def forget(self, match_id: int) -> None:
        """Something may have changed the match's phase posts outside a plain delivery (a probe)."""
        self.matches.pop(match_id, None)

    def sending(self, group: list[Notice]) -> Before | None:
        """A group is about to be sent: the open post before it when known (None: read it).
        The group becomes the newest this process tried, whatever comes of it."""
        first, last = group[0], group[-1]
        fence = self.fence()
        known = self.matches.get(first.match_id)
        if known is None or known.fence != fence:
            known = self.matches[first.match_id] = _Known(fence)
        usable = (known.upto > 0 and known.upto == known.newest and first.id > known.upto
                  and known.channel_id == int(first.channel_id or 0))
        before = Before(known.post, remembered=True) if usable else None
        known.newest = max(known.newest, last.id)
        known.upto = 0
        return before

    def sent(self, group: list[Notice], ref: str, before: Before | None, plain: bool) -> None:
        """The group went out to message ``ref`` (``plain``: posted or edited as the open post,
        not standalone nor posted again after a refusal): remember what the outbox names now."""
        first, last = group[0], group[-1]
        known = self.matches.get(first.match_id)
        if known is None or known.fence != self.fence() or known.newest != last.id:
            return
        after = _after(group, ref, before) if plain and before is not None else _UNKNOWN
        if after is _UNKNOWN:
            return
        known.upto, known.channel_id = last.id, int(first.channel_id or 0)
        known.post = after if isinstance(after, OpenPost) else None


_UNKNOWN = object()


def _after(group: list[Notice], ref: str, before: Before) -> OpenPost | None | object:
    """What ``open_phase_post`` answers after the group, delivered to ``ref``, from what was open
    before it: the same walk back over the delivered notices, newest first (_UNKNOWN: not sure)."""
    if group[-1].kind not in GATHERING:
        return None  # a phase notice closed the post
    if not ref.isdigit():
        return _UNKNOWN
    tail: list[Notice] = []
    for notice in reversed(group):
        if notice.kind not in GATHERING:
            break
        tail.append(notice)
    tail.reverse()
    lines = [(line, notice.kind == "progress") for notice in tail for line in post_lines(notice.payload)]
    labels = [str(notice.payload.get("label") or "") for notice in tail]
    label = next((x for x in labels if x), "")
    previous, continued = before.post, False
    if len(tail) == len(group):  # the walk goes on past the group, to what was open before it
        if previous is not None and previous.ref == int(ref):
            lines = [(line, n in previous.progress) for n, line in enumerate(previous.lines)] + lines
            label, continued = previous.label or label, previous.continued
        elif previous is not None:
            continued = True  # the phase filled the post before this one
        elif not before.remembered:
            return _UNKNOWN  # the read does not say what came before (closed, or nothing)
    if len(lines) >= PHASE_POST_SCAN:
        return _UNKNOWN  # past what the read rebuilds
    return OpenPost(ref=int(ref), label=label, lines=[line for line, _ in lines], continued=continued,
                    progress=[n for n, (_, waiting) in enumerate(lines) if waiting])
