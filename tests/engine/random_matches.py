"""Random-legal whole matches with their property checks, one runner per game, shared by the
engine property tests (a small seeded sample) and `benchmarks/soak.py` (hundreds of matches).

Each runner plays one seeded match to its end and raises AssertionError on the first broken
property: the match ends, prompts fit Discord and have legal defaults, `submit` never mutates its
input, states round-trip through JSON, no view shows a sealed answer or a hidden order, and the
choice log replays to the identical final state. `schedule` gives the n-th match of a game's
seeded series, so a test's sample is the first matches of the soak's series.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, cast

import engine
from engine.defenders.state import DefendersState
from engine.samurai.state import SamuraiState
from engine.tinybigwars.ai import RandomPolicy
from engine.tinybigwars.state import Energy, Force, TBWState

SAMURAI = engine.get("samurai")
DEFENDERS = engine.get("defenders")
TINY_BIG_WARS = engine.get("tinybigwars")

MODES = {"samurai": ("base", "quickstart", "lwtv"), "defenders": ("single", "campaign"), "tinybigwars": ("",)}
"""The modes a soak spreads its matches over; Tiny Big Wars has one."""
SEATS = {"samurai": (3, 4, 5), "defenders": (1, 2, 3, 4), "tinybigwars": (2, 3, 4)}


@dataclass(frozen=True)
class Match:
    """One seeded match of a series: what to play and whether every step gets the full checks."""

    game: str
    mode: str
    seats: int
    seed: int
    full: bool
    options: dict[str, Any] = field(default_factory=dict)

    def label(self) -> str:
        extra = ",".join(f"{k}={v}" for k, v in self.options.items())
        return f"{self.game} {self.mode or '-'} {self.seats} seats seed {self.seed}" + (f" ({extra})" if extra else "")


SAMURAI_CLASSIC = {"setup": "classic", "steps": "classic"}
SAMURAI_FULL_EVERY = 67
"""In a Samurai series one match in 67 (and the 34th, at the rulebook's pace) gets the full
checks on every step; the others the cheap ones (the full ones cost several times more)."""
DEFENDERS_FULL_EVERY = 25


def samurai_match(mode: str, seats: int, n: int, full_every: int = SAMURAI_FULL_EVERY) -> Match:
    """The n-th Samurai match of a mode and seat count: every other one at the classic pace."""
    full = n % full_every == 0 or n == full_every // 2
    return Match("samurai", mode, seats, 10_000 * seats + n, full, SAMURAI_CLASSIC if n % 2 else {})


def defenders_match(mode: str, seats: int, n: int, full_every: int = DEFENDERS_FULL_EVERY) -> Match:
    return Match("defenders", mode, seats, 1000 * seats + n, n % full_every == 0)


def tinybigwars_match(n: int) -> Match:
    """The n-th Tiny Big Wars match: seats and round limit go round 2-4 and 3-5 together."""
    return Match("tinybigwars", "", 2 + n % 3, 1000 + n, True, {"round_limit": 3 + n % 3})


def schedule(game: str, matches: int, first: int = 0) -> Iterator[Match]:
    """`matches` matches per mode of `game`, spread evenly over its seat counts, numbered from
    `first` within each mode and seat count (Tiny Big Wars: one series over all seat counts)."""
    if game == "tinybigwars":
        for n in range(first, first + matches):
            yield tinybigwars_match(n)
        return
    seats = SEATS[game]
    share = -(-matches // len(seats))
    for mode in MODES[game]:
        for count in seats:
            for n in range(first, first + share):
                yield samurai_match(mode, count, n) if game == "samurai" else defenders_match(mode, count, n)


def play(match: Match) -> int:
    """Play one match of a series with its checks; the number of choices it took."""
    if match.game == "samurai":
        return samurai_quick_match(match.seats, match.mode, match.seed, match.full, match.options)
    if match.game == "defenders":
        return defenders_play(match.seats, match.mode, match.seed, match.full).choices
    return tinybigwars_play(match.seats, match.seed, match.options["round_limit"])["choices"]


# ------------------------------------------------------------------ Samurai


def other_views(st: SamuraiState, owner: int) -> list[dict[str, Any]]:
    """What the public and every seat but `owner` see."""
    return [SAMURAI.view(st, None)] + [SAMURAI.view(st, s) for s in range(st.seats) if s != owner]


def strip_waiting(view: dict[str, Any]) -> dict[str, Any]:
    """A view without who-is-still-choosing: answering a sealed prompt may change only that."""
    v = dict(view)
    v["waiting"] = None
    v["seats"] = [{**s, "ready": None} for s in v["seats"]]
    return v


def samurai_quick_match(seats: int, mode: str, seed: int, full: bool, pace: dict[str, Any] | None = None) -> int:
    """One random-legal Samurai match to its end (round limit 1). Every step: the prompts fit
    Discord and have defaults, the step counter moves. With `full`: the input is never mutated,
    the JSON round-trip is exact, a secret answer that does not end its step changes nothing any
    other seat or the public sees, and the replay rebuilds the end. Returns the choices made."""
    game = SAMURAI
    options = {"mode": mode, "round_limit": 1, **(pace or {})}
    st = cast(SamuraiState, game.setup(seats, game.options_model()(**options), seed))
    pol = game.policies()["random"]
    rng = random.Random(seed)
    log: list[tuple[int, dict[str, Any]]] = []
    for _ in range(5000):
        if st.phase == "over":
            break
        ps = game.prompts(st)
        for p in ps:
            if p.input == "choose":
                assert 1 <= len(p.options) <= 25, (p.kind, len(p.options))
            assert p.default, p.kind
        open_ = [p for p in ps if not p.answered] or ps
        pr = rng.choice(open_)
        choice = pr.default if rng.random() < 0.1 else engine.decide(game, pol, st, pr, rng)
        if full:
            before = st.model_dump_json()
            hidden = [strip_waiting(v) for v in other_views(st, pr.seat)] if pr.secret else None
        step = game.submit(st, pr.seat, choice)
        new_st = cast(SamuraiState, step.state)
        assert new_st.step == st.step + 1
        if full:
            assert st.model_dump_json() == before, "submit mutated its input"
            assert SamuraiState.model_validate_json(new_st.model_dump_json()) == new_st
            mine = [p for p in game.prompts(new_st) if p.seat == pr.seat]
            still_sealed = bool(mine) and mine[0].secret and mine[0].answered and mine[0].kind == pr.kind
            if still_sealed:  # the step is still open: its sealed answer must not show anywhere
                assert not [e for e in step.events if e.seats is None], pr.kind
            if hidden is not None and (still_sealed or (not step.events and new_st.phase == st.phase)) and any(
                    p.secret and not p.answered for p in game.prompts(new_st)):
                assert [strip_waiting(v) for v in other_views(new_st, pr.seat)] == hidden, pr.kind
        log.append((pr.seat, choice))
        st = new_st
    assert game.result(st) is not None, f"{mode} {seats} seats seed {seed} did not end"
    if full:
        rebuilt = engine.replay("samurai", seats, options, seed, log)
        assert rebuilt.model_dump_json() == st.model_dump_json(), "the replay does not rebuild the end"
    return len(log)


# ------------------------------------------------------------------ Tiny Epic Defenders

PASSING = {"pass", "end", "ready", "decline", "leave", "focus", "back"}
"""Answers that decide nothing: no prompt may offer only these (a seat is not asked just to pass)."""


def defenders_check_prompts(st: DefendersState) -> None:
    ps = DEFENDERS.prompts(st)
    assert len({p.seat for p in ps}) == len(ps), "one prompt per seat"
    for p in ps:
        assert p.input == "choose"
        assert 1 <= len(p.options) <= 25, (p.kind, len(p.options))
        values = [o.value for o in p.options]
        assert len(values) == len(set(values)), (p.kind, values)
        assert all(len(o.label) <= 80 for o in p.options)
        assert p.default in [o.choice for o in p.options], (p.kind, p.default)
        assert not p.secret
        assert any(o.choice.get("act") not in PASSING for o in p.options), f"{p.kind} offers only passing"


@dataclass(frozen=True)
class DefendersRun:
    state: DefendersState
    choices: int


def defenders_play(seats: int, mode: str, seed: int, full: bool, policy: str = "random",
                   difficulty: str = "normal") -> DefendersRun:
    """One Defenders match to its end; every step checks the prompts. With `full`: the input is
    never mutated, the JSON round-trip is exact and the replay rebuilds the end."""
    game = DEFENDERS
    options = {"mode": mode, "difficulty": difficulty}
    st = cast(DefendersState, game.setup(seats, game.options_model()(**options), seed))
    pol = game.policies()[policy]
    rng = random.Random(seed)
    log: list[tuple[int, dict[str, Any]]] = []
    for _ in range(30_000):
        if game.result(st) is not None:
            break
        defenders_check_prompts(st)
        ps = game.prompts(st)
        assert ps, f"no prompt and no result ({st.phase})"
        pr = rng.choice(ps)
        choice = pr.default if rng.random() < 0.1 else engine.decide(game, pol, st, pr, rng)
        before = st.model_dump_json() if full else None
        new = cast(DefendersState, game.submit(st, pr.seat, choice).state)
        assert new.step == st.step + 1
        if full:
            assert st.model_dump_json() == before, "submit mutated its input"
            assert DefendersState.model_validate_json(new.model_dump_json()) == new
        log.append((pr.seat, choice))
        st = new
    res = game.result(st)
    assert res is not None, f"{mode} {seats} seats seed {seed} did not end"
    assert res.winners in ([], list(range(seats)))
    if full:
        rebuilt = engine.replay("defenders", seats, options, seed, log)
        assert rebuilt.model_dump_json() == st.model_dump_json(), "the replay does not rebuild the end"
    return DefendersRun(st, len(log))


# ------------------------------------------------------------------ Tiny Big Wars

PLANT = 987654


def tinybigwars_planted(state: TBWState, seat: int) -> TBWState | None:
    """A copy with ``seat``'s sealed choice replaced by a distinctive plant, or None."""
    if state.phase == "force" and state.seats[seat].force is not None:
        s = TBWState.model_validate_json(state.model_dump_json())
        s.seats[seat].force = Force(heroes=[f"planted{PLANT}"], points=PLANT)
        return s
    cb = state.combat
    if cb is not None and seat in cb.seats and cb.stage == "energy" and cb.spend[cb.seats.index(seat)] is not None:
        s = TBWState.model_validate_json(state.model_dump_json())
        assert s.combat is not None
        s.combat.spend[cb.seats.index(seat)] = Energy(attack=PLANT, guard=PLANT)
        return s
    return None


def tinybigwars_check_privacy(state: TBWState) -> int:
    """Every sealed choice, replaced by a plant, leaves the public and the other seats' views
    identical and shows in its own seat's view. Returns how many sealed choices were checked."""
    game = TINY_BIG_WARS
    checked = 0
    for seat in range(state.seats_n):
        plant = tinybigwars_planted(state, seat)
        if plant is None:
            continue
        checked += 1
        for viewer in [None, *[x for x in range(state.seats_n) if x != seat]]:
            real, fake = game.view(state, viewer), game.view(plant, viewer)
            assert real == fake, f"seat {seat}'s sealed choice changes the view of {viewer}"
            assert str(PLANT) not in json.dumps(fake)
        assert str(PLANT) in json.dumps(game.view(plant, seat))
    return checked


def tinybigwars_play(seats: int, seed: int, round_limit: int) -> dict[str, Any]:
    """One random-legal Tiny Big Wars match, every step round-tripped and privacy-checked, one
    answer in ten the deadline default, sealed choices revised now and then; the log replays."""
    game = TINY_BIG_WARS
    options = {"round_limit": round_limit}
    state = cast(TBWState, game.setup(seats, engine.parse_options(game, options), seed))
    policy = RandomPolicy()
    log: list[tuple[int, dict[str, Any]]] = []
    sealed_checks = 0
    while game.result(state) is None:
        assert len(log) < 20_000
        open_prompts = game.prompts(state)
        assert open_prompts, "no prompt and no result"
        rng = engine.rng_for(seed, len(log), "test")
        waiting = [p for p in open_prompts if not p.answered] or open_prompts
        prompt = waiting[rng.randrange(len(waiting))]
        if prompt.secret and rng.random() < 0.2:  # revise a sealed choice now and then
            prompt = open_prompts[rng.randrange(len(open_prompts))]
        use_default = rng.random() < 0.1  # deadline defaults must be legal too
        choice = dict(prompt.default) if use_default else engine.decide(game, policy, state, prompt, rng)
        state = cast(TBWState, game.submit(state, prompt.seat, choice).state)
        log.append((prompt.seat, choice))
        again = TBWState.model_validate_json(state.model_dump_json())
        assert again == state and again.model_dump_json() == state.model_dump_json()
        sealed_checks += tinybigwars_check_privacy(state)
    rebuilt = engine.replay("tinybigwars", seats, options, seed, log)
    assert rebuilt.model_dump() == state.model_dump(), "the replay does not rebuild the end"
    return {"sealed_checks": sealed_checks, "rounds": state.round, "reason": state.reason, "choices": len(log)}
