"""An answer checked without its prompt (answer_check.named_option: an AP-card answer by its own
act, a defence or a target among the few it may be) takes exactly what the full prompt takes:
at every step of seeded matches, every option of every card, defence and target prompt and
forged variants of them (another road, escort, Defender, source, target or act; a bool for a number)
get the same answer or the same refusal, word for word, as the check against the whole prompt
did before; and a wrong answer is still refused, changing nothing."""

from __future__ import annotations

import random
from typing import Any

import pytest

from bot.simulate import simulate
from engine.contract import IllegalChoice, Prompt
from engine.defenders import actions, card_options, effects, refusals
from engine.defenders.answer_check import CARD_KINDS, most_options, named_option
from engine.defenders.board import CAPITAL
from engine.defenders.state import DefendersState
from engine.kit import Asked
from engine.validate import same_json
from tests.engine.defenders.helpers import G, all_card, calm, new, turn


def full_prompt_check(state: DefendersState, seat: int, prompt: Prompt, choice: object) -> dict[str, Any]:
    """The check every answer had before: one of the prompt's options, else the reason."""
    found = next((option for option in prompt.options
                  if option.choice == choice and same_json(option.choice, choice)), None)
    if found is None:
        raise IllegalChoice(refusals.why_not(state, seat, prompt, choice))
    return dict(found.choice)


def uncut_count(state: DefendersState, seat: int, kind: str) -> int:
    """How many options the seat's card prompt would list before its closing one, uncut."""
    act = state.active
    assert act is not None
    count = 0
    for defender in state.of_seat(seat):
        everything = kind != "react" and (act.card == "all" or (act.defender or 0) == defender.idx)
        count += len(card_options.defender_actions(state, defender, act.card == "defender") if everything
                     else card_options.ability_options(state, defender, own_turn=False, ap=act.ap))
    return count


def outcome(check: Any, *args: object) -> tuple[str, object]:
    try:
        return "taken", check(*args)
    except IllegalChoice as refused:
        return "refused", str(refused)


def forgeries(state: DefendersState, choice: dict[str, Any], rng: random.Random) -> list[object]:
    """Answers close to a legal one: each field changed to another value it could hold."""
    places = [CAPITAL, *state.ring, "atlantis"]
    sources = [src for defender in state.defenders for src in effects.sources(state, defender)] + ["skill:none"]
    variants: list[object] = [
        {**choice, "to": rng.choice(places)}, {**choice, "escort": rng.randrange(5)}, {**choice, "escort": True},
        {**choice, "d": rng.randrange(-1, len(state.defenders) + 1)}, {**choice, "d": True},
        {**choice, "d": float(choice.get("d", 0))}, {**choice, "src": rng.choice(sources)},
        {**choice, "act": rng.choice(sorted(refusals.KNOWN_ACTS))}, {**choice, "extra": 1},
        {**choice, "target": rng.choice([*places, None, 0, 1, 1.0, True])},
        {key: value for key, value in choice.items() if key != "to"}, [choice],
    ]
    return variants


@pytest.mark.parametrize(("seats", "seed", "policy", "options"), [
    (2, 1, "heuristic", {}), (1, 0, "random", {}), (3, 3, "random", {}), (4, 2, "heuristic", {"mode": "campaign"}),
    (2, 5, "random", {"difficulty": "hard"}), (1, 4, "heuristic", {}),
])
def test_the_act_check_takes_and_refuses_what_the_full_prompt_does(
        seats: int, seed: int, policy: str, options: dict[str, str]) -> None:
    rng = random.Random(seed)
    quick = checked = 0

    def on_step(state: object, _events: object) -> None:
        nonlocal quick, checked
        assert isinstance(state, DefendersState)
        if state.phase != "play":
            return
        for prompt in actions.prompts(state):
            if prompt.kind not in (*CARD_KINDS, "defend", "target"):
                continue
            if prompt.kind in CARD_KINDS:
                assert most_options(state, prompt.seat, prompt.kind) >= uncut_count(state, prompt.seat, prompt.kind)
            candidates: list[object] = [option.choice for option in prompt.options]
            for choice in rng.sample(candidates, min(3, len(candidates))):
                candidates += forgeries(state, choice, rng)
            for choice in candidates:
                before = outcome(full_prompt_check, state, prompt.seat, prompt, choice)
                fast = named_option(state, prompt.seat, prompt.kind, choice)
                if fast is not None:
                    quick += 1
                    assert before == ("taken", fast), (state.step, choice)
                asked = actions.PHASES.asked_of(state, prompt.seat)
                assert asked is not None and asked.kind == prompt.kind
                assert outcome(actions.picked, state, prompt.seat, asked, choice) == before, (state.step, choice)
                built = Asked.of(prompt)
                assert outcome(actions.picked, state, prompt.seat, built, choice) == before, (state.step, choice)
                checked += 1

    simulate("defenders", seats, seed, policy, options=options, on_step=on_step)
    assert checked > 100
    assert quick > checked / 10


def test_a_crowded_prompt_is_checked_against_the_whole_prompt() -> None:
    """Two Defenders with three escort counts on each of three roads do not fit in 25 options:
    the prompt offers one escort count a road, so the act check takes nothing and an escort the
    prompt left out is refused, as before."""
    state = all_card(calm(new(seats=1)))
    state.regions["forest"].caravans, state.regions["forest"].threat = 3, 1
    for defender in state.defenders:
        defender.region, defender.xp = "forest", 5
    prompt = actions.prompts(state)[0]
    values = [option.value for option in prompt.options]
    assert "move:0:ruins:3" in values and "move:0:ruins:1" not in values
    left_out = {"act": "move", "d": 0, "to": "ruins", "escort": 1}
    for choice in [option.choice for option in prompt.options] + [left_out]:
        assert named_option(state, 0, "all", choice) in (None, {"act": "pass"})
        asked = actions.PHASES.asked_of(state, 0)
        assert asked is not None
        assert outcome(actions.picked, state, 0, asked, choice) == outcome(full_prompt_check, state, 0, prompt, choice)
    with pytest.raises(IllegalChoice, match="AP"):
        G.submit(state, 0, left_out)


def test_a_wrong_answer_is_still_refused_and_changes_nothing() -> None:
    state = turn(calm(new(seats=2)), d=0)
    state.regions["forest"].threat = 1
    state.defenders[0].region = "forest"
    stored = state.model_dump_json()
    wrong = [
        ({"act": "move", "d": 0, "to": "mountains", "escort": 0}, "You can only move to an adjacent region."),
        ({"act": "move", "d": 0, "to": "atlantis", "escort": 0}, "There is no region 'atlantis'."),
        ({"act": "move", "d": 0, "to": "ruins", "escort": 1}, "You do not have the AP"),
        ({"act": "secure", "d": 1}, "is not your Defender."),
        ({"act": "secure", "d": True}, "There is no Defender True."),
        ({"act": "use", "d": 0, "src": "skill:none"}, "You cannot use now: this is a turn decision."),
        ({"act": "move", "d": 0, "to": "ruins", "escort": True}, "You do not have the AP"),
        ({"act": "pass"}, "You cannot pass now: this is a turn decision."),
    ]
    for choice, words in wrong:
        with pytest.raises(IllegalChoice, match=words):
            G.submit(state, 0, choice)
        assert state.model_dump_json() == stored
    taken = G.submit(state, 0, {"act": "secure", "d": 0}).state
    assert isinstance(taken, DefendersState) and taken.regions["forest"].threat == 0
