"""What the match channel is spared: a server removes a bot that posts every seal and pings
people whose DMs already told them. The service decides which lines are worth a channel post;
the front-end decides who still needs a mention (only those its DMs could not reach)."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from engine import Event, Prompt

SEAL_EVENT_SUFFIX = "_ready"
"""Public events that only say a seat sealed (or revised) a secret choice ("force_ready",
"energy_ready"): the progress line and the status board carry that, one post per seal does not."""


def channel_lines(events: Iterable[Event]) -> list[Event]:
    """The public events worth a line in the channel (not the per-seal announcements)."""
    return [e for e in events if e.seats is None and not e.kind.endswith(SEAL_EVENT_SUFFIX)]


def progress_line(secret: list[Prompt], seat_names: dict[int, str], newly_sealed: bool,
                  name_text: Callable[[str], str]) -> str | None:
    """One line per secret step, when a fresh seal leaves a single seat to choose: who the
    table waits for. Earlier seals and revisions post nothing."""
    owed = [p for p in secret if not p.answered]
    if not newly_sealed or len(owed) != 1 or len(secret) < 2:
        return None
    done = len(secret) - 1
    return f"{done} of {len(secret)} have chosen; waiting for {name_text(seat_names[owed[0].seat])}."
