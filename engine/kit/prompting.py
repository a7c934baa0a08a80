"""Building prompt options within Discord's limits.

A select menu option takes a value of at most 50 characters, a label of 80 and a description
of 100; `Option` validates those limits, so every option built here is cut to fit rather than
failing mid-match on a long name.
"""

from __future__ import annotations

from typing import Any

from engine.contract import Option


def opt(value: str, label: str, choice: dict[str, Any], description: str = "") -> Option:
    """One option, its texts cut to the limits; `choice` is what picking it submits."""
    return Option(value=value[:50], label=label[:80], description=description[:100], choice=choice)
