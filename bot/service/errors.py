"""Service errors: each carries a message a player can read; nothing changes when one is raised."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bot.service.types import MatchInfo


class ServiceError(Exception):
    """Base of every refusal of the match service."""


class NoMatch(ServiceError):
    """Unknown match, or no open match in this channel."""


class NotSeated(ServiceError):
    """The user has no seat in the match."""


class NotAllowed(ServiceError):
    """Only the host (or a server manager) may do this."""


class Conflict(ServiceError):
    """The request clashes with the match's current state (a match already runs here, lobby full, ...)."""


class StalePrompt(ServiceError):
    """The choice answers a prompt that is no longer open."""

    DEFAULT = "This choice is no longer open."

    def __init__(self, message: str = DEFAULT) -> None:
        super().__init__(message)


class BadChoice(ServiceError):
    """The engine refused the choice (wraps IllegalChoice with the same message)."""


class SeveralMatches(NoMatch):
    """Several matches run from this channel, each in its own thread, and the user's command
    does not say which: it names them, and a front-end may point at their threads."""

    def __init__(self, matches: list[MatchInfo]) -> None:
        self.matches = matches
        listed = ", ".join(f"{m.title} #{m.id}" for m in matches)
        super().__init__(f"Several matches run from this channel ({listed}); "
                         "use the command in the thread of the match you mean.")


class OpenLobby(Conflict):
    """The host already has a lobby open on this server: one at a time, so a host's clicks cannot
    fill a channel with lobbies. It names that lobby; a front-end may link to its channel."""

    def __init__(self, match: MatchInfo) -> None:
        self.match = match
        super().__init__(f"You already have a {match.title} lobby open (match #{match.id}); "
                         "start it or abort it before you open another.")
