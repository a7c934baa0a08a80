"""How a front-end writes what the service tells players.

The service decides what is said and names the commands it points to by neutral names
(``ACT``); a front-end hands MatchService a ``Wording`` that writes those names and the emphasis
in its own markup. ``CHAT`` is the chat markup every front-end shares today (Discord's, which the
terminal table prints as it is), so a front-end that passes nothing gets the texts players know.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

ACT = "act"
"""The command that shows a seat its open prompt (in the server, when DMs do not reach it)."""


def _chat_strong(text: str) -> str:
    return f"**{text}**"


@dataclass(frozen=True)
class Wording:
    """A front-end's markup: how a named command is written, how a line is made to stand out,
    and who besides the host may use host powers (the transport's own permission)."""

    commands: Mapping[str, str] = field(default_factory=lambda: {ACT: "`/game act`"})
    strong: Callable[[str], str] = _chat_strong
    manager: str = "a member with Manage Server"
    managers: str = "members with Manage Server"

    def command(self, name: str) -> str:
        """The command called ``name`` as a player types it."""
        return self.commands[name]


CHAT = Wording()
"""The chat markup (bold with ``**``, commands in backticks) and its server managers."""
