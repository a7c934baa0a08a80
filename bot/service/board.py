"""The status board's message id, kept with the match so every process (and a restarted one)
edits the same message instead of posting a new board."""

from __future__ import annotations

from db.models import Match
from db.store import Store


class BoardService:
    """Mixed into MatchService: where a match's status board lives."""

    store: Store

    async def board_message(self, match_id: int) -> int | None:
        async with self.store.read() as session:
            match = await session.get(Match, match_id)
            return None if match is None else match.board_message_id

    async def set_board_message(self, match_id: int, message_id: int | None) -> None:
        """Remember the board (None: it was deleted; the next refresh posts a new one). Not a
        state change of the match: its version stays, no optimistic check is disturbed."""
        async with self.store.write() as session:
            await self.store.set_board_message(session, match_id, message_id)
