"""The event-sourced match store: tables, async Store, Alembic migrations. No discord here."""

from db.models import Choice, Deadline, DeliveryBlock, Lease, Match, Notice, Seat, Snapshot, Undo
from db.records import MatchRecord, Rating, RecordSeat
from db.store import DEFAULT_URL, Store, StoreBusy, VersionConflict

__all__ = [
    "Choice",
    "DEFAULT_URL",
    "Deadline",
    "DeliveryBlock",
    "Lease",
    "Match",
    "MatchRecord",
    "Notice",
    "Rating",
    "RecordSeat",
    "Seat",
    "Snapshot",
    "Undo",
    "Store",
    "StoreBusy",
    "VersionConflict",
]
