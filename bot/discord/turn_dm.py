"""A seat's turn DM as a view of the match: rendered from ``SeatTurn`` (bot/service/turn_views.py)
and written only when what it should show changed.

The DM asks for a decision only while the seat still owes it: its live form is the open prompt
(with "the table waits for you" when it is the last to choose a sealed step) or its sealed
choice with [Change]. Once its purpose has ended (the seat chose and the step went on, the AI
chose for it, the match ended or was aborted, the game moved on) its final form says what was
chosen, by whom, and how the step ended, with no components. Whoever writes it (delivery, or
the reply to the seat's own click) renders it the same way while holding the seat's turn
(seat_turns.py), from a read made under that hold: a later write never shows an older match."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, replace

import discord

from bot.discord.mentions import plain_names
from bot.discord.prompt_ui import changed_view, option_label, prompt_text, prompt_view
from bot.discord.seat_turns import Shown
from bot.naming import ShownPrompt, named_prompt, shown_prompt
from bot.service.announce import LAST_TO_CHOOSE
from bot.service.turn_views import SeatTurn, TurnChoice

SEALED = "Your choice for **{text}**: {label}.\nIt stays sealed until everyone has chosen; you can change it until then."
CHOSE = "You chose: **{label}**."
AI_CHOSE_LATE = "Time was up: the AI chose **{label}** for you."
AI_CHOSE = "The AI chose **{label}** for you (it plays your seat until you are back)."
REVEALED = "Everyone has chosen: the sealed choices were revealed."
SEAL_STANDS = "Your sealed choice stands; the AI plays your seat until you are back."
NOT_CHOSEN = {
    "finished": "The match ended before you chose.",
    "aborted": "The match was aborted before you chose.",
}
TEAMMATE_FIRST = "A teammate answered it first."
LET_PASS = "You let it pass."
MOVED_ON = "The game moved on before you chose: this decision is closed."
MATCH_OVER = {"finished": "The match is over.", "aborted": "The match was aborted."}
REMINDER_CLOSED = "Reminder about **{title}**: {outcome}"
ASKED = "asked"
"""Where a subject keeps its prompt parsed (``TurnSubject.parsed``); its named forms are kept by
(plain, *names)."""


@dataclass(frozen=True)
class Rendered:
    """What the DM should show: its text, its components (None: none) and whether it still asks."""

    content: str
    view: discord.ui.View | None
    live: bool

    @property
    def digest(self) -> str:
        """What the message shows, in a few bytes: equal digests need no edit."""
        components = [] if self.view is None else self.view.to_components()
        seen = json.dumps([self.content, components], sort_keys=True, default=str)
        return hashlib.sha256(seen.encode()).hexdigest()[:24]


def inert(text: str) -> str:
    return discord.utils.escape_mentions(text)


def clip(text: str, limit: int = 2000) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def asked(turn: SeatTurn) -> ShownPrompt:
    """The subject's prompt as its notice stored it, parsed (a prompt notice always has one)."""
    assert turn.subject is not None
    parsed = turn.subject.parsed
    found = parsed.get(ASKED)
    if found is None:
        found = parsed[ASKED] = shown_prompt(turn.subject.payload["prompt"])
    return found


def subject_prompt(turn: SeatTurn, plain: bool = True) -> ShownPrompt:
    """The subject's prompt with the players' names in it (as text, or as labels for components)."""
    assert turn.subject is not None
    parsed = turn.subject.parsed
    key = (plain, *turn.names)
    found = parsed.get(key)
    if found is None:
        found = parsed[key] = named_prompt(asked(turn), plain_names(turn.names) if plain else turn.names)
    return found


def its_choice(turn: SeatTurn, until: int | None = None) -> TurnChoice | None:
    """The seat's last answer to the subject's prompt (up to log position ``until``)."""
    kind = asked(turn).kind
    mine = [c for c in turn.choices if c.kind == kind and (until is None or c.seq <= until)]
    return mine[-1] if mine else None


