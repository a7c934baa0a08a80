"""Building prompt options within Discord's limits.

A select menu option takes a value of at most 50 characters, a label of 80 and a description
of 100; every option built here is cut to fit rather than failing mid-match on a long name.
Cut to fit, an option is valid by construction, so it is built without pydantic's validation
(prompts are built thousands of times a match).
"""

from __future__ import annotations

from typing import Any

from engine.clone import trusted
from engine.contract import Option


def opt(value: str, label: str, choice: dict[str, Any], description: str = "") -> Option:
    """One option, its texts cut to the limits; `choice` is what picking it submits (copied,
    as validation would copy it)."""
    return trusted(Option, {"value": value[:50], "label": label[:80], "description": description[:100],
                            "choice": dict(choice)})
