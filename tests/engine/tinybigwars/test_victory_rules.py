"""Victory, round limits and elimination, one test (or a few) per rulebook clause (the rest: test_rules.py)."""

from __future__ import annotations

from engine.tinybigwars import rules, victory
from engine.tinybigwars.board import controlled, influence
from engine.tinybigwars.state import Options
from tests.engine.tinybigwars.helpers import (
    Dice,
    G,
    blank,
    finish_clan_phase,
    hero,
    home,
    level_starts,
    plain,
    put_card,
    started,
    sub_ev,
)

# --------------------------------------------------------------------------- victory


def _round_end(s):
    events: list = []
    rules._victory_check(s, events, Dice())
    return events


def test_ten_influence_at_the_end_of_a_round_wins() -> None:
    s = blank(["crane"], ["sage"])
    s.round, s.phase = 1, "activation"
    s.options.to_win = max(influence(s, 0), influence(s, 1)) + 1
    for loc in s.locations:
        if loc.start_seat is None:
            loc.minions[0] = 1
    events = _round_end(s)
    assert G.result(s) is not None and G.result(s).winners == [0]
    assert s.reason == "influence" and G.result(s).reason == f"first to {s.options.to_win} influence"
    assert events[-1].kind == "game_over" and events[-1].phase_end


def test_default_target_is_ten_influence() -> None:
    assert Options().to_win == 10


def test_tiebreakers_highest_influence_then_most_locations_then_draw() -> None:
    assert victory.rank([0, 1], [12, 11], [3, 5]) == [0]
    assert victory.rank([0, 1], [12, 12], [3, 5]) == [1]
    assert victory.rank([0, 1], [12, 12], [4, 4]) == [0, 1]


def test_a_tie_at_ten_is_a_draw() -> None:
    s = blank(["crane"], ["sage"])
    plain(s, "w", "e")
    s.round = 1
    s.options.to_win = 1
    put_card(s, "w", "gate")
    put_card(s, "e", "academy")
    assert influence(s, 0) == influence(s, 1) >= 1
    assert len(controlled(s, 0)) == len(controlled(s, 1))
    _round_end(s)
    result = G.result(s)
    assert result is not None and result.draw and result.winners == [0, 1]


def _play_out_round(s):
    """Clan Phase done and every clan passes, through ``submit``: the round ends."""
    s, events = finish_clan_phase(s)
    while s.phase != "over" and s.phase == "activation":
        p = G.prompts(s)[0]
        s, more = sub_ev(s, p.seat, {"hero": "pass"})
        events += more
    return s, events


def _one_round_left(spare_holder: int):
    """A one-round match with level start nodes, a spare location held by ``spare_holder``."""
    s = started(["crane"], ["sage"], round_limit=1)
    level_starts(s, "gate", "academy")
    spare = next(loc for loc in s.locations if loc.start_seat is None)
    put_card(s, spare.id, "infirmary")
    spare.minions[spare_holder] = 1
    return s


def test_round_limit_highest_influence_wins() -> None:
    s = _one_round_left(1)
    s, events = _play_out_round(s)
    result = G.result(s)
    assert result.winners == [1] and not result.draw
    assert result.reason == f"the most influence at the {s.options.round_limit}-round limit"
    assert events[-1].kind == "game_over" and "wins" in events[-1].text


def test_round_limit_then_most_locations() -> None:
    s = _one_round_left(0)
    s.loc(home(s, 1)).infrastructure = "dojo"
    assert influence(s, 0) == influence(s, 1)
    s, _ = _play_out_round(s)
    assert G.result(s).winners == [0] and not G.result(s).draw


def test_round_limit_full_tie_is_a_draw() -> None:
    s = started(["crane"], ["sage"], round_limit=1)
    level_starts(s, "gate", "academy")
    assert influence(s, 0) == influence(s, 1) and len(controlled(s, 0)) == len(controlled(s, 1))
    s, events = _play_out_round(s)
    result = G.result(s)
    assert result is not None and result.draw and result.winners == [0, 1]
    assert result.reason == f"tied on influence and locations at the {s.options.round_limit}-round limit"
    assert "Draw between" in events[-1].text and "tied" in events[-1].text


def test_round_end_event_marks_the_phase_end_and_a_new_round_starts() -> None:
    s = blank(["crane"], ["sage"])
    plain(s, "w", "e")
    s.round = 1
    events = _round_end(s)
    assert any(e.kind == "round_end" and e.phase_end for e in events)
    assert s.round == 2


def test_a_clan_without_units_is_out_and_the_last_clan_wins() -> None:
    s = blank(["crane"], ["sage"])
    plain(s, "w", "e")
    hero(s, 1, "sage").defeated = True
    hero(s, 1, "sage").location = None
    s.round = 1
    _round_end(s)
    assert s.seats[1].eliminated
    assert G.result(s).winners == [0] and G.result(s).reason == "the last clan standing"
