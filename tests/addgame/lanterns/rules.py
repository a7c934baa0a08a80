"""Step 3: the rules as a phase table. Hiding is a sealed simultaneous step, searching a turn
step, the reckoning an automatic step (with the step's RNG for the wind), the end a result."""

from __future__ import annotations

from engine import IllegalChoice, Prompt
from engine.kit import ASKS_NOTHING, Asked, Flow, Phase, PhaseTable, Sealed
from engine.text import seat_ref
from tests.addgame.lanterns.content import places
from tests.addgame.lanterns.prompts import PlaceAnswer, hide_prompt, seek_prompt
from tests.addgame.lanterns.state import LanternState


def _place(answer: PlaceAnswer) -> str:
    if answer.place not in places():
        raise IllegalChoice(f"There is no place called {answer.place!r} in this hunt.")
    return answer.place


def _hide(flow: Flow[LanternState], seat: int, asked: Asked, answer: PlaceAnswer) -> None:
    flow.state.hidden[seat] = _place(answer)
    flow.emit("hidden", f"You hid your lantern in the {places()[answer.place].name}.", seats=[seat])


def _all_hidden(state: LanternState) -> bool:
    return all(place is not None for place in state.hidden)


def _to_seek(flow: Flow[LanternState]) -> None:
    flow.state.phase, flow.state.turn = "seek", 0
    flow.emit("all_hidden", f"Round {flow.state.round}: every lantern is hidden.", phase_end=True)


def _seek(flow: Flow[LanternState], seat: int, asked: Asked, answer: PlaceAnswer) -> None:
    state = flow.state
    state.searched[seat] = _place(answer)
    flow.emit("searched", f"{seat_ref(seat)} searches the {places()[answer.place].name}.")
    state.turn += 1
    if state.turn == state.seats:
        state.phase = "reckon"


def _reckon(flow: Flow[LanternState]) -> bool:
    """The automatic step: score the round, then the next round or the end."""
    state, table = flow.state, places()
    out = flow.rng.choice(sorted(table)) if state.options.wind == "gusty" else None
    lines = [f"A gust puts out the lanterns at the {table[out].name}."] if out else []
    for seeker, place in enumerate(state.searched):
        assert place is not None  # every seat has searched before the reckoning
        found = [hider for hider, hidden in enumerate(state.hidden) if hidden == place != out and hider != seeker]
        if found:
            state.score[seeker] += table[place].glow * len(found)
            lines.append(f"{seat_ref(seeker)} finds {len(found)} at the {table[place].name}.")
    state.revealed = [place or "" for place in state.hidden]
    hidden = ", ".join(f"{seat_ref(seat)} at the {table[place].name}" for seat, place in enumerate(state.revealed))
    scores = ", ".join(f"{seat_ref(seat)} {points}" for seat, points in enumerate(state.score))
    flow.emit("reckoning", f"Round {state.round} reckoned. Lanterns: {hidden}. {' '.join(lines)} Scores: {scores}.",
              phase_end=True)
    if state.round >= state.options.round_limit:
        best = max(state.score)
        state.winners = [seat for seat, points in enumerate(state.score) if points == best]
        state.phase = "over"
        flow.emit("over", "The hunt is over.")
        return True
    state.round += 1
    state.phase = "hide"
    state.hidden = [None] * state.seats
    state.searched = [None] * state.seats
    return True


def _hide_owed(state: LanternState) -> list[tuple[int, str]]:
    return [(seat, "hide") for seat in range(state.seats)]  # a sealed choice may be revised until all are in


def _seek_owed(state: LanternState) -> list[tuple[int, str]]:
    return [(state.turn, "seek")]


def _nothing_owed(state: LanternState, only: int | None) -> list[Prompt]:
    return []


PHASES: PhaseTable[LanternState] = PhaseTable({
    "hide": Phase(owed=_hide_owed, builders={"hide": hide_prompt}, handlers={"hide": _hide},
                  sealed=Sealed(all_in=_all_hidden, resolve=_to_seek)),
    "seek": Phase(owed=_seek_owed, builders={"seek": seek_prompt}, handlers={"seek": _seek}),
    "reckon": Phase(prompts=_nothing_owed, step=_reckon),
    "over": ASKS_NOTHING,
})
