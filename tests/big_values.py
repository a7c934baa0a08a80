"""Short explanations of failed comparisons of big byte strings (the conftest's
``pytest_assertrepr_compare``).

Where a ``CI`` variable is set, pytest explains a failed ``==`` of sequences with a full
``difflib.ndiff`` of both sides pretty-printed: two 300 KB PNGs differing throughout are some
20,000 lines a side, and ndiff over them runs for hours. A test that expects such an assert to
fail (the phase boxes' guard checking that it catches boxes cut too tight) stalled CI until the
hang guard stopped its worker. Here a comparison holding big bytes says only where it differs.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from contextlib import contextmanager

BIG = 4096
"""Bytes in one side past which its comparison is explained here (pytest's own diff of a few
KiB is quick and more readable)."""

Bytes = bytes | bytearray | memoryview
CI_VARIABLES = ("CI", "BUILD_NUMBER")
"""What pytest reads to decide it runs on CI (``_pytest.compat.running_on_ci``)."""


@contextmanager
def off_ci() -> Iterator[None]:
    """pytest's explanations made as where no CI variable is set (its ``assertrepr_compare``
    hook cannot be skipped: every implementation runs), then the variables as they were."""
    saved = {name: os.environ.pop(name) for name in CI_VARIABLES if name in os.environ}
    try:
        yield
    finally:
        os.environ.update(saved)


def explain(left: object, right: object) -> list[str] | None:
    """Lines saying how ``left == right`` failed, where either holds big bytes (itself, or as
    an item of a tuple or list); None leaves the explanation to pytest."""
    if isinstance(left, Bytes) and isinstance(right, Bytes):
        return _bytes_lines(bytes(left), bytes(right)) if max(len(left), len(right)) > BIG else None
    if not (_holds_big(left) or _holds_big(right)):
        return None
    if not (isinstance(left, tuple | list) and isinstance(right, tuple | list)):
        return [f"{_shape(left)} != {_shape(right)}"]
    lines = [f"{_shape(left)} != {_shape(right)}"]
    if len(left) != len(right):
        lines.append(f"{len(left)} items against {len(right)}")
    for index, (one, other) in enumerate(zip(left, right, strict=False)):
        if one != other:
            lines.append(f"item {index} differs:")
            lines += ["  " + line for line in (explain(one, other) or [f"{_shape(one)} != {_shape(other)}"])]
    return lines


def _bytes_lines(left: bytes, right: bytes) -> list[str]:
    same = next((index for index, (one, other) in enumerate(zip(left, right, strict=False)) if one != other),
                min(len(left), len(right)))
    return [f"{len(left):,} bytes != {len(right):,} bytes, the same for the first {same:,}",
            f"from there: {left[same:same + 16]!r} against {right[same:same + 16]!r}"]


def _holds_big(value: object) -> bool:
    if isinstance(value, Bytes):
        return len(value) > BIG
    return isinstance(value, tuple | list) and any(_holds_big(item) for item in value)


def _shape(value: object) -> str:
    if isinstance(value, Bytes):
        return f"{type(value).__name__} of {len(value):,}"
    if isinstance(value, tuple | list) and isinstance(value, Sequence):
        return f"{type(value).__name__}({', '.join(_shape(item) for item in value)})"
    return repr(value)[:80]
