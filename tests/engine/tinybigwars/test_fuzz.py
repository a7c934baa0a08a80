"""Fuzzing submit: any payload either applies or raises IllegalChoice, never anything else."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.contract import IllegalChoice
from engine.tinybigwars.state import TBWState
from tests.engine.tinybigwars.helpers import G, activation, blank, hero, new, put_card, sub

FIELDS = ["picks", "action", "location", "count", "infrastructure", "hero", "to", "minions", "attack", "guard", "x"]
WORDS = ["crane", "tiger", "legion", "dojo_charter", "w", "c", "nw", "e", "h0-crane", "h1-tiger", "pass",
         "move", "end", "train_health", "train_energy", "recruit", "build", "charter", "done", "dojo", "market", ""]
SCALARS = st.one_of(
    st.none(), st.booleans(), st.integers(-3, 40), st.floats(allow_nan=True), st.sampled_from(WORDS), st.text(max_size=5)
)
VALUES = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=3), inner, max_size=3), max_leaves=6)
PAYLOADS = st.one_of(st.dictionaries(st.sampled_from(FIELDS), VALUES, max_size=4), VALUES)


def _states() -> list[TBWState]:
    force = new(2)
    clan = blank(["crane"], ["tiger"])
    put_card(clan, "w", "gate")
    clan.phase, clan.seats[0].coins, clan.seats[0].clan_done = "clan", 3, False
    recruit = sub(clan, 0, {"action": "recruit", "location": "w"})
    act = activation(blank(["crane"], ["tiger"]), [0, 1])
    for node, card in zip(["w", "nw", "c", "e"], ["gate", "academy", "counting", "hall"], strict=True):
        put_card(act, node, card)
    act.loc("w").minions[0] = 2
    act.loc("c").minions[1] = 2
    hero(act, 0, "crane").energy = 2
    action = sub(act, 0, {"hero": "h0-crane"})
    escort = sub(action, 0, {"action": "move", "to": "c"})
    fight = sub(escort, 0, {"minions": 1})
    return [force, clan, recruit, act, action, escort, fight]


STATES = _states()


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(which=st.integers(0, len(STATES) - 1), seat=st.sampled_from([0, 1, 2, -1]), payload=PAYLOADS)
def test_any_payload_applies_or_is_refused_cleanly(which: int, seat: int, payload: Any) -> None:
    state = STATES[which]
    before = state.model_dump_json()
    try:
        step = G.submit(state, seat, payload)
    except IllegalChoice as exc:
        assert str(exc)
    else:
        assert step.state.step == state.step + 1
        TBWState.model_validate_json(step.state.model_dump_json())
    assert state.model_dump_json() == before
