"""A busy phase stays one post: past Discord's content limit its lines carry on in an embed."""

from __future__ import annotations

from bot.discord.phase_posts import LIMIT, MORE, split


def test_a_short_post_is_content_only() -> None:
    assert split("**Round 1**\na moves") == ("**Round 1**\na moves", [])


def test_a_long_post_carries_on_in_an_embed_cut_at_a_line_end() -> None:
    lines = [f"line {n}: " + "x" * 60 for n in range(60)]
    text = "\n".join(["**Round 2 - Hero Activation**", *lines])
    assert LIMIT < len(text) <= LIMIT + MORE
    content, embeds = split(text)
    assert len(content) <= LIMIT and content.endswith("x" * 60), "cut at the end of a line"
    assert len(embeds) == 1 and len(embeds[0].description or "") <= 4096
    assert content + "\n" + (embeds[0].description or "") == text, "nothing lost, nothing repeated"
