"""The load benchmark's floor for the outbox lag at Discord's global limit: the matches under way
on average (each waiting on at least one notice when players answer at once) times the requests a
notice needs under the limit, over the limit's 50 a second."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest

from benchmarks.load_figures import Lags, active_matches

START = datetime(2026, 12, 5, 12, 0, 0)


def at(seconds: float) -> datetime:
    return START + timedelta(seconds=seconds)


def test_matches_under_way_are_averaged_over_the_runs_span() -> None:
    rows = [  # (created, delivered, kind, user, match)
        (at(0), at(1), "lobby", None, 1),
        (at(5), at(10), "result", None, 1),  # match 1: 0 -> 10 s
        (at(0), at(2), "lobby", None, 2),
        (at(3), at(5), "result", None, 2),  # match 2: 0 -> 5 s
    ]
    assert active_matches(rows) == pytest.approx(1.5), "15 match-seconds over a 10 s run"
    assert active_matches(rows[:2]) == pytest.approx(1.0), "one match under way all along"
    assert active_matches([]) == 0.0


def test_the_floor_grows_with_the_matches_and_the_requests_a_notice() -> None:
    lags = Lags(all=[1.0], first=[1.0], by_kind={}, active_matches=200.0)
    assert lags.floor_mean(0.5) == pytest.approx(2.0), "200 waiting notices, 100 delivered a second"
    assert lags.floor_mean(0.25) == pytest.approx(1.0)
    assert lags.floor_mean(0.5, per_second=100) == pytest.approx(1.0)