def outcome(turn: SeatTurn, until: int | None = None) -> list[str]:
    """How the subject's decision ended: what was chosen and by whom, and how its step ended."""
    assert turn.subject is not None
    prompt = subject_prompt(turn)
    choice = its_choice(turn, until)
    if choice is None:
        payload = turn.subject.payload
        if turn.status in NOT_CHOSEN:
            return [NOT_CHOSEN[turn.status]]
        if payload.get("shared"):
            return [TEAMMATE_FIRST]
        if payload.get("optional"):
            return [LET_PASS]
        return [MOVED_ON]
    label = inert(option_label(prompt, choice.choice)).rstrip(".")
    text = {"player": CHOSE, "deadline": AI_CHOSE_LATE}.get(choice.by, AI_CHOSE).format(label=label)
    lines = [text]
    if prompt.secret and turn.status in ("active", "paused") and turn.version == turn.subject.version:
        lines.append(SEAL_STANDS)  # the AI took the seat over while its choice was sealed
    elif prompt.secret and turn.status != "aborted":
        lines.append(REVEALED)
    if until is None and turn.status in MATCH_OVER:
        lines.append(MATCH_OVER[turn.status])
    return lines


def render(turn: SeatTurn, head: list[str] | None = None, notes: list[str] | None = None,
           final: bool = False) -> Rendered:
    """The DM of the turn's subject as the match stands: ``head``, lines written above its prompt
    (what led to it); ``notes``, lines only this seat reads that came with its answer; ``final``,
    its final form even if its prompt is still open (a newer DM asks it now, as after an undo)."""
    assert turn.subject is not None
    if final and turn.live:
        turn = replace(turn, version=None)
    head, notes = list(head or []), [inert(line) for line in notes or []]
    if head:
        head.append("")  # what led here, then this decision
    written = subject_prompt(turn)
    where = f"**{inert(turn.title)}** in <#{turn.channel_id}>"
    if turn.live and turn.answered and turn.secret:
        choice = its_choice(turn)
        label = inert(option_label(written, choice.choice)) if choice is not None else "?"
        lines = [*head, where, SEALED.format(text=written.text, label=label.rstrip(".")), *notes]
        assert turn.version is not None
        return Rendered(clip("\n".join(lines)), changed_view(turn.match_id, turn.seat, turn.version), True)
    if turn.live:
        assert turn.version is not None
        lines = [*head, *([f"**{LAST_TO_CHOOSE}**"] if turn.waits_alone else [])]
        passed = its_choice(turn) if turn.answered else None
        if passed is not None:  # an optional decision passed on stays open: it says what was chosen
            lines.append(CHOSE.format(label=inert(option_label(written, passed.choice)).rstrip(".")))
        lines.append(prompt_text(written, turn.deadline, where))
        view = prompt_view(turn.match_id, turn.seat, turn.version, subject_prompt(turn, plain=False))
        return Rendered(clip("\n".join(lines)), view, True)
    lines = [*head, where, f"**{written.text}**", *outcome(turn), *notes]
    return Rendered(clip("\n".join(lines)), None, False)


def ended(previous: SeatTurn, until: int | None) -> SeatTurn:
    """A turn DM's turn as it ended when a newer one superseded it: the choices up to log
    position ``until`` (the newer one's prompt version) only."""
    return replace(previous, choices=[c for c in previous.choices if until is None or c.seq <= until])


def as_delivered(turn: SeatTurn) -> Rendered:
    """What a turn DM still asking shows when this process did not write it: its prompt as
    delivered, without the "table waits for you" line (a final one is rendered anew)."""
    if not turn.live:
        return Rendered("", None, True)
    return render(replace(turn, waits_alone=False))


def reminder_text(turn: SeatTurn) -> str | None:
    """What a reminder DM of a turn that ended without the player's own answer says now (the
    player's answer takes it back itself: nudges.answered); None when it is not to change."""
    if turn.live or turn.subject is None:
        return None
    choice = its_choice(turn)
    if choice is not None and choice.by == "player":
        return None
    said = outcome(turn)[0]
    return REMINDER_CLOSED.format(title=inert(turn.title), outcome=said[:1].lower() + said[1:])


def remember(shown: dict[int, Shown], message_id: int, rendered: Rendered, head: list[str],
             notes: list[str]) -> None:
    shown[message_id] = Shown(head=head, notes=notes, digest=rendered.digest, final=not rendered.live)
