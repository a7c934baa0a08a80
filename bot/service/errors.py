"""Service errors: each carries a message a player can read; nothing changes when one is raised."""

from __future__ import annotations


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
