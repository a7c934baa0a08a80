"""Building prompt options within Discord's limits.

A select menu option takes a value of at most 50 characters, a label of 80 and a description
of 100; every option built here is cut to fit rather than failing mid-match on a long name.
Cut to fit, an option is valid by construction, so it is built without pydantic's validation
(prompts are built thousands of times a match).
"""

from __future__ import annotations

from typing import Any

from engine.clone import set_dict, set_extra, set_fields_set, set_private
from engine.contract import Option

_new_object = object.__new__


def opt(value: str, label: str, choice: dict[str, Any], description: str = "") -> Option:
    """One option, its texts cut to the limits; `choice` is what picking it submits (copied,
    as validation would copy it).

    Built as engine/clone.py's ``trusted`` builds a model, written out here: a prompt lists
    tens of options and the call and the set of field names built from the values cost a
    third of an option."""
    option = _new_object(Option)
    set_dict(option, {"value": value[:50], "label": label[:80], "description": description[:100],
                      "choice": dict(choice)})
    set_fields_set(option, {"value", "label", "description", "choice"})
    set_extra(option, None)
    set_private(option, None)
    return option
