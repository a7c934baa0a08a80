"""After a match: the replay GIF in its channel (once), `/game history`, `/game stats` and
`/game leaderboard`, refusals included (stats for nobody, a game nobody played)."""

from __future__ import annotations

import io
import re
from typing import Any

from PIL import Image

from tests.e2e.harness import AutoPlayer, factory, play_until, settings_for
from tests.e2e.test_match import OVER, bot_posts, drained
from tests.fakediscord import FakeDiscord, Player

SEED = 3
"""A known shuffle: the match (and who wins it) is the same on every run."""


async def short_match(fake: FakeDiscord, start_bot: Any, alice: Player, bob: Player, db: Any, *,
                      ai: bool = False) -> Any:
    """alice and bob (and an AI if asked) play a one-round Tiny Big Wars match to its end."""
    bot = await start_bot(factory(settings_for(fake, db)))
    await alice.slash("game new", game="tinybigwars", round_limit=1, seed=SEED)
    await alice.wait_for(lambda m: m.button("Join") is not None)
    await bob.click("Join")
    await alice.wait_for(lambda m: "bob joined" in m.content and m.button("Start"))
    if ai:
        await alice.click("Add AI")
        await alice.wait_for(lambda m: "AI" in m.content and "joined" in m.content and m.button("Start"))
    await alice.click("Start")
    autos = [AutoPlayer(alice), AutoPlayer(bob)]
    await play_until(fake, autos, lambda: any(OVER in m.content for m in fake.channel_messages(fake.channel)))
    return bot


def replay_posts(fake: FakeDiscord) -> list[Any]:
    return [m for m in bot_posts(fake, fake.channel) if "replay.gif" in m.files]


async def test_after_a_match_history_stats_and_leaderboard(fake, start_bot, alice, bob, carol, tmp_path) -> None:
    bot = await short_match(fake, start_bot, alice, bob, tmp_path / "w.db")
    gif_post = await alice.wait_for(lambda m: "replay.gif" in m.files)
    await drained(bot)
    assert len(replay_posts(fake)) == 1, "the replay is posted once"
    over = [m for m in bot_posts(fake, fake.channel) if OVER in m.content][-1]  # (the lobby post tells it too)
    assert over.id == gif_post.id, "the replay goes onto the result's post: one post for the end"
    assert list(over.files) == ["replay.gif"], "in place of the final map (the last phase post shows it)"
    image = Image.open(io.BytesIO(gif_post.files["replay.gif"]))
    assert image.format == "GIF" and image.n_frames >= 2
    won = re.search(r"The match is over: (.+?) won", over.content)
    assert won is not None, over.content
    winners = set(won[1].split(", "))

    history = await alice.slash("game history")
    assert history.ephemeral
    assert "**Finished matches on this server**" in history.content and "Tiny Big Wars" in history.content
    assert "1 round" in history.content
    link = f"https://discord.com/channels/{fake.guilds[0].id}/{fake.channel.id}/{gif_post.id}"
    assert f"[replay]({link})" in history.content
    assert any(f"{name} won" in history.content for name in winners)
    only_samurai = await alice.slash("game history", game="samurai")
    assert "No Samurai Swords match has finished on this server yet." in only_samurai.content

    mine = await alice.slash("game stats")
    assert mine.ephemeral and "**alice** on this server:" in mine.content
    assert "**Tiny Big Wars**: 1 game" in mine.content and "rating" in mine.content
    assert "favourite hero:" in mine.content
    assert ("1 win" in mine.content) == ("alice" in winners)
    # Her pace: her own answers were timed; she let no deadline pass.
    assert re.search(r"\*\*Pace\*\*: answers in (under a minute|\d+ min) \(median of \d+ answers?\); "
                     r"missed 0 of \d+ deadlines \(0%\)\.", mine.content), mine.content
    theirs = await alice.slash("game stats", player=bob)
    assert "**bob** on this server:" in theirs.content and ("1 win" in theirs.content) == ("bob" in winners)
    nobody = await alice.slash("game stats", player=carol)
    assert nobody.ephemeral and "carol has no finished matches on this server yet." in nobody.content

    board = await bob.slash("game leaderboard", game="tinybigwars")
    assert board.ephemeral and "**Tiny Big Wars** by rating" in board.content
    lines = [line for line in board.content.splitlines() if re.match(r"\d+\. ", line)]
    assert len(lines) == 2 and all("rating" in line and "in 1 game played" in line for line in lines)
    assert lines[0].split(" · ")[0].removeprefix("1. ") in winners, "the winner leads"
    every = await bob.slash("game leaderboard")
    assert "**Tiny Big Wars**" in every.content and "Samurai" not in every.content
    unplayed = await bob.slash("game leaderboard", game="samurai")
    assert "Nobody has finished a Samurai Swords match on this server yet." in unplayed.content


async def test_replay_posted_once_across_a_restart_and_ai_unrated(fake, start_bot, alice, bob, tmp_path) -> None:
    db = tmp_path / "w.db"
    bot = await short_match(fake, start_bot, alice, bob, db, ai=True)
    await alice.wait_for(lambda m: "replay.gif" in m.files)
    await drained(bot)
    bot = await start_bot.restart(bot, factory(settings_for(fake, db)))
    await drained(bot)
    assert len(replay_posts(fake)) == 1
    stats = await alice.slash("game stats")
    assert "**Tiny Big Wars**: 1 game" in stats.content, "the match counted once"
    board = await bob.slash("game leaderboard", game="tinybigwars")
    lines = [line for line in board.content.splitlines() if re.match(r"\d+\. ", line)]
    assert len(lines) == 2 and not any("AI" in line for line in lines), "AI seats are not rated"
