"""The default pace: the setup placed by everyone at once (claims first in Quick Start and
LWTV), sealed sword wishes, and one sealed muster per player (build, levy, placement, ronin);
the classic options keep the rulebook's turns. Everything driven through prompts()/submit()."""

from __future__ import annotations

import random

import pytest

import engine
from engine import IllegalChoice
from engine.samurai import board, muster

from .helpers import G, advance_to, new, prompt_for, submit

ZERO = {"swords": 0, "build": 0, "levy": 0, "ronin": 0, "ninja": 0}


def refused(st, seat, choice, message):
    before = st.model_dump_json()
    with pytest.raises(IllegalChoice, match=message):
        G.submit(st, seat, choice)
    assert st.model_dump_json() == before


def handoffs(st, rounds=1, seed=0):
    """Play with the heuristic, open prompts answered in a seeded random order; count the
    times the game starts waiting for someone other than the last actor who was not already
    being waited for (as benchmarks/samurai_pace.py does). Returns (setup, per round)."""
    heuristic = G.policies()["heuristic"]
    order = random.Random(seed)
    counts: dict[int, int] = {}
    waited: set[int] = set()
    last = None
    while G.result(st) is None and st.round <= rounds:
        prompts = G.prompts(st)
        now = {p.seat for p in prompts if not p.answered and not p.optional}
        if now and not now <= waited and now != {last}:
            counts[st.round] = counts.get(st.round, 0) + 1
        waited = now
        pr = order.choice([p for p in prompts if not p.answered] or prompts)
        st = submit(st, pr.seat, engine.decide(G, heuristic, st, pr, random.Random(st.step)))
        if not pr.optional:
            last = pr.seat
    return counts.pop(0, 0), [counts[r] for r in sorted(counts) if r <= rounds]


# ------------------------------------------------------------------ setup


def test_base_setup_is_one_sealed_step_for_everyone():
    st = new("base", 3, seed=5)
    prompts = G.prompts(st)
    assert st.phase == "placement" and sorted(p.seat for p in prompts) == [0, 1, 2]
    assert all(p.kind == "spear" and p.secret and not p.answered for p in prompts)
    mine = board.owned(st, 0)[0]
    st = submit(st, 0, {"act": "spear", "province": mine})
    st = submit(st, 0, {"act": "spear", "province": mine})
    refused(st, 0, {"act": "spear", "province": mine}, "already holds 3 spearmen")
    assert st.provinces[mine].garrison["spearman"] == 1  # nothing on the board yet
    st = submit(st, 0, {"act": "undo"})
    assert st.players[0].draft["spears"] == [mine]
    st = submit(st, 0, {"act": "spread"})
    assert len(st.players[0].draft["spears"]) == 12
    pr = prompt_for(st, 0)
    assert pr.kind == "deploy" and "deploy army 1" in pr.text
    st = submit(st, 0, {"act": "deploy", "province": mine})
    refused(st, 0, {"act": "deploy", "province": mine}, "already has an army")
    for _ in range(2):
        st = submit(st, 0, prompt_for(st, 0).default)
    assert prompt_for(st, 0).answered and st.players[0].armies[0].location is None
    for seat in (1, 2):
        while st.phase == "placement" and not prompt_for(st, seat).answered:
            st = submit(st, seat, prompt_for(st, seat).default)
    assert st.phase == "plan" and st.round == 1
    assert st.players[0].armies[0].location == mine and st.provinces[mine].garrison["spearman"] >= 2
    assert all(sum(p.garrison["spearman"] for p in st.provinces.values() if p.owner == s) == 34 for s in range(3))


def test_quickstart_claims_are_wished_sealed_and_served_in_sword_order():
    st = new("quickstart", 3, seed=2)
    assert st.phase == "claims" and all(p.kind == "claim" and p.secret for p in G.prompts(st))
    free = [pid for pid, p in st.provinces.items() if p.owner is None]
    first, second = st.order[0], st.order[1]
    wanted = free[:6]
    st = submit(st, first, {"act": "claim", "province": wanted[0]})
    refused(st, first, {"act": "claim", "province": wanted[0]}, "already on your list")
    refused(st, first, {"act": "claim", "province": board.owned(st, second)[0]}, "not unoccupied")
    for pid in wanted[1:]:
        st = submit(st, first, {"act": "claim", "province": pid})
    assert prompt_for(st, first).answered
    for pid in [wanted[0], wanted[1]]:  # the second player wants the first player's top two
        st = submit(st, second, {"act": "claim", "province": pid})
    st = submit(st, second, {"act": "auto"})
    third = st.order[2]
    st = submit(st, third, {"act": "auto"})
    assert st.phase == "placement"
    # round 1: the first sword takes its first wish, so the second takes its second wish;
    # later rounds: the first sword's remaining wishes, then the game's choice for both
    assert st.provinces[wanted[0]].owner == first and st.provinces[wanted[1]].owner == second
    assert all(st.provinces[pid].owner == first for pid in wanted[2:])
    assert all(len(board.owned(st, s)) == 16 + 6 for s in range(3))
    assert G.prompts(st)[0].kind == "spear"


def test_setup_classic_keeps_the_rulebook_turns():
    st = new("base", 3, seed=5, setup="classic")
    assert st.phase == "setup" and [p.seat for p in G.prompts(st)] == [st.order[0]]
    assert not G.prompts(st)[0].secret


# ------------------------------------------------------------------ swords and muster


@pytest.fixture(scope="module")
def planning():
    return advance_to(new("base", 3, seed=11), "plan")


