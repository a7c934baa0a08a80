"""Fixtures for warhost's end-to-end tests: the real bot, the real discord.py, a fake Discord.

In-process (fast; one per test):

    async def test_lobby(fake, start_bot, alice, bob):
        bot = await start_bot(lambda: make_bot(settings))      # any discord.Client / Bot / AutoShardedBot
        resp = await alice.slash("game new", game="tinybigwars", seats=2)
        await bob.click("Join")
        assert bob.sees("2/2 seats")
        bot = await start_bot.restart(bot, lambda: make_bot(settings))   # same fake state

`fake` is a started FakeDiscord (one guild "Guild 1" with #game; players alice, bob, carol, dave;
discord.py's Route.BASE and DEFAULT_GATEWAY patched and restored); the test fails at teardown on
any Discord rule violation it did not declare (`fake.allow(kind)`, `fake.expect_violation(kind)`,
`fake.pop_violations(kind)`). Options: `@pytest.mark.fakediscord(guilds=2, shards=2,
ack_deadline=0.2, token_ttl=1.0, attachment_size_limit=..., rate_time_scale=1.0,
players=("alice", "bob"))`. Discord's rate limits apply at 1/20 of their windows unless
`rate_time_scale` says otherwise (tests/fakediscord/README.md, "Rate limits").

Out of process (`python -m bot` with the fake's URLs in DISCORD_API_BASE / DISCORD_GATEWAY_URL /
DISCORD_TOKEN): `fake_process` runs the fake standalone; `await fake_process.spawn("-m", "bot")`,
then `fake_process.control` (a ControlClient) drives players.
"""

from tests.fakediscord.fixtures import (  # noqa: F401  (re-exported fixtures and the marker hook)
    alice,
    bob,
    carol,
    dave,
    fake,
    fake_process,
    pytest_configure,
    start_bot,
)
