"""GameInfo and the KitGame base: what the service reads about a game, and the contract plumbing."""

from __future__ import annotations

import pytest
from pydantic import BaseModel

import engine
from engine.contract import IllegalChoice
from engine.kit import GameInfo, KitGame, WrongGame
from engine.tinybigwars.state import Options


def test_the_defaults_are_those_the_callers_fall_back_to() -> None:
    """bot/ reads these with getattr defaults; a game that declares nothing must read the same."""
    info = GameInfo(key="toy", title="Toy", seats=range(2, 3))
    assert (info.modes, info.cooperative, info.team) == ((), False, "the players")


def test_player_counts_outside_the_range_are_refused_by_name() -> None:
    info = GameInfo(key="toy", title="Toy War", seats=range(2, 5))
    assert (info.fewest, info.most) == (2, 4)
    info.check_seats(2)
    info.check_seats(4)
    with pytest.raises(ValueError, match="Toy War takes 2 to 4 players, not 5"):
        info.check_seats(5)
    with pytest.raises(ValueError, match="not 1"):
        info.check_seats(1)


@pytest.mark.parametrize("seats", [range(0), range(0, 3), range(1, 6, 2)])
def test_a_seat_range_must_be_plain_player_counts(seats: range) -> None:
    with pytest.raises(ValueError, match="seats"):
        GameInfo(key="toy", title="Toy", seats=seats)


EXPECTED = {
    "tinybigwars": ("Tiny Big Wars", range(2, 5), (), False, "the players"),
    "samurai": ("Samurai Swords", range(3, 6), ("base", "quickstart", "lwtv"), False, "the players"),
    "defenders": ("Tiny Epic Defenders", range(1, 5), ("single", "campaign"), True, "the Defenders"),
}
FACE_DOWN = {
    "tinybigwars": (),  # its hidden information is the sealed force building and the dice
    "samurai": ("deck",),
    "defenders": ("turn_deck", "horde", "leftover_enemies", "leftover_dire", "caravan_pile", "skill_deck",
                  "artifact_deck", "war_unused"),
}
PICKS = {"tinybigwars": ("heroes", "hero"), "samurai": None, "defenders": ("defenders", "defender")}


@pytest.mark.parametrize("key", sorted(EXPECTED))
def test_every_game_declares_its_info_and_exposes_it(key: str) -> None:
    game = engine.get(key)
    assert isinstance(game, KitGame) and isinstance(game, engine.Game)
    title, seats, modes, cooperative, team = EXPECTED[key]
    assert game.info == GameInfo(key=key, title=title, seats=seats, modes=modes, cooperative=cooperative, team=team,
                                 face_down=FACE_DOWN[key], picks=PICKS[key])
    assert (game.key, game.title, game.seats) == (key, title, seats)
    assert (game.modes, game.cooperative, game.team) == (modes, cooperative, team)
    with pytest.raises(AttributeError):
        game.cooperative = not cooperative  # type: ignore[misc]


@pytest.mark.parametrize("key", sorted(EXPECTED))
def test_setup_refuses_a_player_count_the_game_is_not_made_for(key: str) -> None:
    game = engine.get(key)
    with pytest.raises(ValueError, match=f"{game.title} takes {game.info.fewest} to {game.info.most} players"):
        game.setup(game.info.most + 1, game.options_model()(), 1)


@pytest.mark.parametrize("key", sorted(EXPECTED))
def test_another_games_state_is_refused_by_every_method(key: str) -> None:
    game = engine.get(key)
    other = next(other for other in EXPECTED if other != key)
    foreign = engine.get(other).setup(engine.get(other).info.fewest + 1, engine.get(other).options_model()(), 3)
    for call in (game.prompts, game.result, lambda state: game.view(state, None),
                 lambda state: game.submit(state, 0, {})):
        with pytest.raises(WrongGame, match=f"This is not a {game.title} match"):
            call(foreign)


def test_wrong_game_is_caught_by_both_former_exception_types() -> None:
    assert issubclass(WrongGame, IllegalChoice) and issubclass(WrongGame, TypeError)


def test_options_come_from_a_model_a_dict_or_nothing() -> None:
    game = engine.get("tinybigwars")
    own = Options(to_win=9)
    assert game.options(own) is own
    assert game.options({"to_win": 9}) == own
    assert game.options(None) == Options()

    class Foreign(BaseModel):
        to_win: int = 9

    converted = game.options(Foreign(to_win=9))
    assert type(converted) is Options and converted == own


def test_copy_is_equal_and_independent() -> None:
    game = engine.get("defenders")
    state = game.setup(2, game.options_model()(), 8)
    copy = game.copy(state)
    assert copy == state and copy is not state
    copy.log.append("only in the copy")
    assert "only in the copy" not in state.log
    with pytest.raises(WrongGame):
        engine.get("samurai").copy(state)