def test_sword_wishes_are_sealed_and_served_by_bid(planning):
    ks = [planning.players[s].koku for s in range(3)]
    st = planning
    for seat, bid in ((0, 1), (1, 2), (2, 0)):
        st = submit(st, seat, {**ZERO, "swords": bid, "levy": ks[seat] - bid})
    prompts = G.prompts(st)
    assert st.phase == "swords" and sorted(p.seat for p in prompts) == [0, 1]
    assert all(p.kind == "sword" and p.secret for p in prompts)
    refused(st, 0, {"act": "sword", "position": 4}, "swords 1 to 3")
    st = submit(st, 0, {"act": "sword", "position": 1})
    assert prompt_for(st, 0).answered and st.players[0].sword is None
    st = submit(st, 1, {"act": "sword", "position": 1})
    assert st.players[1].sword == 1 and st.players[0].sword == 2 and st.players[2].sword == 3
    assert st.phase == "muster"


def test_one_sealed_muster_per_player(planning):
    st = planning.model_copy(deep=True)
    st.players[0].koku = 7
    plans = {0: {**ZERO, "build": 2, "levy": 3, "ronin": 2}}
    for seat in (1, 2):
        plans[seat] = {**ZERO, "levy": st.players[seat].koku}
    for seat, plan in plans.items():
        st = submit(st, seat, plan)
    assert st.phase == "muster"
    assert {p.seat: p.kind for p in G.prompts(st)} == {0: "build", 1: "levy", 2: "levy"}
    assert all(p.secret for p in G.prompts(st))
    assert st.players[0].draft["ronin_todo"] == 4 and st.ronin_pool == 22  # hired at once, in public
    target = prompt_for(st, 0).options[0].choice
    st = submit(st, 0, target)
    assert prompt_for(st, 0).kind == "levy"
    st = submit(st, 0, {"spearman": 1, "gunner": 1, "swordsman": 0, "bowman": 0})
    assert prompt_for(st, 0).kind == "place"
    lone = [pid for pid, to in muster.place_spots(st, 0, "gunner")
            if to == "garrison" and board.regulars_in(st, pid) == 1][0]
    spot = {"act": "place", "province": lone, "to": "garrison"}
    st = submit(st, 0, spot)  # the gunner
    st = submit(st, 0, {"act": "skip"})  # the spearman stays in the tray
    pr = prompt_for(st, 0)
    assert pr.kind == "ronin"
    # the new spearman counts: the province now holds 2 regulars behind the screen, room for 1
    assert (lone, "garrison", 1) in muster.ronin_spots(st, 0)
    st = submit(st, 0, {"act": "ronin", "province": spot["province"], "to": "garrison", "count": 1})
    st = submit(st, 0, {"act": "release"})
    pr = prompt_for(st, 0)
    assert pr.answered and pr.kind == "ronin" and "Muster sealed" in pr.text
    undone = submit(st, 0, {"act": "undo"})
    assert prompt_for(undone, 0).kind == "ronin" and not prompt_for(undone, 0).answered
    assert st.provinces[target["province"]].fort == 0 and st.provinces[spot["province"]].ronin == 0
    kinds = []
    for seat in (1, 2):
        while st.phase == "muster" and not prompt_for(st, seat).answered:
            step = G.submit(st, seat, prompt_for(st, seat).default)
            kinds += [e.kind for e in step.events if e.phase_end]
            st = step.state
    assert st.phase == "war" and kinds == ["build", "levy", "ronin"]
    assert st.provinces[target["province"]].fort == 1
    assert st.provinces[spot["province"]].garrison["gunner"] == 1 and st.provinces[spot["province"]].ronin == 1
    assert st.ronin_pool == 26 - 1


def test_builds_go_one_at_a_time_when_the_supply_could_run_short(planning):
    st = planning.model_copy(deep=True)
    st.castles = 1
    for seat in range(3):
        st.players[seat].koku = 4
        st = submit(st, seat, {**ZERO, "build": 2, "levy": 2})
    prompts = G.prompts(st)
    assert st.phase == "build" and len(prompts) == 1 and not prompts[0].secret
    first = prompts[0].seat
    st = submit(st, first, prompts[0].default)
    assert st.castles == 0 and st.phase == "muster"
    assert all(p.kind == "levy" for p in G.prompts(st))


# ------------------------------------------------------------------ the handoffs


@pytest.mark.parametrize("mode", ["base", "quickstart", "lwtv"])
def test_setup_takes_at_most_two_handoffs_and_a_round_few(mode):
    setup, rounds = handoffs(new(mode, 4, seed=7, round_limit=2), rounds=2)
    assert setup <= 2
    assert rounds and all(n <= 4 + 4 for n in rounds), rounds


def test_the_classic_options_hand_off_far_more():
    setup, rounds = handoffs(new("base", 4, seed=7, round_limit=1, setup="classic", steps="classic"))
    assert setup >= 30 and rounds[0] > 8


def test_lwtv_discards_are_part_of_the_plan_step():
    """A hand over the limit is cut while the other players already plan: no extra wait."""
    heuristic = G.policies()["heuristic"]
    for seed in range(10):
        st = new("lwtv", 4, seed=seed, round_limit=8)
        while G.result(st) is None and not any(p.kind == "discard" for p in G.prompts(st)):
            pr = [p for p in G.prompts(st) if not p.answered][0]
            st = submit(st, pr.seat, engine.decide(G, heuristic, st, pr, random.Random(st.step)))
        if G.result(st) is None:
            break
    prompts = G.prompts(st)
    discard = [p for p in prompts if p.kind == "discard"]
    assert discard and st.phase == "plan" and not st.interrupts
    assert {p.kind for p in prompts if p.seat != discard[0].seat} == {"plan"}
    seat = discard[0].seat
    refused(st, seat, {"act": "discard", "card": "no_such_card"}, "choose a card from your hand")
    st = submit(st, seat, discard[0].default)
    assert prompt_for(st, seat).kind in ("plan", "discard")
