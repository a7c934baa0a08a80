"""The status board's message id, kept with the match so every process (and a restarted one)
edits the same message instead of posting a new board; and each seat's DM channel, so a DM
goes straight to it instead of fetching the user and opening the channel again."""

from __future__ import annotations

from db.models import Match
from db.store import Store


class BoardService:
    """Where a match's status board and its seats' DM channels live. It needs only the store:
    MatchService holds one (``svc.boards``) and passes its calls on."""

    def __init__(self, store: Store) -> None:
        self.store = store

    async def board_message(self, match_id: int) -> int | None:
        async with self.store.read() as session:
            match = await session.get(Match, match_id)
            return None if match is None else match.board_message_id

    async def set_board_message(self, match_id: int, message_id: int | None) -> None:
        """Remember the board (None: it was deleted; the next refresh posts a new one). Not a
        state change of the match: its version stays, no optimistic check is disturbed."""
        async with self.store.write_once() as connection:  # one UPDATE: no BEGIN, no COMMIT
            await self.store.set_board_message(connection, match_id, message_id)

    async def dm_channel(self, match_id: int, seat: int, user_id: int) -> int | None:
        """The seat's stored DM channel while this user holds the seat."""
        async with self.store.read_once() as connection:
            return await self.store.dm_channel_of(connection, match_id, seat, user_id)

    async def remember_dm_channel(self, match_id: int, seat: int, user_id: int, dm_channel_id: int) -> None:
        """Store the DM channel opened for the seat (its version stays, like the board's message)."""
        async with self.store.write_once() as connection:  # one UPDATE: no BEGIN, no COMMIT
            await self.store.set_dm_channel_of(connection, match_id, seat, user_id, dm_channel_id)
