"""What a seat may know, and the one way a driver asks a policy for a choice.

A policy never receives the true state. `decide` builds the seat's *information state*
(``game.information(state, seat)``): the state with everything that seat may not know replaced
by a canonical value (other seats' sealed choices cleared, hidden screens emptied, unseen cards
pooled and sorted, the match seed replaced by a public stand-in so future dice cannot be
foreseen). Two states that differ only in what the seat may not know give equal information
states, so an AI is honest by construction: it cannot read what it is not shown.

An AI that wants a plausible full world (a search AI's rollouts) deals one from the
information state with its own RNG: ``game.determinize(information, seat, rng)`` puts the
pooled unseen cards back at random, and gives the world a fresh seed for its dice.
"""

from __future__ import annotations

import functools
import random
from typing import Any, Protocol, TypeVar

from pydantic import BaseModel

from engine.clone import set_dict, set_extra, set_fields_set, set_private
from engine.contract import Game, Prompt, State
from engine.rng import derive_seed

Model = TypeVar("Model", bound=BaseModel)

INFORMATION_SALT = "information"
"""The salt of the public stand-in seed an information state carries (`public_seed`)."""


class Policy(Protocol):
    """An AI: answers one prompt of its seat from that seat's information state. It must not
    change that state (it shares what the seat may see with the true state: `shared`); a
    policy that plays moves ahead plays them on a copy or on a `determinize`d world."""

    def choose(self, state: Any, prompt: Prompt, rng: random.Random) -> dict[str, Any]: ...


@functools.lru_cache(maxsize=256)
def public_seed(seed: int) -> int:
    """The seed an information state carries instead of the match's: fixed for a match (a
    policy may draw per-match preferences from it) but one-way, so neither the deck order
    nor any future roll can be worked out from it. Kept per seed: every decision asks."""
    return derive_seed(seed, 0, INFORMATION_SALT)


def information(game: Game, state: State, seat: int) -> State:
    """``seat``'s information state of ``state`` (a new object: ``state`` is never changed)."""
    return game.information(state, seat)


def decide(game: Game, policy: Policy, state: State, prompt: Prompt, rng: random.Random) -> dict[str, Any]:
    """The choice ``policy`` makes for ``prompt``, seeing only what ``prompt.seat`` may know.

    Every driver (the service's AI seats, the simulator, benchmarks and tests) asks a policy
    through here and nowhere else."""
    return dict(policy.choose(game.information(state, prompt.seat), prompt, rng))


def shared(model: Model, **changes: Any) -> Model:
    """A new ``model`` holding ``changes`` and sharing every other value with ``model``: an
    information state copies only what it hides, since a full copy of a state would cost more
    than most policies' choices."""
    new = _new_object(model.__class__)
    values = model.__dict__.copy()
    values.update(changes)
    set_dict(new, values)
    set_fields_set(new, model.__pydantic_fields_set__.copy())
    set_extra(new, model.__pydantic_extra__)
    set_private(new, model.__pydantic_private__)
    return new


_new_object = object.__new__


def sorted_pool(*piles: list[str]) -> list[str]:
    """The cards of ``piles`` as one sorted multiset: where each one lies is forgotten."""
    return sorted(card for pile in piles for card in pile)


def deal_back(pool: list[str], sizes: list[int]) -> list[list[str]]:
    """``pool`` cut into consecutive piles of ``sizes`` (the canonical layout of unseen cards)."""
    piles = []
    start = 0
    for size in sizes:
        piles.append(pool[start:start + size])
        start += size
    if start != len(pool):
        raise ValueError(f"{len(pool)} unseen cards do not fill piles of {sizes}")
    return piles


def shuffled(pool: list[str], rng: random.Random) -> list[str]:
    """A random order of ``pool`` (a determinized deal of unseen cards)."""
    cards = list(pool)
    rng.shuffle(cards)
    return cards
