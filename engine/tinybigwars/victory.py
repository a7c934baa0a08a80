"""The end of a match: ranking tied clans and announcing the result."""

from __future__ import annotations

from engine.contract import Event
from engine.kit import emit
from engine.text import seat_ref
from engine.tinybigwars.state import LOG_FIELD, TBWState


def rank(seats: list[int], scores: list[int], places: list[int]) -> list[int]:
    """Highest influence, then most controlled locations; several seats left = a draw between them."""
    best = max(scores[seat] for seat in seats)
    tied = [seat for seat in seats if scores[seat] == best]
    most = max(places[seat] for seat in tied)
    return [seat for seat in tied if places[seat] == most]


def reason_text(s: TBWState) -> str:
    """Why the match ended, as players read it (``s.reason`` is the stored key)."""
    limit = f"the {s.options.round_limit}-round limit"
    if s.reason == "influence":
        return f"first to {s.options.to_win} influence"
    if s.reason == "last_clan":
        return "the last clan standing"
    if s.draw:
        return f"tied on influence and locations at {limit}"
    return f"the most influence at {limit}"


def end(s: TBWState, events: list[Event], winners: list[int], reason: str, scores: list[int], summary: str) -> None:
    s.phase = "over"
    s.winners = sorted(winners)
    s.draw = len(winners) != 1
    s.reason = reason
    why = {
        "influence": f"reached {s.options.to_win} influence",
        "last_clan": "is the last clan standing",
        "round_limit": f"leads when the {s.options.round_limit}-round limit is reached",
    }[reason]
    if s.draw and reason != "influence":
        why = f"tied on influence and locations when the {s.options.round_limit}-round limit is reached"
    who = " and ".join(seat_ref(w) for w in s.winners) or "nobody"
    text = f"Round {s.round} over: {summary}. {'Draw between ' + who if s.draw else who.capitalize() + ' wins'}: {why}."
    emit(s, LOG_FIELD, events, "game_over", text, data={"winners": s.winners, "reason": reason, "influence": scores}, phase_end=True)
