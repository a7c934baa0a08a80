"""A failed comparison of big bytes is explained in a few lines, on CI too (tests/big_values.py):
pytest's own explanation there is an ndiff of both sides, which ran for hours on two PNGs."""

from __future__ import annotations

import os

import pytest

from tests import big_values


def _differing_throughout(size: int) -> tuple[bytes, bytes]:
    left = bytes(index % 251 for index in range(size))
    right = bytearray(left)
    for index in range(7, size, 97):
        right[index] ^= 0xFF
    return left, bytes(right)


def test_big_bytes_say_where_they_differ() -> None:
    left, right = _differing_throughout(300_000)
    lines = big_values.explain(left, right + b"tail")
    assert lines == ["300,000 bytes != 300,004 bytes, the same for the first 7",
                     f"from there: {left[7:23]!r} against {right[7:23]!r}"]


def test_a_tuple_holding_big_bytes_names_the_items_that_differ() -> None:
    left, right = _differing_throughout(10_000)
    lines = big_values.explain((left, b"frame", 3), (left, right, 3))
    assert lines is not None
    assert lines[0] == "tuple(bytes of 10,000, bytes of 5, 3) != tuple(bytes of 10,000, bytes of 10,000, 3)"
    assert lines[1] == "item 1 differs:"
    assert lines[2] == "  5 bytes != 10,000 bytes, the same for the first 0"


def test_small_values_are_left_to_pytest() -> None:
    assert big_values.explain(b"abc", b"abd") is None
    assert big_values.explain((1, b"abc"), (1, b"abd")) is None
    assert big_values.explain("text" * 5000, "other" * 5000) is None


def test_on_ci_the_hook_gives_the_short_lines_and_pytest_explains_as_off_ci(
        request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every implementation of the hook runs; pytest's own, made with the CI variables put
    aside, offers "-v" instead of diffing both sides, and the variables are back afterwards."""
    monkeypatch.setenv("CI", "true")
    left, right = _differing_throughout(8_000)
    results = request.config.hook.pytest_assertrepr_compare(config=request.config, op="==", left=left, right=right)
    first = next(lines for lines in results if lines)
    assert first == big_values.explain(left, right)
    pytests = [line for lines in results[1:] if lines for line in lines]
    assert any("Use -v to get more diff" in line for line in pytests)
    assert not any(line.startswith(("- ", "+ ", "? ")) for line in pytests)  # no ndiff lines
    assert os.environ["CI"] == "true"
