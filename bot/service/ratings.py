"""Ratings: per server, per game, per player, with openskill's Plackett-Luce model.

Rules (README "Ratings and stats"):
- Only humans are rated. AI seats are left out of the update, as if absent; a seat the AI took
  over for missed deadlines still belongs to its player.
- A rating moves at a finished competitive match with at least two human players on a server.
  Winners share the first place, the others are ranked by the result's scores when the game
  gives them, else share the second place; a draw ranks everyone equal.
- A cooperative game (everyone wins or loses together) counts games and wins but moves no
  rating: a team result says nothing about one player against another. Nor does a match with
  one human only (against AI seats).
- A player who conceded (votes.py) is rated with the match's players as a loss, whatever their
  seat (the AI's since) does: below every player still at the table, the earliest to concede
  last. Their seat is recorded under them, not won.
- Everything happens in the transaction that finishes the match, keyed on the match id, so a
  retried or replayed finish never rates a match twice.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from openskill.models import PlackettLuce
from sqlmodel.ext.asyncio.session import AsyncSession

import engine as eng
from bot.service.rows import row_id
from db.models import Match, Seat
from db.prepared import begun, insert_rows
from db.record_queries import ratings_for_update
from db.records import MatchRecord, Rating, RecordSeat
from db.store import Store
from db.vote_queries import concessions

MODEL = PlackettLuce()
LEADERBOARD_SIZE = 10


@dataclass(frozen=True)
class GameStats:
    """One player's standing in one game on one server."""

    game: str
    title: str
    games: int
    wins: int
    rated: int
    rating: float
    mu: float
    sigma: float
    favourite: str | None
    favourite_kind: str | None


@dataclass(frozen=True)
class Standing:
    """One line of a leaderboard."""

    place: int
    user_id: int
    name: str
    games: int
    wins: int
    rated: int
    rating: float


def is_cooperative(game: eng.Game) -> bool:
    return game.info.cooperative


def picks_of(key: str, view: dict[str, Any], seat: int) -> list[str]:
    """What the seat played, as the final public view names it (never a seat's own view)."""
    where = eng.get(key).info.picks  # a game whose view names no picks has no favourite
    if where is None:
        return []
    entries = view.get(where[0]) or []
    return [str(e["name"]) for e in entries if isinstance(e, dict) and e.get("seat") == seat and e.get("name")]


def _pick_noun(key: str) -> str | None:
    picks = eng.get(key).info.picks
    return picks[1] if picks else None


def ranks(result: eng.Result, seats: list[int], conceded: list[int] | None = None) -> list[int]:
    """Finishing places (1 is best) of ``seats``: winners first, then by score, ties shared; the
    ``conceded`` seats (earliest first) after all of them, the earliest last."""
    conceded = conceded or []
    playing = [s for s in seats if s not in conceded]
    if result.draw:
        places = {s: 1 for s in playing}
    else:
        losers = sorted({result.scores.get(s, 0) for s in playing if s not in result.winners}, reverse=True)
        places = {s: 1 if s in result.winners else 2 + losers.index(result.scores.get(s, 0)) for s in playing}
    below = max(places.values(), default=0)
    for n, seat in enumerate(reversed([s for s in conceded if s in seats]), start=1):
        places[seat] = below + n
    return [places[s] for s in seats]


def rated_match(match: Match, seats: list[Seat], game: eng.Game) -> bool:
    humans = {s.user_id for s in seats if s.user_id is not None}
    return match.guild_id is not None and not is_cooperative(game) and len(humans) >= 2


async def record_finish(session: AsyncSession, match: Match, seats: list[Seat], game: eng.Game, state: eng.State,
                        result: eng.Result, now: datetime, view: dict[str, Any] | None = None) -> MatchRecord | None:
    """Write the match's record and update its players' ratings, in the caller's transaction.
    Returns None (and changes nothing) if the match was recorded before. ``view``: the final
    state's public view, when the caller has it already."""
    match_id = row_id(match)
    if await session.get(MatchRecord, match_id) is not None:
        return None
    conceded = {c.seat_no: c for c in await concessions(session, match_id)}
    seats = [Seat(match_id=match_id, seat_no=s.seat_no, user_id=conceded[s.seat_no].user_id, name=conceded[s.seat_no].name)
             if s.seat_no in conceded else s for s in seats]  # a conceded seat is its player's loss
    if view is None:
        view = game.view(state, None)
    rated = rated_match(match, seats, game)
    record = MatchRecord(match_id=match_id, guild_id=match.guild_id, game=match.game, finished_at=now,
                         rounds=_rounds(view), choices=match.step, reason=result.reason, draw=result.draw,
                         rated=rated)
    session.add(record)
    await session.flush()
    ordered = sorted(seats, key=lambda s: s.seat_no)
    rows = {s.seat_no: RecordSeat(match_id=match_id, seat_no=s.seat_no, user_id=s.user_id, name=s.name,
                                  won=s.seat_no in result.winners and s.seat_no not in conceded,
                                  picks=picks_of(match.game, view, s.seat_no))
            for s in ordered}
    humans = [(s.user_id, s) for s in ordered if s.user_id is not None]
    if match.guild_id is not None and humans:
        standings = await _standings(session, match.guild_id, match.game, humans, now)
        for user_id, seat in humans:
            standing = standings[user_id]
            standing.games += 1
            standing.wins += int(rows[seat.seat_no].won)
            standing.name = seat.name
            standing.updated_at = now
        if rated:
            _rate(result, humans, standings, rows, list(conceded))
    # the seats by one statement (the ORM inserts each row by one, to learn ids nobody reads)
    table = RecordSeat.__table__  # type: ignore[attr-defined]
    await insert_rows(await begun(session), table, [
        {column.key: getattr(row, column.key) for column in table.columns if column.key != "id"}
        for row in rows.values()])
    return record


