"""Self-tests of the fake use its own fixtures and the demo bot."""

import pytest

from tests.fakediscord.demo_bot import DemoBot
from tests.fakediscord.fixtures import (  # noqa: F401  (fixtures and the marker hook)
    BotRunner,
    alice,
    bob,
    carol,
    dave,
    fake,
    fake_process,
    pytest_configure,
    start_bot,
)
from tests.fakediscord.server import FakeDiscord


@pytest.fixture
async def bot(fake: FakeDiscord, start_bot: BotRunner) -> DemoBot:  # noqa: F811
    """The demo bot, running and synced to every guild of the fake."""
    return await start_bot(lambda: DemoBot([g.id for g in fake.guilds]))
