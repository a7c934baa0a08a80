"""A small complete cooperative game for service and Discord tests ("coop").

Everyone wins or loses together. Each round has three steps:

1. **build**: a pool of ``ap`` action points is shared by the whole team. Every seat that
   has not passed gets the same *shared* prompt ("spend 1 AP to build a wall" / "pass");
   the first answer wins, and the others' prompts change (the pool shrinks) or stay (a pass
   does not change what the others see). The step ends when the pool is empty or all passed.
2. **attack**: a monster attacks. Only the seats *present* (those who built this round, or
   everyone if nobody did) get a *shared* prompt: the first "defend" repels it and closes the
   others' prompts; a "decline" removes only that seat. If all decline, the city is hit.
3. **solo**: one seat (round-robin) takes a solo turn (an owed prompt). Meanwhile every other
   seat has an *optional* "cheer" prompt: cheering adds a wall, passing drops the prompt, and
   the prompt disappears anyway when the solo turn ends. The game never waits for it.

After ``rounds`` rounds the team wins if the city still stands; it loses at 0 health.
"""

from __future__ import annotations

import random
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from engine import Event, IllegalChoice, Option, Prompt, Result, Standing, State, Step, parse_choice, rng_for
from engine.information import public_seed
from engine.kit.info import GameInfo


class CoopOptions(BaseModel):
    model_config = ConfigDict(extra="forbid")
    rounds: int = Field(default=2, ge=1, le=1000)
    ap: int = Field(default=3, ge=0, le=50)
    health: int = Field(default=3, ge=1, le=20)


class CoopState(State):
    seats: int
    rounds: int
    ap: int
    round: int = 1
    phase: Literal["build", "attack", "solo", "over"] = "build"
    health: int
    walls: int = 0
    pool: int = 0
    passed: list[int] = Field(default_factory=list)
    built: list[int] = Field(default_factory=list)
    present: list[int] = Field(default_factory=list)
    """Seats still able to defend in the attack step (declines drop out)."""
    cheered: list[int] = Field(default_factory=list)
    """Seats whose optional cheer is used up (cheered or passed) this solo turn."""


class Action(BaseModel):
    model_config = ConfigDict(extra="forbid")
    action: str


BUILD = {"build", "pass"}
ATTACK = {"defend", "decline"}
SOLO = {"fortify", "scout"}
CHEER = {"cheer", "skip"}


def solo_seat(state: CoopState) -> int:
    return (state.round - 1) % state.seats


