"""Lantern Hunt is registered for each test of this package and taken back after it."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.addgame.lanterns import LanternHunt
from tests.addgame.registration import lanterns_registered
from tests.e2e.conftest import alice, bob, fake, start_bot  # noqa: F401  (the fake Discord's fixtures)


@pytest.fixture
def lanterns() -> Iterator[LanternHunt]:
    with lanterns_registered() as game:
        yield game
