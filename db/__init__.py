"""The event-sourced match store: tables, async Store, Alembic migrations. No discord here."""

from db.models import Choice, Deadline, DeliveryBlock, Lease, Match, Notice, Seat, Snapshot, Undo
from db.store import DEFAULT_URL, Store, VersionConflict

__all__ = [
    "Choice",
    "DEFAULT_URL",
    "Deadline",
    "DeliveryBlock",
    "Lease",
    "Match",
    "Notice",
    "Seat",
    "Snapshot",
    "Undo",
    "Store",
    "VersionConflict",
]