def fair_share(state: CoopState) -> int:
    return -(-state.ap // state.seats)


class RandomPolicy:
    def choose(self, state: CoopState, prompt: Prompt, rng: random.Random) -> dict[str, Any]:
        return rng.choice(prompt.options).choice


class HeuristicPolicy:
    """Builds its fair share of the pool, always defends, fortifies, cheers."""

    def choose(self, state: CoopState, prompt: Prompt, rng: random.Random) -> dict[str, Any]:
        if prompt.kind == "build":
            mine = state.built[prompt.seat]
            return {"action": "build" if state.pool > 0 and mine < fair_share(state) else "pass"}
        return {"attack": {"action": "defend"}, "solo": {"action": "fortify"},
                "cheer": {"action": "cheer"}}[prompt.kind]


def _opt(value: str, label: str) -> Option:
    return Option(value=value, label=label, choice={"action": value})


class CoopGame:
    key = "coop"
    title = "Co-op Wall Builders"
    seats = range(1, 5)
    info = GameInfo(key=key, title=title, seats=seats)

    def options_model(self) -> type[BaseModel]:
        return CoopOptions

    def state_model(self) -> type[State]:
        return CoopState

    def policies(self) -> dict[str, Any]:
        return {"random": RandomPolicy(), "heuristic": HeuristicPolicy()}

    def information(self, state: CoopState, seat: int) -> CoopState:
        """Nothing is hidden at this table but the seed (the dice to come)."""
        return state.model_copy(update={"seed": public_seed(state.seed)}, deep=True)

    def determinize(self, state: CoopState, seat: int, rng: random.Random) -> CoopState:
        return state.model_copy(update={"seed": rng.getrandbits(63)}, deep=True)

    def setup(self, seats: int, options: BaseModel, seed: int) -> CoopState:
        assert isinstance(options, CoopOptions)
        if seats not in self.seats:
            raise IllegalChoice("the co-op game takes 1 to 4 players")
        return CoopState(seed=seed, seats=seats, rounds=options.rounds, ap=options.ap, health=options.health,
                         pool=options.ap, built=[0] * seats)

    def prompts(self, state: CoopState) -> list[Prompt]:
        if state.phase == "build":
            if state.pool <= 0:
                return []
            return [
                Prompt(seat=s, kind="build", shared=True, answer=Action,
                       text=f"Round {state.round}: the team has {state.pool} AP left; spend 1 to build a wall?",
                       options=[_opt("build", "Spend 1 AP: build"), _opt("pass", "Pass")],
                       default={"action": "pass"})
                for s in range(state.seats) if s not in state.passed
            ]
        if state.phase == "attack":
            return [
                Prompt(seat=s, kind="attack", shared=True, answer=Action,
                       text=f"Round {state.round}: a monster attacks! Any one of you may defend.",
                       options=[_opt("defend", "Defend"), _opt("decline", "Decline")],
                       default={"action": "decline"})
                for s in state.present
            ]
        if state.phase == "solo":
            hero = solo_seat(state)
            out = [Prompt(seat=hero, kind="solo", answer=Action, text=f"Round {state.round}: your solo turn",
                          options=[_opt("fortify", "Fortify"), _opt("scout", "Scout")],
                          default={"action": "fortify"})]
            out += [
                Prompt(seat=s, kind="cheer", optional=True, answer=Action,
                       text=f"Round {state.round}: cheer [[seat:{hero}]] on during their solo turn?",
                       options=[_opt("cheer", "Cheer (+1 wall)"), _opt("skip", "Not now")],
                       default={"action": "skip"})
                for s in range(state.seats) if s != hero and s not in state.cheered
            ]
            return out
        return []

    def submit(self, state: CoopState, seat: int, choice: dict[str, Any]) -> Step:
        mine = next((p for p in self.prompts(state) if p.seat == seat), None)
        if mine is None:
            raise IllegalChoice("you have nothing to decide now")
        action = parse_choice(Action, choice).action
        if action not in {o.value for o in mine.options}:
            raise IllegalChoice(f"'{action}' is not one of the choices")
        new = state.model_copy(deep=True)
        new.step += 1
        events: list[Event] = []
        if mine.kind == "build":
            if action == "build":
                new.pool -= 1
                new.walls += 1
                new.built[seat] += 1
                events.append(Event(kind="build", text=f"[[seat:{seat}]] spends 1 AP and builds a wall "
                                                       f"({new.pool} AP left)."))
            else:
                new.passed.append(seat)
                events.append(Event(kind="pass", text=f"[[seat:{seat}]] passes."))
            if new.pool <= 0 or len(new.passed) == state.seats:
                new.phase = "attack"
                new.present = [s for s in range(state.seats) if new.built[s]] or list(range(state.seats))
                events.append(Event(kind="attack", text="A monster attacks the walls!", phase_end=True))
        elif mine.kind == "attack":
            if action == "defend":
                events.append(Event(kind="defend", text=f"[[seat:{seat}]] defends: the monster flees."))
                self._to_solo(new, events)
            else:
                new.present = [s for s in state.present if s != seat]
                events.append(Event(kind="decline", text=f"[[seat:{seat}]] does not defend."))
                if not new.present:
                    damage = 1 + rng_for(state.seed, state.step).randint(0, 1)
                    if new.walls >= damage:
                        new.walls -= damage
                        events.append(Event(kind="hit", text=f"Nobody defends: the walls take {damage}."))
                    else:
                        new.health -= damage
                        events.append(Event(kind="hit", text=f"Nobody defends: the city takes {damage}."))
                    if new.health <= 0:
                        new.phase = "over"
                        events.append(Event(kind="over", text="The city falls.", phase_end=True))
                    else:
                        self._to_solo(new, events)
        elif mine.kind == "cheer":
            new.cheered.append(seat)
            if action == "cheer":
                new.walls += 1
                events.append(Event(kind="cheer", text=f"[[seat:{seat}]] cheers: +1 wall."))
            else:
                events.append(Event(kind="skip", text="You let the moment pass.", seats=[seat]))
        else:  # solo
            if action == "fortify":
                new.walls += 1
            events.append(Event(kind="solo", text=f"[[seat:{seat}]] takes a solo turn: {action}."))
            if state.round >= state.rounds:
                new.phase = "over"
                events.append(Event(kind="over", text="The last night passes.", phase_end=True))
            else:
                new.round += 1
                new.phase = "build"
                new.pool = state.ap
                new.passed = []
                new.built = [0] * state.seats
                new.present = []
                new.cheered = []
                events.append(Event(kind="round", text=f"Round {new.round} begins.", phase_end=True))
                if new.pool <= 0:
                    new.phase = "attack"
                    new.present = list(range(state.seats))
        return Step(state=new, events=events)

    @staticmethod
    def _to_solo(new: CoopState, events: list[Event]) -> None:
        new.phase = "solo"
        new.present = []
        new.cheered = []
        events.append(Event(kind="solo-start", text=f"[[seat:{solo_seat(new)}]] sets out alone."))

    def view(self, state: CoopState, seat: int | None) -> dict[str, Any]:
        data: dict[str, Any] = {
            "game": "coop", "round": state.round, "phase": state.phase,
            "phase_label": f"Round {state.round} - {state.phase}",
            "health": state.health, "walls": state.walls, "pool": state.pool,
            "passed": list(state.passed), "present": list(state.present),
        }
        if seat is not None:
            data["you"] = {"seat": seat, "built": state.built[seat]}
        return data

    def standing(self, view: dict[str, Any]) -> Standing:
        """No turns and no score to show on the board."""
        return Standing()

    def result(self, state: CoopState) -> Result | None:
        if state.phase != "over":
            return None
        if state.health > 0:
            return Result(winners=list(range(state.seats)), reason=f"the city stands ({state.walls} walls)")
        return Result(winners=[], reason="the city fell")


GAME = CoopGame()
