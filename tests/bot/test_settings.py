from __future__ import annotations

import socket
import subprocess
import sys
from pathlib import Path

import pydantic
import pytest

from bot.settings import Settings


def test_settings_from_environment(monkeypatch) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "abc")
    monkeypatch.setenv("SHARD_IDS", "0,1")
    monkeypatch.setenv("SHARD_COUNT", "2")
    monkeypatch.setenv("DEV_GUILD_ID", "")
    s = Settings(_env_file=None)
    assert s.discord_token is not None and s.discord_token.get_secret_value() == "abc"
    assert s.shard_ids == [0, 1] and s.shard_count == 2 and s.dev_guild_id is None
    assert s.database_url.startswith("sqlite+aiosqlite:///")


def test_no_token_explains_and_exits_nonzero(tmp_path) -> None:
    env = {"PATH": "/usr/bin:/bin", "DISCORD_TOKEN": "", "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    proc = subprocess.run(
        [sys.executable, "-m", "bot"], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60
    )
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr
    assert "DISCORD_TOKEN" in proc.stderr
    assert "applications.commands" in proc.stderr
    assert "python -m bot play" in proc.stderr


def test_one_shard_id_per_process(monkeypatch) -> None:
    """The usual multi-process deployment: each process runs one shard, e.g. SHARD_IDS=1."""
    monkeypatch.setenv("SHARD_COUNT", "2")
    for raw, ids in (("0", [0]), ("1", [1]), (" 1 ", [1]), ("[1]", [1]), ("0,1", [0, 1])):
        monkeypatch.setenv("SHARD_IDS", raw)
        assert Settings(_env_file=None).shard_ids == ids, raw


def test_instance_name_is_stable_per_machine(monkeypatch) -> None:
    """A restarted process must come back under the same name to take its leases back at once."""
    monkeypatch.delenv("INSTANCE_NAME", raising=False)
    monkeypatch.setattr(socket, "gethostname", lambda: "box 7")
    assert Settings(_env_file=None).instance_name == Settings(_env_file=None).instance_name == "warhost-box-7"
    monkeypatch.setenv("INSTANCE_NAME", " ")
    assert Settings(_env_file=None).instance_name == "warhost-box-7"
    monkeypatch.setenv("INSTANCE_NAME", "shard1")
    assert Settings(_env_file=None).instance_name == "shard1"
    monkeypatch.setenv("INSTANCE_NAME", "x" * 51)
    with pytest.raises(pydantic.ValidationError):
        Settings(_env_file=None)


def test_malformed_settings_are_named_without_a_traceback(tmp_path) -> None:
    """A wrong value in the environment (or .env) stops the bot with one line a setting, by the
    variable's name, and what it may be; nothing starts and no traceback is printed."""
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(Path(__file__).resolve().parents[2]), "DISCORD_TOKEN": "abc",
           "DRAW_WORKERS": "-1", "LOG_FORMAT": "xml", "DB_WAIT_SECONDS": "-1"}
    proc = subprocess.run([sys.executable, "-m", "bot"], cwd=tmp_path, env=env, capture_output=True, text=True,
                          timeout=60)
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr
    lines = proc.stderr.splitlines()
    assert lines[0] == "warhost: the settings (environment variables or .env) are not valid:"
    assert "  DRAW_WORKERS (given '-1'): Input should be greater than or equal to 0" in lines
    assert "  LOG_FORMAT (given 'xml'): Input should be 'text' or 'json'" in lines
    assert "  DB_WAIT_SECONDS (given '-1'): Input should be greater than 0" in lines
    assert not list(tmp_path.glob("*.db")), "nothing was started"