def _rounds(view: dict[str, Any]) -> int | None:
    value = view.get("round")
    return value if isinstance(value, int) and not isinstance(value, bool) else None


async def _standings(session: AsyncSession, guild_id: int, game: str, humans: list[tuple[int, Seat]],
                     now: datetime) -> dict[int, Rating]:
    """The players' rating rows (``humans``: user id and seat), locked for the update (in user
    order: no deadlock between two matches of the same players finishing at once), created at
    the defaults when new."""
    users = sorted({user_id for user_id, _seat in humans})
    found = {r.user_id: r for r in await ratings_for_update(session, guild_id, game, users)}
    for user_id in users:
        if user_id not in found:
            name = next(seat.name for seated, seat in humans if seated == user_id)
            found[user_id] = Rating(guild_id=guild_id, game=game, user_id=user_id, name=name, updated_at=now)
            session.add(found[user_id])
    return found


def _rate(result: eng.Result, humans: list[tuple[int, Seat]], standings: dict[int, Rating],
          rows: dict[int, RecordSeat], conceded: list[int]) -> None:
    """One openskill update over the human seats (user id and seat; one team of one each);
    ``conceded``: the seats conceded, earliest first."""
    teams = [[MODEL.rating(mu=standings[user_id].mu, sigma=standings[user_id].sigma)] for user_id, _seat in humans]
    places = ranks(result, [seat.seat_no for _user_id, seat in humans], conceded)
    rated = MODEL.rate(teams, ranks=[float(p) for p in places])
    for (user_id, seat), (after,) in zip(humans, rated, strict=True):
        standing = standings[user_id]
        rows[seat.seat_no].mu_before = standing.mu
        standing.mu, standing.sigma = float(after.mu), float(after.sigma)
        standing.rated += 1
        rows[seat.seat_no].mu_after = standing.mu


class RatingService:
    """What `/game stats` and `/game leaderboard` read. It needs only the store: MatchService
    holds one (``svc.ratings``) and passes its calls on."""

    def __init__(self, store: Store) -> None:
        self.store = store

    async def player_stats(self, guild_id: int, user_id: int) -> list[GameStats]:
        """The player's standing in every game they finished a match of on this server (empty: none)."""
        async with self.store.read() as session:
            standings = await self.store.player_ratings(session, guild_id, user_id)
            played = await self.store.player_picks(session, guild_id, user_id)
        counts: dict[str, Counter[str]] = {}
        for game, picks in played:
            counts.setdefault(game, Counter()).update(picks or [])
        out = []
        for standing in standings:
            favourite = _favourite(counts.get(standing.game, Counter()))
            out.append(GameStats(
                game=standing.game, title=_title(standing.game), games=standing.games, wins=standing.wins,
                rated=standing.rated, rating=standing.ordinal, mu=standing.mu, sigma=standing.sigma,
                favourite=favourite, favourite_kind=_pick_noun(standing.game) if favourite else None))
        return out

    async def leaderboard(self, guild_id: int, game: str, limit: int = LEADERBOARD_SIZE) -> list[Standing]:
        """The best players of a game on this server: by rating, then wins, then games."""
        limit = max(1, min(limit, LEADERBOARD_SIZE * 2))
        async with self.store.read() as session:
            rows = await self.store.best_ratings(session, guild_id, game, limit)
        return [Standing(place=n, user_id=r.user_id, name=r.name, games=r.games, wins=r.wins, rated=r.rated,
                         rating=r.ordinal) for n, r in enumerate(rows, start=1)]


def _favourite(counts: Counter[str]) -> str | None:
    """The most played pick; a tie goes to the name first in the alphabet (stable answers)."""
    if not counts:
        return None
    return min(counts.items(), key=lambda item: (-item[1], item[0]))[0]


def _title(key: str) -> str:
    try:
        return str(eng.get(key).title)
    except KeyError:
        return key
