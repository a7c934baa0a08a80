"""The view dicts follow docs/design/tinybigwars-view.md and never leak sealed choices."""

from __future__ import annotations

import json

from tests.engine.tinybigwars.helpers import (
    G,
    activation,
    blank,
    hero,
    home,
    new,
    plain,
    put_card,
    started,
    sub,
)

TOP = {
    "game", "round", "round_limit", "phase", "phase_label", "to_win", "map", "seats", "locations",
    "roads", "heroes", "combat", "active_seat", "waiting", "last_events", "result",
}
SEAT = {"seat", "influence", "coins", "locations", "minions", "heroes", "activations", "passed", "force_ready", "eliminated"}
LOCATION = {
    "id", "name", "x", "y", "coin", "influence", "influence_total", "coin_total", "ability", "infrastructure",
    "controller", "contested", "start_seat", "minions",
}
HERO = {
    "id", "card", "name", "seat", "location", "health", "max_health", "energy", "max_energy", "power",
    "activated", "defeated",
}
COMBAT = {"location", "seats", "dice", "hits", "waiting"}
YOU = {"seat", "force", "sealed", "coins"}


def test_public_view_has_every_documented_key() -> None:
    s = started(["crane", "legion"], ["tiger"])
    v = G.view(s, None)
    assert set(v) >= TOP and "you" not in v
    assert v["game"] == "tinybigwars" and v["map"] == "city2" and v["to_win"] == 10
    assert v["phase"] == "clan" and v["phase_label"] == "Round 1 - Clan Phase"
    for seat in v["seats"]:
        assert set(seat) >= SEAT
    for loc in v["locations"]:
        assert set(loc) >= LOCATION
        assert 0 <= loc["x"] <= 1 and 0 <= loc["y"] <= 1
    for h in v["heroes"]:
        assert set(h) >= HERO
    start = next(loc for loc in v["locations"] if loc["start_seat"] == 0)
    assert start["minions"] == [[0, 12]] and start["controller"] == 0
    assert all(isinstance(r, list) and len(r) == 2 for r in v["roads"])
    json.dumps(v)


def test_seat_view_adds_you_with_own_force_and_coins() -> None:
    s = started(["crane", "legion"], ["tiger"])
    v = G.view(s, 0)
    assert set(v["you"]) >= YOU
    assert v["you"]["force"]["heroes"] == ["crane"] and v["you"]["force"]["minion_cards"] == ["legion"]
    assert v["you"]["coins"] == s.seats[0].coins


def test_force_phase_view_reveals_nothing_but_readiness() -> None:
    s = sub(new(2), 0, {"picks": ["tiger", "legion"]})
    for viewer in (None, 1):
        v = G.view(s, viewer)
        text = json.dumps(v)
        assert "tiger" not in text and "Tiger" not in text and "legion" not in text
        assert [x["force_ready"] for x in v["seats"]] == [True, False]
        assert all(x["heroes"] == 0 for x in v["seats"])
        assert v["round"] == 0 and v["phase"] == "force"
    own = G.view(s, 0)["you"]
    assert own["sealed"]["heroes"] == ["tiger"] and own["force"]["minion_cards"] == ["legion"]
    assert G.view(s, 1)["you"]["sealed"] is None


def test_combat_view_shows_dice_and_who_still_owes_energy_but_not_spends() -> None:
    s = activation(blank(["crane"], ["tiger"]), [0, 1])
    for node, card in zip(["w", "c", "e"], ["gate", "counting", "hall"], strict=True):
        put_card(s, node, card)
    s.loc("c").minions[1] = 2
    hero(s, 0, "crane").energy = 2
    s = sub(s, 0, {"hero": "h0-crane"})
    s = sub(s, 0, {"action": "move", "to": "c"})
    v = G.view(s, None)
    assert v["phase"] == "combat" and set(v["combat"]) >= COMBAT
    assert v["combat"]["location"] == "c" and v["combat"]["waiting"] == [0]
    assert [seat for seat, _ in v["combat"]["dice"]] == [0, 1]
    assert [len(d) for _, d in v["combat"]["dice"]] == [2, 2]
    assert v["waiting"] == [0]


