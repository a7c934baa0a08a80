"""Engine prompts as Discord components: buttons for a few options, a select menu for
many or for several picks, a modal for number allocations."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import discord

from bot.discord.ids import ModalId, PromptId
from bot.naming import ShownPrompt
from bot.service.wording import CHAT
from engine.contract import NumberField

BUTTONS_MAX = 10
"""More options than this go into a select menu (two rows of buttons read well on phones)."""
QUICK_NUMBERS = 25
"""A numbers prompt with one field of at most this many values is a select (Discord's 25 options)."""
SUGGESTED = "suggested"
"""The description of the suggested value in a quick select (a default would need no click)."""


def timestamp(when: datetime | None) -> str:
    """A Discord timestamp that each reader sees in their own time zone."""
    if when is None:
        return ""
    return f"<t:{int(when.timestamp())}:R>"


def moment(when: datetime | None) -> str:
    """A Discord timestamp with the date and time in each reader's own zone, and how far off it is."""
    return "" if when is None else CHAT.moment(when)


class PlainView(discord.ui.View):
    """Components only: clicks are handled by the bot's interaction router, not here. So
    discord.py is told that nothing in it answers a click (``is_dispatchable``): it keeps no
    such view after sending it (no entry in its view store, no timeout task a message for 60 s,
    no task of its own at each click on one), as it would keep a view whose items have
    callbacks."""

    def __init__(self) -> None:
        super().__init__(timeout=60)

    def is_dispatchable(self) -> bool:
        return False


def prompt_view(match_id: int, seat: int, version: int, prompt: ShownPrompt) -> PlainView:
    view = PlainView()
    options = prompt.options

    def pid(op: str, value: str | None = None) -> str:
        return PromptId(match_id, seat, version, op, value).encode()

    if prompt.input == "choose" and len(options) <= BUTTONS_MAX:
        for i, option in enumerate(options):
            view.add_item(
                discord.ui.Button(
                    label=option.label[:80],
                    custom_id=pid("o", option.value),
                    style=discord.ButtonStyle.primary if i == 0 else discord.ButtonStyle.secondary,
                    row=i // 5,
                )
            )
    elif prompt.input in ("choose", "multi"):
        multi = prompt.input == "multi"
        view.add_item(
            discord.ui.Select(
                custom_id=pid("m" if multi else "o"),
                placeholder=(prompt.text or "Choose")[:150],
                min_values=max(0, prompt.min_picks) if multi else 1,
                max_values=min(len(options), max(1, prompt.max_picks)) if multi else 1,
                options=[
                    discord.SelectOption(label=option.label[:100], value=option.value,
                                         description=option.description[:100] or None)
                    for option in options[:25]
                ],
            )
        )
    elif prompt.input == "numbers" and (field := quick_field(prompt)) is not None:
        suggested = prompt.default.get(field.name)
        view.add_item(
            discord.ui.Select(
                custom_id=pid("q"),
                placeholder=f"{field.label} ({field.min}-{field.max})"[:150],
                options=[
                    discord.SelectOption(label=str(n), value=str(n),
                                         description=SUGGESTED if n == suggested else None)
                    for n in range(field.min, field.max + 1)
                ],
            )
        )
    elif prompt.input == "numbers":
        # no field to fill (a garrison with nothing that may go): the click answers at once, no form
        label = "Enter numbers" if prompt.fields else NOTHING_TO_ENTER
        view.add_item(discord.ui.Button(label=label, custom_id=pid("n"), style=discord.ButtonStyle.primary))
    return view


NOTHING_TO_ENTER = "Confirm (nothing to enter)"
"""The button of a numbers prompt with no field: Discord refuses a form without an input."""


def quick_field(prompt: ShownPrompt) -> NumberField | None:
    """The one field of a numbers prompt small enough to pick from a select (one click, no form)."""
    if len(prompt.fields) != 1:
        return None
    field = prompt.fields[0]
    return field if field.max - field.min + 1 <= QUICK_NUMBERS else None


def changed_view(match_id: int, seat: int, version: int) -> PlainView:
    view = PlainView()
    view.add_item(
        discord.ui.Button(
            label="Change", custom_id=PromptId(match_id, seat, version, "c").encode(),
            style=discord.ButtonStyle.secondary,
        )
    )
    return view


class NumbersModal(discord.ui.Modal):
    """The modal for a `numbers` prompt; its submit is routed by custom_id like a click."""

    def __init__(self, match_id: int, seat: int, version: int, prompt: ShownPrompt) -> None:
        title = (prompt.text or "Your numbers")[:45]
        super().__init__(title=title, custom_id=ModalId(match_id, seat, version).encode(), timeout=900)
        for field in prompt.fields[:5]:
            label = f"{field.label} ({field.min}-{field.max})"[:45]
            text_input: discord.ui.TextInput[NumbersModal] = discord.ui.TextInput(
                custom_id=field.name,
                default=str(prompt.default.get(field.name, field.min)),
                max_length=6,
                required=True,
            )
            self.add_item(discord.ui.Label(text=label, component=text_input))


def option_label(prompt: ShownPrompt, choice: dict[str, Any]) -> str:
    """How a submitted choice reads back to its player."""
    for option in prompt.options:
        if option.choice == choice:
            return option.label
    if prompt.input == "multi":
        picked = set(choice.get(prompt.field, []))
        labels = [option.label for option in prompt.options if option.value in picked]
        return ", ".join(labels) if labels else "nothing"
    if prompt.input == "numbers":
        names = {field.name: field.label for field in prompt.fields}
        return ", ".join(f"{names.get(name, name)} {value}" for name, value in choice.items())
    return ", ".join(f"{name} {value}" for name, value in choice.items())


def prompt_text(prompt: ShownPrompt, deadline: datetime | None, header: str = "") -> str:
    lines = [header] if header else []
    secret = " (secret: only you see this until everyone has chosen)" if prompt.secret else ""
    lines.append(f"**{prompt.text}**{secret}")
    if prompt.input == "choose" and len(prompt.options) <= BUTTONS_MAX:
        # Buttons cannot carry a description (a select shows it under each option): list them.
        lines += [f"- {option.label}: {option.description}" for option in prompt.options if option.description]
    if prompt.input == "numbers":
        for field in prompt.fields:
            lines.append(f"- {field.label}: {field.min} to {field.max}")
    if prompt.shared:
        lines.append("*Shared: your teammates have this choice too; the first answer counts for everyone "
                     "(first come, first served).*")
    if prompt.optional:
        lines.append("*Optional: the game goes on without you; nobody waits for this choice.*")
    elif deadline is not None:
        who = "nobody has" if prompt.shared else "you have not"
        lines.append(f"Deadline {timestamp(deadline)}; if {who} chosen by then, the AI chooses for you.")
    return "\n".join(lines)[:2000]
