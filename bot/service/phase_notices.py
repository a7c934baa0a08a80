"""The public story of one transaction, cut at phase ends: players follow a match phase by phase,
so each phase's lines belong to one post (front-ends gather them) and the map comes at its end.

A transaction's public events may close zero, one or several phases. The lines up to its last
phase end become one ``phase`` notice (they close the open post, with the map's view), and the
lines after it become an ``events`` notice that opens (or extends) the next phase's post. The
label of a stretch is the phase it happened in: the phase at the start of the transaction for
the first stretch, the phase at its end for the trailing one.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from bot.service.notices import EventsNotice, PhaseNotice
from bot.service.wording import CHAT
from engine import Event


@dataclass(frozen=True)
class Stretch:
    """Consecutive public lines of one phase, and whether a phase end closes them (``end``: the
    index of that phase end among the transaction's events, -1 for an open stretch)."""

    label: str
    lines: list[str]
    closed: bool
    end: int = -1


def stretches(events: Iterable[Event], write: Callable[[Event], str | None], start_label: str,
              end_label: str) -> list[Stretch]:
    """Cut the public lines at phase ends. ``write`` gives an event's channel line (None: none)."""
    cut: list[tuple[list[str], int]] = [([], -1)]
    for index, event in enumerate(events):
        line = write(event)
        if line is not None:
            cut[-1][0].append(line)
        if event.phase_end:
            cut[-1] = (cut[-1][0], index)
            cut.append(([], -1))
    if not cut[-1][0]:
        cut.pop()
    out: list[Stretch] = []
    for n, (lines, end) in enumerate(cut):
        label = start_label if n == 0 else end_label if n == len(cut) - 1 and end < 0 else ""
        out.append(Stretch(label, lines, end >= 0, end))
    return out


SUMMARY_LINES = 2
"""A phase end this short right after another (a round's score line after its last phase) joins
the post the first one closes; a longer one (an AI's whole war turn) is a post of its own."""


def public_notices(parts: list[Stretch], game: str, names: list[str], view_at: Callable[[int], dict[str, Any]],
                   strong: Callable[[str], str] = CHAT.strong,
                   label_of: Callable[[dict[str, Any]], str] | None = None,
                   start_label: str = "") -> list[tuple[str, PhaseNotice | EventsNotice]]:
    """``phase`` notices closing posts up to the last phase end, each with the map as that phase
    end left it (``view_at(index of the phase end event)``), and an ``events`` notice for the
    lines after it. ``text`` is a stretch as one post, for front-ends that print (headed with
    ``strong``, the front-end's emphasis).

    A stretch's heading is the phase its lines happened in: the transaction's starting phase
    (``start_label``, its raw phase label) for the first, and for each later one the phase the previous phase end led
    into (the view that phase end left, read with ``label_of``). Each map is titled with the
    heading of the post it closes: it shows how that phase ended."""
    heads: list[tuple[str, str]] = []  # per stretch: (heading, the map's raw phase label)
    for n, part in enumerate(parts):
        if n == 0 or label_of is None:  # without label_of a later stretch keeps the heading before it
            raw = start_label
            heading = part.label or (heads[-1][0] if heads else "")
        else:
            source = view_at(parts[n - 1].end)
            raw = str(source.get("phase_label") or "")
            heading = label_of(source) or part.label
        heads.append((heading, raw))
    closings: list[tuple[str, str, list[str], int]] = []
    for n, part in enumerate(parts):
        if not part.closed:
            continue
        if closings and len(part.lines) <= SUMMARY_LINES:
            label, raw, lines, _ = closings[-1]
            closings[-1] = (label, raw, lines + part.lines, part.end)
        else:
            closings.append((*heads[n], list(part.lines), part.end))
    notices: list[tuple[str, PhaseNotice | EventsNotice]] = []
    for label, raw, lines, end in closings:
        view = view_at(end)
        notice = PhaseNotice(label=label, events=lines, text=post_text(label, lines, strong=strong), game=game,
                             view=view, names=names)
        if raw and raw != view.get("phase_label"):
            notice["view"] = {**view, "phase_label": raw}
            notice["frame_label"] = view.get("phase_label")
        notices.append(("phase", notice))
    tail = parts[-1] if parts and not parts[-1].closed else None
    if tail is not None and tail.lines:
        label = heads[-1][0]
        notices.append(("events", EventsNotice(label=label, events=tail.lines,
                                               text=post_text(label, tail.lines, strong=strong))))
    return notices


def post_text(label: str, lines: list[str], limit: int = 1900, strong: Callable[[str], str] = CHAT.strong) -> str:
    """A heading and the lines, the newest kept when it is too long for one message."""
    head = strong(label) if label else ""
    body = list(lines)
    text = "\n".join([head, *body]).strip()
    while len(text) > limit and body:
        body.pop(0)
        text = "\n".join([head, "...", *body]).strip()
    return text[:limit]