def test_sealed_energy_is_visible_only_to_its_seat() -> None:
    s = activation(blank(["crane"], ["sage"]), [0, 1])
    for node, card in zip(["w", "c", "e"], ["gate", "counting", "hall"], strict=True):
        put_card(s, node, card)
    hero(s, 1, "sage").location = "c"
    hero(s, 0, "crane").energy = 2
    hero(s, 1, "sage").energy = 2
    s = sub(s, 0, {"hero": "h0-crane"})
    s = sub(s, 0, {"action": "move", "to": "c"})
    a = sub(s, 0, {"attack": 2, "guard": 0})
    b = sub(s, 0, {"attack": 0, "guard": 2})
    assert G.view(a, None) == G.view(b, None)
    assert G.view(a, 1) == G.view(b, 1)
    assert G.view(a, 0)["you"]["sealed"] == {"kind": "energy", "attack": 2, "guard": 0}
    answered = [p for p in G.prompts(a) if p.seat == 0]
    assert answered and answered[0].answered
    assert G.view(a, None)["combat"]["waiting"] == [1]


def test_result_and_last_events_in_view() -> None:
    s = blank(["crane"], ["tiger"])
    s.phase, s.winners, s.reason = "over", [1], "influence"
    v = G.view(s, None)
    assert v["result"] == {"winners": [1], "reason": f"first to {s.options.to_win} influence", "draw": False}
    assert v["last_events"] and all(isinstance(x, str) for x in v["last_events"])


def test_a_seat_s_public_line_counts_only_locations_it_holds_alone() -> None:
    """Influence, location count and income in the public view: a location shared with another
    clan's units is contested and counts for nobody; a Dojo adds influence, a Market a coin."""
    s = blank(["crane", "legion"], ["tiger"])
    plain(s, home(s, 0), home(s, 1))
    ours, theirs = home(s, 0), home(s, 1)
    s.loc(ours).minions = [3, 0]
    s.loc(ours).infrastructure = "dojo"
    s.loc(theirs).minions = [1, 2]  # contested: both clans there
    s.loc(theirs).infrastructure = "market"
    v = G.view(s, None)
    mine, other = v["seats"]
    held = [loc for loc in v["locations"] if loc["controller"] == 0]
    assert [loc["id"] for loc in held] == [ours] and mine["locations"] == 1
    assert mine["influence"] == held[0]["influence"] + 1 == held[0]["influence_total"]
    assert mine["income"] >= held[0]["coin"]
    assert other["locations"] == 0 and other["influence"] == 0
    contested = next(loc for loc in v["locations"] if loc["id"] == theirs)
    assert contested["contested"] and contested["controller"] is None
    assert contested["coin_total"] == contested["coin"] + 1


def test_a_view_given_the_states_prompts_is_the_view() -> None:
    """The service hands a view the prompts it built of the state (``engine.view``): every
    seat's view and the public one, at every state of a heuristic match, must be the view
    built from scratch (who is waited for, what each seat may do)."""
    import random

    import engine

    game = engine.get("tinybigwars")
    policy, rng = game.policies()["heuristic"], random.Random(4)
    state = new(3, seed=9, round_limit=3)
    kinds: set[str] = set()
    for _ in range(2000):
        prompts = game.prompts(state)
        for seat in (None, 0, 1, 2):
            given = engine.view(game, state, seat, prompts)
            assert given == game.view(state, seat)
            assert json.dumps(given, sort_keys=True) == json.dumps(game.view(state, seat), sort_keys=True)
        kinds |= {prompt.kind for prompt in prompts}
        open_prompts = [prompt for prompt in prompts if not prompt.answered]
        if not open_prompts:
            break
        asked = open_prompts[0]
        state = sub(state, asked.seat, engine.decide(game, policy, state, asked, rng))
    assert state.phase == "over" and {"force", "clan", "action", "energy"} <= kinds
