"""A small complete game for store and service tests ("toy").

Each round: every seat secretly bids gold (sealed, revisable until all have bid); the
highest bid (lowest seat on ties) moves first; then, in turn, each seat either gathers
gold or raids for points (a die roll from the derived RNG). After ``rounds`` rounds the
highest score wins. It exercises secret simultaneous steps, turn steps, revisions,
randomness, phase ends and a result, like a real game would.
"""

from __future__ import annotations

import random
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from engine import (
    Event,
    IllegalChoice,
    NumberField,
    Option,
    Prompt,
    Result,
    Standing,
    State,
    Step,
    parse_choice,
    rng_for,
)
from engine.information import public_seed
from engine.kit.info import GameInfo


class ToyOptions(BaseModel):
    model_config = ConfigDict(extra="forbid")
    rounds: int = Field(default=3, ge=1, le=10_000)
    start_gold: int = Field(default=5, ge=0, le=100)
    move_hours: float | None = Field(default=None, gt=0)
    """The move phase's own deadline (a phase that sets its own time)."""


class ToyState(State):
    seats: int
    rounds: int
    move_hours: float | None = None
    round: int = 1
    phase: Literal["bid", "move", "over"] = "bid"
    gold: list[int]
    score: list[int]
    bids: dict[str, int] = Field(default_factory=dict)
    order: list[int] = Field(default_factory=list)
    turn: int = 0


class Bid(BaseModel):
    model_config = ConfigDict(extra="forbid")
    bid: int = Field(ge=0)


class Move(BaseModel):
    model_config = ConfigDict(extra="forbid")
    action: Literal["gather", "raid"]


class RandomPolicy:
    def choose(self, state: ToyState, prompt: Prompt, rng: random.Random) -> dict[str, Any]:
        if prompt.kind == "bid":
            return {"bid": rng.randint(0, state.gold[prompt.seat])}
        return rng.choice(prompt.options).choice


