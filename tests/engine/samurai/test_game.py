"""The Game object on the engine contract: registry, options, seats, policies."""

from __future__ import annotations

import pytest

import engine
from engine.samurai.state import SamuraiOptions, SamuraiState

from .helpers import G, new


def test_registered_with_modes_and_seats():
    assert engine.get("samurai") is G
    assert isinstance(G, engine.Game)
    assert G.modes == ("base", "quickstart", "lwtv")
    assert list(G.seats) == [3, 4, 5]
    assert G.options_model() is SamuraiOptions and G.state_model() is SamuraiState
    assert set(G.policies()) == {"random", "heuristic", "search"}


def test_options_validate_and_costs_are_configurable():
    opts = engine.parse_options(G, {"mode": "lwtv", "round_limit": 4,
                                    "levy_costs": {"spearman": 2, "gunner": 2, "swordsman": 2, "bowman": 2}})
    assert opts.mode == "lwtv" and opts.levy_costs["spearman"] == 2
    with pytest.raises(engine.IllegalChoice):
        engine.parse_options(G, {"mode": "chess"})
    with pytest.raises(engine.IllegalChoice):
        engine.parse_options(G, {"speed": 3})


def test_two_or_six_players_are_refused():
    for seats in (2, 6):
        with pytest.raises(ValueError, match="3 to 5 players"):
            new("base", seats)


def test_same_seed_same_setup_and_views_are_json():
    import json
    a, b = new("quickstart", 4, seed=77), new("quickstart", 4, seed=77)
    assert a.model_dump_json() == b.model_dump_json()
    assert new("quickstart", 4, seed=78).model_dump_json() != a.model_dump_json()
    json.dumps(G.view(a, None))
    json.dumps(G.view(a, 2))
    assert G.result(a) is None
