"""The reply to a choice made in a DM: the clicked message edited into what the match now says
of it (turn_dm.py), written holding the seat's turn and its fence (seat_turns.py), as delivery
writes the same DMs from whichever process holds its lease.

The fence orders the two only while it is held: PostgreSQL ends a fence's transaction left idle
10 s (a paused process must not hold it longer), and a writer waits for one at most FENCE_WAIT.
A reply that learns afterwards that its fence was not held throughout (``FenceHold.kept``) may
have written over what delivery wrote meanwhile, perhaps the final form of the decision it
answered after the next one went out: it writes the clicked message again, from a read made
now under the fence, so the last write never shows live components of a closed decision."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord

from bot.discord import ack_window, prompt_dms, table_links, texts, turn_dm
from bot.discord.mentions import NOBODY
from bot.discord.prompt_ui import changed_view, option_label
from bot.discord.replies import clip

if TYPE_CHECKING:
    from bot.discord.wiring import Wiring
    from bot.naming import ShownPrompt
    from bot.service.turn_views import SeatTurn

WRITES = 3
"""Times a reply is written at most (the first, then again while its fence was lost)."""
OLDER_DMS = 8
"""Turn DMs of the seat looked back through for the clicked one, once newer ones went out."""


@dataclass(frozen=True)
class Answered:
    """The choice a reply answers: the decision (its prompt version, as shown), what was chosen,
    and the private lines that came with it."""

    match_id: int
    seat: int
    version: int
    prompt: ShownPrompt
    choice: dict[str, Any]
    notes: list[str]


def answered_form(answer: Answered, still_open: bool = True) -> tuple[str, discord.ui.View]:
    """The reply's own text when the clicked message is not the seat's turn DM: the choice made;
    a sealed one with [Change] while its decision is open."""
    label = option_label(answer.prompt, answer.choice)
    if answer.prompt.secret and still_open:
        content = texts.SEALED_CHOICE.format(text=answer.prompt.text, label=label)
        if answer.notes:
            content = clip("\n".join([content, *(discord.utils.escape_mentions(line) for line in answer.notes)]))
        return content, changed_view(answer.match_id, answer.seat, answer.version)
    return texts.DONE_CHOICE.format(text=answer.prompt.text[:1800], label=label.rstrip(".")), discord.ui.View()


async def reply_in_dm(wiring: Wiring, interaction: discord.Interaction, answer: Answered) -> None:
    """Edit the clicked DM into what the match says of it now, holding the seat's fence; again,
    from a new read, while the fence was not held throughout the read and the write."""
    again = False
    for _ in range(WRITES):
        async with wiring.service.seat_fence(answer.match_id, answer.seat) as hold:
            await _write(wiring, interaction, answer, again)
        if hold.kept:
            return
        again = True


async def next_decision_in_dm(wiring: Wiring, interaction: discord.Interaction, match_id: int, seat: int,
                              version: int) -> bool:
    """The click led to the seat's next decision, which its delivery writes into this same DM
    (edited in place): show it in the click's own answer instead, rendered as delivery renders
    it (prompt_dms.next_form) from the prompt notice the click's transaction wrote, holding the
    seat's fence. Delivery then finds the DM showing it and sends nothing more. False (nothing
    written) when that is not so plain: the notice no longer waits for delivery (or its
    player's DMs are blocked), it carries a drawing, it is not the seat's newest or not in
    place in the clicked DM. One read (``next_decision``): the notice and the turn before it."""
    message = interaction.message
    if message is None:
        return False
    async with wiring.service.seat_fence(match_id, seat) as hold:
        found = await wiring.service.next_decision(match_id, seat, version)
        if found is None or not found.payload.get("in_place"):
            return False
        previous = found.previous
        if (previous.subject is None or previous.subject.dm != message.id
                or previous.newer_prompt(found.notice_id)):
            return False
        form = prompt_dms.next_form(previous, found.notice_id, found.payload)
        if form is None:
            return False
        turn, head, rendered = form
        if turn_dm.asked(turn).secret and found.payload.get("view"):
            return False  # it shows the seat's private map, which delivery draws
        content = table_links.with_seat_link(wiring.messenger, rendered.content, match_id, seat, interaction.user.id)
        await ack_window.update(interaction, content=content, view=rendered.view, allowed_mentions=NOBODY)
        turn_dm.remember(wiring.seat_turns.shown, message.id, rendered, head, [])
    if not hold.kept:  # another process may have written it meanwhile: delivery writes it in full
        wiring.seat_turns.shown.pop(message.id, None)
    return True


async def _write(wiring: Wiring, interaction: discord.Interaction, answer: Answered, again: bool) -> None:
    """One write of the reply. Nothing is written once the seat has a newer decision than the
    one answered (delivery writes it and closes this DM), unless this is written ``again``: a
    write made without the fence may have covered delivery's, so the clicked DM takes the form
    the match gives it now (the newest decision when delivery turned it into that, else its
    final form, without components)."""
    turn = await wiring.service.seat_turn(answer.match_id, answer.seat)
    moved = turn is not None and turn.version not in (None, answer.version)
    if moved and not again:
        return
    message = interaction.message
    about = None if turn is None else await _about_clicked(wiring, turn, None if message is None else message.id, moved)
    if about is None:
        content, view = answered_form(answer, still_open=not moved)
        content = table_links.with_seat_link(wiring.messenger, content, answer.match_id, answer.seat,
                                             interaction.user.id)
        await ack_window.update(interaction, content=content, view=view, attachments=[])
        return
    clicked, final = about
    assert clicked.subject is not None and clicked.subject.dm is not None
    shown = wiring.seat_turns.shown.get(clicked.subject.dm)
    head = shown.head if shown is not None else []
    rendered = turn_dm.render(clicked, head, answer.notes, final=final)
    content = table_links.with_seat_link(wiring.messenger, rendered.content, answer.match_id, answer.seat,
                                         interaction.user.id)
    await ack_window.update(interaction, content=content, view=rendered.view)
    turn_dm.remember(wiring.seat_turns.shown, clicked.subject.dm, rendered, head, answer.notes)


async def _about_clicked(wiring: Wiring, turn: SeatTurn, message_id: int | None,
                         moved: bool) -> tuple[SeatTurn, bool] | None:
    """The seat's turn about the clicked message, and whether a newer turn DM superseded it
    (then it shows its final form, with the choices made until the newer one opened); None when
    the clicked message is no turn DM of the seat. A modal's answer may come without its message:
    that is the seat's turn DM while the seat's decision has not moved past the one answered."""
    if turn.subject is None or turn.subject.dm is None:
        return None
    if message_id is None:
        return None if moved else (turn, False)
    if turn.subject.dm == message_id:
        return turn, False
    if not moved:
        return None
    later = turn
    for _ in range(OLDER_DMS):
        assert later.subject is not None
        older = await wiring.service.seat_turn(turn.match_id, turn.seat, before_id=later.subject.notice_id)
        if older is None or older.subject is None or older.subject.dm is None:
            return None
        if older.subject.dm == message_id:
            return turn_dm.ended(older, later.subject.version), True
        later = older
    return None
