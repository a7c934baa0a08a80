"""Step 10 through the fake Discord: Lantern Hunt is offered by /game new, hidden by DM, searched
in turn, and its phases and result are posted with its own pictures."""

from __future__ import annotations

from typing import Any

from tests.addgame.lanterns import LanternHunt
from tests.bot.wording_scan import message_problems
from tests.e2e.harness import factory, open_prompt, settings_for, wait_public_delivered
from tests.fakediscord import FakeDiscord, Player
from tests.fakediscord.models import Message

OVER = "The match is over"


def _new_command(fake: FakeDiscord) -> dict[str, Any]:
    game = next(command for command in fake.commands[fake.guilds[0].id] if command["name"] == "game")
    return next(option for option in game["options"] if option["name"] == "new")


async def _answer(player: Player, label: str) -> Message:
    """Click ``label`` in the player's open DM prompt; the DM it was in."""
    dm = await player.dm.wait_for(lambda m: open_prompt(m) and m.button(label) is not None)
    await player.dm.click(label, message=dm)
    return dm


async def test_lantern_hunt_offered_and_played_on_discord(lanterns: LanternHunt, fake: FakeDiscord, start_bot: Any,
                                                          alice: Player, bob: Player, tmp_path: Any) -> None:
    bot = await start_bot(factory(settings_for(fake, tmp_path / "w.db")))
    new = _new_command(fake)
    games = next(option for option in new["options"] if option["name"] == "game")["choices"]
    assert {"name": "Lantern Hunt", "value": "lanterns"} in games
    rounds = next(option for option in new["options"] if option["name"] == "round_limit")
    assert rounds["description"] == "end the match after this many rounds" and rounds["min_value"] == 1

    opened = await alice.slash("game new", game="lanterns", round_limit=1)
    assert "Lantern Hunt" in opened.content
    await alice.wait_for(lambda m: m.button("Join") is not None)
    await bob.click("Join")
    await alice.wait_for(lambda m: "bob joined" in m.content and m.button("Start"))
    await alice.click("Start")

    hide = await _answer(alice, "Hide in the Windmill")
    assert "hide your lantern" in hide.content and "you.png" in hide.files
    await _answer(bob, "Hide in the Old Well")
    await _answer(alice, "Search the Old Well")
    await _answer(bob, "Search the Windmill")

    await fake.wait_until(lambda: any(OVER in m.content for m in fake.channel_messages(fake.channel)), 30)
    await wait_public_delivered(bot)
    posts = fake.channel_messages(fake.channel)
    texts = [m.content for m in posts]
    hidden = next(i for i, text in enumerate(texts) if "every lantern is hidden" in text)
    reckoned = next(i for i, text in enumerate(texts) if "Round 1 reckoned" in text)
    # Where a lantern hides is the secret: no post says it before the reckoning tells everyone.
    assert not any("at the Windmill" in text or "at the Old Well" in text for text in texts[:reckoned])
    assert "Lanterns: alice at the Windmill, bob at the Old Well" in texts[reckoned]
    assert "bob finds 1 at the Windmill" in texts[reckoned] and "alice finds 1 at the Old Well" in texts[reckoned]
    for phase_post in (posts[hidden], posts[reckoned]):
        assert phase_post.image().size == (900, 420), "the phase post carries the game's own map"
    result = next(text for text in texts[reckoned:] if OVER in text)
    assert "bob" in result and "most glow after 1 round" in result, result
    # Alice's DM keeps what she chose; the rules of the game are at hand.
    assert any("Windmill" in m.content for m in alice.dm.messages)
    rules = await alice.slash("game rules", topic="Hiding", game="lanterns")
    assert "hides a lantern in one of the places, in secret" in rules.content
    assert message_problems(fake.messages.values()) == []
