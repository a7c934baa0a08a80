"""The bot's run command tunes CPython's collector before the bot starts: what is loaded is
frozen (full passes skip it) and the young generation grows to YOUNG_OBJECTS before a pass."""

from __future__ import annotations

import gc

from bot.cli.run import YOUNG_OBJECTS, tune_the_collector


def test_the_collector_is_tuned_for_a_long_running_bot() -> None:
    threshold = gc.get_threshold()
    try:
        gc.unfreeze()
        tune_the_collector()
        assert gc.get_threshold() == (YOUNG_OBJECTS, *threshold[1:])
        assert gc.get_freeze_count() > 10_000, "the modules loaded are out of the collector's passes"
    finally:
        gc.unfreeze()
        gc.set_threshold(*threshold)
