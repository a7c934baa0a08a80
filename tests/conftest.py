"""Shared test configuration; each area keeps its own fixtures in its own conftest."""

from __future__ import annotations

from tests.fakediscord.spec import spec_path, unavailable_reason


def pytest_report_header() -> list[str]:
    """Say once, at the top of the run, whether the fake Discord validates against Discord's spec."""
    reason = unavailable_reason()
    if reason is not None:
        return [f"fakediscord: {reason}"]
    return [f"fakediscord: every REST request is validated against {spec_path()}"]
