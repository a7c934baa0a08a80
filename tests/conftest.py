"""Shared test configuration; each area keeps its own fixtures in its own conftest."""

from __future__ import annotations

import multiprocessing

import pytest

from tests.fakediscord.spec import spec_path, unavailable_reason


def pytest_report_header(config: pytest.Config) -> list[str]:
    """Say once, at the top of the run, whether the fake Discord validates against Discord's spec."""
    reason = unavailable_reason()
    hogs = config.getoption("--cpu-hogs")
    load = [f"load: {hogs} CPU-bound processes run beside the tests"] if hogs else []
    if reason is not None:
        return [f"fakediscord: {reason}", *load]
    return [f"fakediscord: every REST request is validated against {spec_path()}", *load]


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--cpu-hogs", type=int, default=0, metavar="N",
                     help="run N CPU-bound processes for the whole session: the suite must pass on a busy machine")


def _burn() -> None:
    """One core's worth of pointless arithmetic until killed."""
    value = 0
    while True:
        value = (value * 31 + 7) % 1_000_003


_hogs: list[multiprocessing.Process] = []


def pytest_sessionstart(session: pytest.Session) -> None:
    """Start the hogs once, in the controlling process (not in each xdist worker)."""
    count = session.config.getoption("--cpu-hogs")
    if count and not hasattr(session.config, "workerinput"):
        for _ in range(count):
            hog = multiprocessing.get_context("spawn").Process(target=_burn, daemon=True)
            hog.start()
            _hogs.append(hog)


def pytest_sessionfinish(session: pytest.Session) -> None:
    for hog in _hogs:
        hog.kill()
        hog.join(timeout=5)
    _hogs.clear()


@pytest.fixture(autouse=True)
def _local_data_dir(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """The terminal table's data directory (and anything a test's subprocess inherits) stays
    inside the test run, never in the user's home."""
    monkeypatch.setenv("WARHOST_DATA_DIR", str(tmp_path_factory.mktemp("warhost-data")))
