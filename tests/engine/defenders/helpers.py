"""Builders for Tiny Epic Defenders test positions: a real setup, then the table arranged by hand.

The ring is fixed to RING below (forest left of the Capital, plains right of it), every region
calm, on side A, not at war, with no Caravans; the Turn Deck holds FILLER so that closing a card
stops at the next Defender card instead of running into a new round.
"""

from __future__ import annotations

from typing import Any

import engine
from engine.contract import Event, Prompt
from engine.defenders.state import Active, Attack, DefendersState

G = engine.get("defenders")
RING = ["forest", "ruins", "mountains", "plains", "coast", "desert"]
# adjacency: capital-forest, capital-plains; forest-ruins-mountains-plains-coast-desert-forest


def new(seats: int = 1, defenders: tuple[str, ...] = ("hearthkeeper", "stonewall"), seed: int = 1,
        **opts: Any) -> DefendersState:
    """A real setup whose skill offers are answered with the first skill each."""
    st = G.setup(seats, {"defenders": list(defenders), **opts}, seed)
    assert isinstance(st, DefendersState)
    while st.phase == "setup":
        p = G.prompts(st)[0]
        st = G.submit(st, p.seat, p.options[0].choice).state
    return st


def calm(st: DefendersState) -> DefendersState:
    """Fixed ring, no Threat, no Caravans, no war regions, no hidden surprises."""
    st.ring = list(RING)
    for i, k in enumerate(RING):
        r = st.regions[k]
        r.pos, r.war, r.side = i, False, "A"
        r.threat, r.destroyed, r.caravans, r.wards, r.storm, r.fleet_die = 0, False, 0, 0, False, False
    st.war_hostile, st.war_friendly = None, []
    st.capital_threat = 0
    st.capital_caravans = 0
    st.attacks = []
    st.artifact_offer = None
    st.hexed = False
    st.discard = []
    st.horde = ["e:bog_raiders"]
    st.boss.revealed = False
    for d in st.defenders:
        d.region = "capital"
        d.xp = 0
        d.skills = []
        d.artifacts = []
        d.used = []
        d.shield = d.riding = d.in_tree = d.moved_free = d.took_turn = False
        d.death_tokens = 0
        d.hp = max_hp(d)
    st.round = 1
    return st


def max_hp(d: Any) -> int:
    from engine.defenders import rules

    return rules.max_hp(d)


FILLER = ["d:0", "d:0", "d:0"]


def turn(st: DefendersState, d: int = 0, ap: int = 3, deck: list[str] | None = None) -> DefendersState:
    """Defender `d` is taking a Turn (their Defender card) with `ap` AP."""
    st.active = Active(card="defender", defender=d, ap=ap)
    st.current = f"d:{d}"
    st.turn_deck = list(FILLER if deck is None else deck)
    for x in st.defenders:
        x.took_turn = x.idx == d
    return st


def all_card(st: DefendersState, ap: int = 3, deck: list[str] | None = None) -> DefendersState:
    st.active = Active(card="all", ap=ap)
    st.current = "all"
    st.turn_deck = list(FILLER if deck is None else deck)
    for x in st.defenders:
        x.took_turn = False
    return st


def attack(st: DefendersState, region: str, kind: str = "enemy", dire: str | None = None,
           source: str = "Raiders", deck: list[str] | None = None) -> DefendersState:
    """An attack waiting to be answered (or resolved by `settle`)."""
    st.active = None
    st.current = None
    st.turn_deck = list(FILLER if deck is None else deck)
    st.attacks = [Attack(region=region, source=source, kind=kind, dire=dire)]  # type: ignore[arg-type]
    return st


def reveal(st: DefendersState, key: str, region: str | None = None, hp: int = 10) -> DefendersState:
    from engine.defenders.content import content

    st.boss.key = key
    st.boss.kind = "general" if key in {g.key for g in content().generals} else "epic"
    st.boss.revealed = True
    st.boss.hp = st.boss.max_hp = hp
    st.boss.region = region or content().boss(key).region
    st.boss.armor_soaked = []
    return st


def prompt_of(st: DefendersState, seat: int = 0, kind: str | None = None) -> Prompt:
    ps = [p for p in G.prompts(st) if p.seat == seat and (kind is None or p.kind == kind)]
    assert ps, f"seat {seat} has no {kind or ''} prompt: {[(p.seat, p.kind) for p in G.prompts(st)]}"
    return ps[0]


def options(st: DefendersState, seat: int = 0, kind: str | None = None) -> list[dict[str, Any]]:
    return [dict(o.choice) for o in prompt_of(st, seat, kind).options]


def find(st: DefendersState, seat: int = 0, kind: str | None = None, **want: Any) -> dict[str, Any] | None:
    for ch in options(st, seat, kind):
        if all(ch.get(k) == v for k, v in want.items()):
            return ch
    return None


def play(st: DefendersState, seat: int = 0, kind: str | None = None, **want: Any) -> tuple[DefendersState, list[Event]]:
    """Submit the option of the seat's prompt whose choice has these fields (copied from the prompt)."""
    ch = find(st, seat, kind, **want)
    assert ch is not None, f"no option {want} in {options(st, seat, kind)}"
    step = G.submit(st, seat, ch)
    assert isinstance(step.state, DefendersState)
    return step.state, step.events


def do(st: DefendersState, seat: int = 0, kind: str | None = None, **want: Any) -> DefendersState:
    return play(st, seat, kind, **want)[0]


def use(st: DefendersState, d: int, src: str, target: Any = "none", seat: int | None = None,
        kind: str | None = None) -> DefendersState:
    """Use an ability through the prompts, answering the target prompt when one is asked."""
    seat = st.defenders[d].seat if seat is None else seat
    st = do(st, seat, kind, act="use", d=d, src=src)
    if st.active is not None and st.active.pick is not None:
        assert target != "none", "a target prompt was asked"
        st = do(st, seat, "target", act="target", target=target)
    return st


def texts(events: list[Event]) -> str:
    return "\n".join(e.text for e in events)


def next_cards(st: DefendersState, *cards: str, d: int = 0) -> tuple[DefendersState, list[Event]]:
    """Defender `d` ends a Turn; the Turn Deck then yields `cards` in order, then FILLER."""
    st = turn(st, d, deck=FILLER + list(reversed(cards)))
    return play(st, st.defenders[d].seat, act="end")


def new_round(st: DefendersState, d: int = 0) -> tuple[DefendersState, list[Event]]:
    """Defender `d` ends the last Turn of the round: round end, then the next round starts."""
    st = turn(st, d, deck=[])
    return play(st, st.defenders[d].seat, act="end")