class HeuristicPolicy:
    def choose(self, state: ToyState, prompt: Prompt, rng: random.Random) -> dict[str, Any]:
        if prompt.kind == "bid":
            return {"bid": state.gold[prompt.seat] // 3}
        return {"action": "raid" if state.gold[prompt.seat] >= 2 else "gather"}


class ToyGame:
    key = "toy"
    title = "Toy Bidding War"
    seats = range(2, 5)
    info = GameInfo(key=key, title=title, seats=seats)

    def options_model(self) -> type[BaseModel]:
        return ToyOptions

    def state_model(self) -> type[State]:
        return ToyState

    def policies(self) -> dict[str, Any]:
        return {"random": RandomPolicy(), "heuristic": HeuristicPolicy()}

    def information(self, state: ToyState, seat: int) -> ToyState:
        """What ``seat`` may know: other seats' sealed bids are a placeholder 0 (they did bid)."""
        info = state.model_copy(deep=True)
        info.seed = public_seed(state.seed)
        info.bids = {key: bid if key == str(seat) else 0 for key, bid in state.bids.items()}
        return info

    def determinize(self, state: ToyState, seat: int, rng: random.Random) -> ToyState:
        world = state.model_copy(deep=True)
        world.seed = rng.getrandbits(63)
        world.bids = {key: bid if key == str(seat) else rng.randint(0, world.gold[int(key)])
                      for key, bid in state.bids.items()}
        return world

    def setup(self, seats: int, options: BaseModel, seed: int) -> ToyState:
        assert isinstance(options, ToyOptions)
        if seats not in self.seats:
            raise IllegalChoice(f"the toy game takes 2 to 4 players, not {seats}")
        return ToyState(
            seed=seed, seats=seats, rounds=options.rounds, move_hours=options.move_hours,
            gold=[options.start_gold] * seats, score=[0] * seats,
        )

    def prompts(self, state: ToyState) -> list[Prompt]:
        if state.phase == "bid":
            return [
                Prompt(
                    seat=s, kind="bid", text=f"Round {state.round}: bid gold in secret (you have {state.gold[s]})",
                    answer=Bid, input="numbers", secret=True, answered=str(s) in state.bids,
                    fields=[NumberField(name="bid", label="Bid", min=0, max=state.gold[s])],
                    default={"bid": 0},
                )
                for s in range(state.seats)
            ]
        if state.phase == "move":
            seat = state.order[state.turn]
            return [
                Prompt(
                    seat=seat, kind="move", text=f"Round {state.round}: gather gold or raid",
                    answer=Move,
                    options=[
                        Option(value="gather", label="Gather", choice={"action": "gather"}),
                        Option(value="raid", label="Raid", choice={"action": "raid"}),
                    ],
                    default={"action": "gather"},
                    deadline_hours=state.move_hours,
                )
            ]
        return []

    def submit(self, state: ToyState, seat: int, choice: dict[str, Any]) -> Step:
        new = state.model_copy(deep=True)
        if state.phase == "bid":
            if not 0 <= seat < state.seats:
                raise IllegalChoice("no such seat")
            bid = parse_choice(Bid, choice).bid
            if bid > state.gold[seat]:
                raise IllegalChoice(f"you only have {state.gold[seat]} gold")
            revised = str(seat) in state.bids
            new.bids = {**state.bids, str(seat): bid}
            new.step += 1
            events = [Event(kind="bid", text=f"Seat {seat} {'revised a' if revised else 'placed a'} sealed bid.")]
            events.append(Event(kind="own-bid", text=f"Your bid: {bid}", seats=[seat]))
            if len(new.bids) == state.seats:
                bids = [new.bids[str(s)] for s in range(state.seats)]
                first = max(range(state.seats), key=lambda s: (bids[s], -s))
                new.gold = [g - b for g, b in zip(state.gold, bids, strict=True)]
                new.order = [(first + i) % state.seats for i in range(state.seats)]
                new.bids = {}
                new.phase = "move"
                new.turn = 0
                events.append(Event(kind="reveal", text=f"Bids revealed: {bids}; seat {first} moves first.",
                                    phase_end=True, data={"bids": bids}))
            return Step(state=new, events=events)
        if state.phase == "move":
            if seat != state.order[state.turn]:
                raise IllegalChoice("it is not your turn")
            action = parse_choice(Move, choice).action
            rng = rng_for(state.seed, state.step)
            roll = rng.randint(1, 6)
            if action == "gather":
                new.gold = [g + (1 + roll % 3 if s == seat else 0) for s, g in enumerate(state.gold)]
                text = f"Seat {seat} gathers gold."
            else:
                new.score = [p + (roll if s == seat else 0) for s, p in enumerate(state.score)]
                new.gold = [g - (1 if s == seat and g > 0 else 0) for s, g in enumerate(state.gold)]
                text = f"Seat {seat} raids and rolls {roll}."
            new.step += 1
            events = [Event(kind=action, text=text, data={"roll": roll})]
            new.turn += 1
            if new.turn == state.seats:
                new.turn = 0
                new.order = []
                if state.round >= state.rounds:
                    new.phase = "over"
                    events.append(Event(kind="over", text="The war is over.", phase_end=True))
                else:
                    new.round += 1
                    new.phase = "bid"
                    events.append(Event(kind="round", text=f"Round {new.round} begins.", phase_end=True))
            return Step(state=new, events=events)
        raise IllegalChoice("the game is over")

    def view(self, state: ToyState, seat: int | None) -> dict[str, Any]:
        data: dict[str, Any] = {
            "game": "toy", "round": state.round, "phase": state.phase,
            "phase_label": f"Round {state.round} - {state.phase}",
            "gold": list(state.gold), "score": list(state.score),
            "bid_ready": sorted(int(s) for s in state.bids),
        }
        if seat is not None:
            data["you"] = {"seat": seat, "bid": state.bids.get(str(seat))}
        return data

    def standing(self, view: dict[str, Any]) -> Standing:
        """No turns and no score to show on the board."""
        return Standing()

    def result(self, state: ToyState) -> Result | None:
        if state.phase != "over":
            return None
        best = max(state.score)
        winners = [s for s, p in enumerate(state.score) if p == best]
        return Result(winners=winners, reason=f"most points ({best})",
                      scores=dict(enumerate(state.score)), draw=len(winners) > 1)


GAME = ToyGame()
