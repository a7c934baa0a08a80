"""What every post and DM carries: inert names, exact allowed mentions, a stable per-notice nonce,
and which Discord errors park a target."""

from __future__ import annotations

from types import SimpleNamespace

import discord

from bot.discord.mentions import NOBODY, only, plain_name
from bot.discord.refusals import alert_text, final_code
from bot.discord.sending import nonce_of


def test_names_are_inert_text() -> None:
    assert plain_name("<@123456789012345678>") == "<@\u200b123456789012345678>"
    assert plain_name("@everyone") == "@\u200beveryone"
    assert plain_name("**loud**") == "\\*\\*loud\\*\\*"
    assert plain_name("alice") == "alice"


def test_allowed_mentions_name_exactly_the_users_meant() -> None:
    assert only([]).to_dict() == NOBODY.to_dict() == {"parse": []}
    assert only([5, 7, 5]).to_dict() == {"parse": [], "users": [5, 7]}


def test_a_nonce_is_stable_short_and_differs_between_matches() -> None:
    first = SimpleNamespace(match_id=1, key="v3:0:phase")
    assert nonce_of(first) == nonce_of(SimpleNamespace(match_id=1, key="v3:0:phase"))
    assert len(nonce_of(first)) <= 25
    assert nonce_of(first) != nonce_of(SimpleNamespace(match_id=2, key="v3:0:phase"))
    assert nonce_of(first) != nonce_of(first, "dms-closed")


def _error(cls: type[discord.HTTPException], status: int, code: int) -> discord.HTTPException:
    return cls(SimpleNamespace(status=status, reason="x"), {"code": code, "message": "m"})


def test_only_refusals_that_asking_again_cannot_change_are_final() -> None:
    assert final_code(_error(discord.Forbidden, 403, 50013)) == 50013
    assert final_code(_error(discord.Forbidden, 403, 50001)) == 50001
    assert final_code(_error(discord.NotFound, 404, 10003)) == 10003
    assert final_code(_error(discord.Forbidden, 403, 50278)) == 50278
    assert final_code(_error(discord.Forbidden, 403, 50007)) is None, "closed DMs have their own fallback"
    assert final_code(_error(discord.DiscordServerError, 500, 0)) is None


def test_the_alert_names_the_player_inertly() -> None:
    text = alert_text({"target_kind": "user", "target_id": 42, "code": 50278, "reason": "we no longer share a server",
                       "name": "@everyone"}, channel_id=9, match_id=3)
    assert "@\u200beveryone" in text and "<@42>" in text and "match #3 in <#9>" in text
