"""The web table's tests use the end-to-end fixtures: the real bot on a fake Discord."""

from tests.fakediscord.fixtures import (  # noqa: F401  (re-exported fixtures and the marker hook)
    alice,
    bob,
    carol,
    fake,
    pytest_configure,
    start_bot,
)
