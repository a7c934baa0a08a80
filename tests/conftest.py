"""Shared test configuration; each area keeps its own fixtures in its own conftest."""

from __future__ import annotations

import faulthandler
import multiprocessing
import os
import re
from collections.abc import Generator, Iterator
from pathlib import Path
from typing import IO

import pytest

from tests import big_values
from tests.fakediscord.spec import spec_path, unavailable_reason


def pytest_report_header(config: pytest.Config) -> list[str]:
    """Say once, at the top of the run, whether the fake Discord validates against Discord's spec."""
    reason = unavailable_reason()
    hogs = config.getoption("--cpu-hogs")
    load = [f"load: {hogs} CPU-bound processes run beside the tests"] if hogs else []
    hang = [f"hang guard: a test still running after {config.getoption('--hang-seconds'):.0f} s stops its worker; "
            "its threads' tracebacks go to hang-*.txt in the pytest temp directory"]
    if reason is not None:
        return [f"fakediscord: {reason}", *load, *hang]
    return [f"fakediscord: every REST request is validated against {spec_path()}", *load, *hang]


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--cpu-hogs", type=int, default=0, metavar="N",
                     help="run N CPU-bound processes for the whole session: the suite must pass on a busy machine")
    parser.addoption("--hang-seconds", type=float, default=HANG_SECONDS, metavar="S",
                     help="stop the run (dumping every thread's traceback) when one test runs longer than S seconds")


os.environ.setdefault("WARHOST_SEARCH_MS", "20")
"""Search AIs think 20 CPU ms per decision in tests (1 s in play): a seat or a test that uses one
stays fast, and worker processes started by a test inherit it."""
os.environ.setdefault("WARHOST_CHECK_COMMITTED_PAYLOADS", "1")
"""Every payload the delivery takes as committed rather than decoding it is compared with the one
stored (db/outbox.py: ``CHECK_COMMITTED``), in this process and in the bots a test starts."""

HANG_SECONDS = 1500.0
"""Far beyond any test's own bounds (a whole match may take 600 s on a loaded machine): only a
wait without a bound gets here. pytest-timeout is not a dependency; faulthandler is built in."""


def _burn(parent: int) -> None:
    """One core's worth of pointless arithmetic until killed, or until the parent is gone (a run
    stopped by the hang guard exits at once, without killing its hogs)."""
    value = 0
    while os.getppid() == parent:
        for _ in range(1_000_000):
            value = (value * 31 + 7) % 1_000_003


_hogs: list[multiprocessing.Process] = []


def pytest_sessionstart(session: pytest.Session) -> None:
    """Start the hogs once, in the controlling process (not in each xdist worker)."""
    count = session.config.getoption("--cpu-hogs")
    if count and not hasattr(session.config, "workerinput"):
        for _ in range(count):
            hog = multiprocessing.get_context("spawn").Process(target=_burn, args=(os.getpid(),), daemon=True)
            hog.start()
            _hogs.append(hog)


def pytest_sessionfinish(session: pytest.Session) -> None:
    for hog in _hogs:
        hog.kill()
        hog.join(timeout=5)
    _hogs.clear()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item) -> Iterator[None]:
    """A hung test fails the run, naming itself, instead of stalling it: after `--hang-seconds` the
    process writes every thread's traceback to a file and exits (xdist reports the crashed test)."""
    seconds = item.config.getoption("--hang-seconds")
    dump: IO[str] | None = None
    if seconds > 0:
        name = re.sub(r"[^\w.-]+", "_", item.nodeid)[-120:]
        dump = (_hang_dir(item.config) / f"hang-{name}.txt").open("w")
        dump.write(f"{item.nodeid} still running after {seconds:.0f} s\n")
        dump.flush()
        faulthandler.dump_traceback_later(seconds, exit=True, file=dump)
    try:
        yield
    finally:
        if dump is not None:
            faulthandler.cancel_dump_traceback_later()
            path = Path(dump.name)
            dump.close()
            path.unlink(missing_ok=True)


Explanations = list[list[str] | None]
"""Each ``pytest_assertrepr_compare`` implementation's lines (pytest shows the first given)."""


@pytest.hookimpl(wrapper=True)
def pytest_assertrepr_compare(op: str, left: object, right: object) -> Generator[None, Explanations, Explanations]:
    """A failed ``==`` over big bytes says where they differ, and pytest's own explanation is
    made as off CI (no ``ndiff`` of them: tests/big_values.py); every other one is pytest's."""
    ours = big_values.explain(left, right) if op == "==" else None
    if ours is None:
        return (yield)
    with big_values.off_ci():
        theirs = yield
    return [ours, *theirs]


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter, config: pytest.Config) -> None:
    """Show what the hang guard wrote: a worker it stopped, or one that died in a test, leaves
    its hang-*.txt (the test's name, and every thread's traceback when the guard fired) in its
    temp directory, which a CI log would not show otherwise."""
    if hasattr(config, "workerinput"):
        return
    base = _hang_dir(config)
    for path in sorted([*base.glob("hang-*.txt"), *base.glob("popen-*/hang-*.txt")]):
        terminalreporter.write_sep("=", f"hang guard: {path.name}")
        terminalreporter.write_line(path.read_text(errors="replace")[-20_000:])


def _hang_dir(config: pytest.Config) -> Path:
    factory: pytest.TempPathFactory = config._tmp_path_factory  # type: ignore[attr-defined]
    return factory.getbasetemp()


@pytest.fixture(autouse=True)
def _stand_in_games_taken_back() -> Iterator[None]:
    """A game a test registers (a stand-in such as tests/service/toygame.py) is taken back after
    it: every bot's /game offers every registered game, and stand-ins left behind would grow
    /game past Discord's 4000 characters for the later tests of the same worker."""
    import engine

    before = set(engine.games())
    yield
    for key in set(engine.games()) - before:
        engine.unregister(key)


@pytest.fixture(autouse=True)
def _local_data_dir(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """The terminal table's data directory and the kept replay frames (and anything a test's
    subprocess inherits) stay inside the test run, never in the user's home or temp directory."""
    monkeypatch.setenv("WARHOST_DATA_DIR", str(tmp_path_factory.mktemp("warhost-data")))
    monkeypatch.setenv("WARHOST_REPLAY_FRAMES", str(tmp_path_factory.mktemp("replay-frames")))


SLOW_FIRST = ("tests/e2e/test_turn_dms.py::test_samurai_dms_stay_true", "tests/service/test_crash.py",
              "tests/e2e/test_turn_dms.py::test_tiny_big_wars_dms_stay_true", "tests/e2e/test_quiet_posts.py",
              "tests/e2e/test_turn_dms.py", "tests/e2e/test_delivery_exactly_once.py", "tests/e2e/test_samurai.py",
              "tests/e2e/test_refusals.py", "tests/engine/samurai/test_properties.py", "tests/e2e/", "tests/web/")
"""Where the longest tests are, longest first. Workers take tests in collection order, two at a
time (pyproject's --maxschedchunk): a whole match started last would run alone at the end while
the other workers sit idle."""


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    def rank(item: pytest.Item) -> int:
        return next((n for n, prefix in enumerate(SLOW_FIRST) if item.nodeid.startswith(prefix)), len(SLOW_FIRST))

    items.sort(key=rank)  # stable: each file keeps its own order
