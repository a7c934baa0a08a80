"""The transport-agnostic match service (no discord import here). See docs/design/service-api.md."""

from bot.service.core import MatchService, utcnow
from bot.service.errors import BadChoice, Conflict, NoMatch, NotAllowed, NotSeated, ServiceError, StalePrompt
from bot.service.hosting import NO_HOST
from bot.service.types import MatchInfo, Notice, PendingPrompt, SeatInfo, Status, SubmitResult
from bot.service.wording import ACT, CHAT, Wording

__all__ = [
    "ACT",
    "CHAT",
    "BadChoice",
    "Conflict",
    "MatchInfo",
    "MatchService",
    "NO_HOST",
    "NoMatch",
    "NotAllowed",
    "NotSeated",
    "Notice",
    "PendingPrompt",
    "SeatInfo",
    "ServiceError",
    "StalePrompt",
    "Status",
    "SubmitResult",
    "utcnow",
    "Wording",
]
