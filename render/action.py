"""Where the latest events happened, read from the view's own event lines.

No game's view lists the places a phase touched, but every engine writes the places' names
into its public event lines ("[[seat:1]] moves army 1 from Totomi to Etchu"). Matching the
names (longest first, whole words only) finds them: "Awa (Boso)" is never read as "Awa", and
"Awaji" never as "Awa".
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable


@functools.lru_cache(maxsize=32)
def _pattern(names: tuple[str, ...]) -> re.Pattern[str] | None:
    """One alternation of every name, longest first, matched as whole words (cached per map)."""
    usable = sorted({n for n in names if n.strip()}, key=lambda n: (-len(n), n))
    if not usable:
        return None
    return re.compile(r"(?<!\w)(" + "|".join(re.escape(n) for n in usable) + r")(?!\w)", re.IGNORECASE)


def mentioned(lines: Iterable[str], names: dict[str, str]) -> list[str]:
    """Ids whose name appears in `lines`, the newest line first and in reading order within a line."""
    pattern = _pattern(tuple(names.values()))
    if pattern is None:
        return []
    by_name: dict[str, str] = {}
    for pid, name in names.items():
        by_name.setdefault(name.casefold(), pid)
    found: list[str] = []
    for line in reversed(list(lines)):
        for match in pattern.finditer(str(line)):
            named = by_name.get(match.group(1).casefold())
            if named is not None and named not in found:
                found.append(named)
    return found
