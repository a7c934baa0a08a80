"""Standalone mode: the fake and a bot each in their own process, driven over the control API."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sys
from pathlib import Path

from tests.fakediscord import ControlClient

ROOT = Path(__file__).resolve().parents[3]


async def _spawn(*args: str, env: dict[str, str] | None = None) -> asyncio.subprocess.Process:
    return await asyncio.create_subprocess_exec(sys.executable, *args, cwd=ROOT, env={**os.environ, **(env or {})},
                                                stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)


async def _stop(proc: asyncio.subprocess.Process) -> tuple[int, str]:
    if proc.returncode is None:
        proc.send_signal(signal.SIGTERM)
    _, err = await asyncio.wait_for(proc.communicate(), 10)
    return proc.returncode or 0, err.decode()


async def test_standalone_fake_and_bot_processes() -> None:
    fake = await _spawn("-m", "tests.fakediscord", "--port", "0", "--guilds", "2", "--shards", "2")
    bot = None
    try:
        info = json.loads(await asyncio.wait_for(fake.stdout.readline(), 15))
        assert info["port"] > 0 and info["api_base"].endswith("/api/v10") and info["gateway_url"].startswith("ws://")
        assert [g["shard"] for g in info["guilds"]] == [0, 1]
        assert [u["name"] for u in info["users"]] == ["alice", "bob", "carol", "dave"]
        bot = await _spawn("-m", "tests.fakediscord.demo_bot", "--sharded",
                           "--guilds", ",".join(g["id"] for g in info["guilds"]),
                           env={"DISCORD_API_BASE": info["api_base"], "DISCORD_GATEWAY_URL": info["gateway_url"]})
        async with ControlClient(info["base_url"]) as ctl:
            ready = await ctl.wait_ready(shards=2, timeout=20)
            assert ready["connected_shards"] == [0, 1]
            await asyncio.sleep(0.3)  # the bot syncs commands before it connects; give on_ready a moment
            second = info["guilds"][1]
            resp = await ctl.slash("alice", "board", channel_id=second["channels"][0]["id"], size=2)
            assert resp["ok"] and resp["shard_id"] == 1 and resp["messages"][0]["content"] == "Board 2x2"
            assert resp["messages"][0]["attachments"][0]["filename"] == "board.png"
            join = await ctl.click("bob", "Join", message_id=resp["messages"][0]["id"])
            assert join["ephemeral"] and join["messages"][0]["content"] == "bob joined"
            dm = await ctl.wait_for("bob", "Choose your secret move", dm=True)
            assert dm["audience"] == "dm:bob"
            opened = await ctl.click("bob", "Spend 2", dm=True)
            assert opened["type"] == 9 and opened["shard_id"] == 0
            done = await ctl.submit_modal("bob", {"attack": "1", "defend": "1"})
            assert done["messages"][0]["content"] == "Orders: attack 1, defend 1"
            assert [m["content"] for m in await ctl.messages("alice", channel_id=second["channels"][0]["id"])] \
                == ["Board 2x2"]
            assert await ctl.violations() == []
    finally:
        if bot is not None:
            await _stop(bot)
        code, err = await _stop(fake)
    assert code == 0, err
