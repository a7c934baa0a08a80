"""Engine prompts as Discord components: buttons for a few options, a select menu for
many or for several picks, a modal for number allocations."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import discord

from bot.discord.ids import ModalId, PromptId
from bot.service.wording import CHAT

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
    """Components only: clicks are handled by the bot's interaction router, not here."""

    def __init__(self) -> None:
        super().__init__(timeout=60)


def prompt_view(match_id: int, seat: int, version: int, prompt: dict[str, Any]) -> PlainView:
    view = PlainView()
    kind = prompt.get("input", "choose")
    options = prompt.get("options") or []

    def pid(op: str, value: str | None = None) -> str:
        return PromptId(match_id, seat, version, op, value).encode()

    if kind == "choose" and len(options) <= BUTTONS_MAX:
        for i, opt in enumerate(options):
            view.add_item(
                discord.ui.Button(
                    label=opt["label"][:80],
                    custom_id=pid("o", opt["value"]),
                    style=discord.ButtonStyle.primary if i == 0 else discord.ButtonStyle.secondary,
                    row=i // 5,
                )
            )
    elif kind in ("choose", "multi"):
        multi = kind == "multi"
        view.add_item(
            discord.ui.Select(
                custom_id=pid("m" if multi else "o"),
                placeholder=(prompt.get("text") or "Choose")[:150],
                min_values=max(0, int(prompt.get("min_picks", 1))) if multi else 1,
                max_values=min(len(options), max(1, int(prompt.get("max_picks", 1)))) if multi else 1,
                options=[
                    discord.SelectOption(
                        label=opt["label"][:100],
                        value=opt["value"],
                        description=(opt.get("description") or None) and opt["description"][:100],
                    )
                    for opt in options[:25]
                ],
            )
        )
    elif kind == "numbers" and (field := quick_field(prompt)) is not None:
        suggested = (prompt.get("default") or {}).get(field["name"])
        view.add_item(
            discord.ui.Select(
                custom_id=pid("q"),
                placeholder=f"{field['label']} ({field['min']}-{field['max']})"[:150],
                options=[
                    discord.SelectOption(label=str(n), value=str(n),
                                         description=SUGGESTED if n == suggested else None)
                    for n in range(int(field["min"]), int(field["max"]) + 1)
                ],
            )
        )
    elif kind == "numbers":
        view.add_item(
            discord.ui.Button(label="Enter numbers", custom_id=pid("n"), style=discord.ButtonStyle.primary)
        )
    return view


def quick_field(prompt: dict[str, Any]) -> dict[str, Any] | None:
    """The one field of a numbers prompt small enough to pick from a select (one click, no form)."""
    fields = prompt.get("fields") or []
    if len(fields) != 1:
        return None
    field = fields[0]
    return field if int(field["max"]) - int(field["min"]) + 1 <= QUICK_NUMBERS else None


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

    def __init__(self, match_id: int, seat: int, version: int, prompt: dict[str, Any]) -> None:
        title = (prompt.get("text") or "Your numbers")[:45]
        super().__init__(title=title, custom_id=ModalId(match_id, seat, version).encode(), timeout=900)
        defaults = prompt.get("default") or {}
        for field in (prompt.get("fields") or [])[:5]:
            label = f"{field['label']} ({field['min']}-{field['max']})"[:45]
            text_input: discord.ui.TextInput[Any] = discord.ui.TextInput(
                custom_id=field["name"],
                default=str(defaults.get(field["name"], field["min"])),
                max_length=6,
                required=True,
            )
            self.add_item(discord.ui.Label(text=label, component=text_input))


def option_label(prompt: dict[str, Any], choice: dict[str, Any]) -> str:
    """How a submitted choice reads back to its player."""
    for opt in prompt.get("options") or []:
        if opt.get("choice") == choice:
            return opt["label"]
    if prompt.get("input") == "multi":
        picked = set(choice.get(prompt.get("field", "picks"), []))
        labels = [o["label"] for o in prompt.get("options") or [] if o["value"] in picked]
        return ", ".join(labels) if labels else "nothing"
    if prompt.get("input") == "numbers":
        names = {f["name"]: f["label"] for f in prompt.get("fields") or []}
        return ", ".join(f"{names.get(k, k)} {v}" for k, v in choice.items())
    return ", ".join(f"{k} {v}" for k, v in choice.items())


def prompt_text(prompt: dict[str, Any], deadline: datetime | None, header: str = "") -> str:
    lines = [header] if header else []
    secret = " (secret: only you see this until everyone has chosen)" if prompt.get("secret") else ""
    lines.append(f"**{prompt.get('text', 'Your decision')}**{secret}")
    options = prompt.get("options") or []
    if prompt.get("input", "choose") == "choose" and len(options) <= BUTTONS_MAX:
        # Buttons cannot carry a description (a select shows it under each option): list them.
        lines += [f"- {o['label']}: {o['description']}" for o in options if o.get("description")]
    if prompt.get("input") == "numbers":
        for field in prompt.get("fields") or []:
            lines.append(f"- {field['label']}: {field['min']} to {field['max']}")
    if prompt.get("shared"):
        lines.append("*Shared: your teammates have this choice too; the first answer counts for everyone "
                     "(first come, first served).*")
    if prompt.get("optional"):
        lines.append("*Optional: the game goes on without you; nobody waits for this choice.*")
    elif deadline is not None:
        who = "nobody has" if prompt.get("shared") else "you have not"
        lines.append(f"Deadline {timestamp(deadline)}; if {who} chosen by then, the AI chooses for you.")
    return "\n".join(lines)[:2000]
