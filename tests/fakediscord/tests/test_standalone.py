"""Standalone mode: the fake and a bot each in their own process, driven over the control API."""

from __future__ import annotations

import aiohttp
import pytest

from tests.fakediscord.control import ControlError
from tests.fakediscord.fixtures import standalone_fake


async def test_standalone_fake_and_bot_processes() -> None:
    async with standalone_fake("--guilds", "2", "--shards", "2") as server:
        info, ctl = server.info, server.control
        assert info["port"] > 0 and info["api_base"].endswith("/api/v10") and info["gateway_url"].startswith("ws://")
        assert [g["shard"] for g in info["guilds"]] == [0, 1]
        assert [u["name"] for u in info["users"]] == ["alice", "bob", "carol", "dave"]
        await server.spawn("-m", "tests.fakediscord.demo_bot", "--sharded",
                           "--guilds", ",".join(g["id"] for g in info["guilds"]))
        ready = await ctl.wait_ready(shards=2, timeout=20)
        assert ready["connected_shards"] == [0, 1]
        second = info["guilds"][1]["channels"][0]["id"]
        resp = await ctl.slash("alice", "board", channel_id=second, size=2)
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
        assert [m["content"] for m in await ctl.messages("alice", channel_id=second)] == ["Board 2x2"]
        assert [m["content"] for m in await ctl.messages("alice", dm=True)] == []
        with pytest.raises(ControlError, match="disabled"):
            await ctl.click("carol", "Closed", message_id=resp["messages"][0]["id"])
        assert await ctl.violations() == []


async def test_standalone_exit_code_reports_violations() -> None:
    """A rule broken inside the standalone fake makes it exit 3, failing the test at teardown."""
    with pytest.raises(AssertionError, match="exited 3"):
        async with standalone_fake() as server, aiohttp.ClientSession() as http:
            async with http.get(f"{server.info['api_base']}/guilds/1/bans") as resp:
                assert resp.status == 404
                assert (await resp.json())["message"] == "fakediscord: unhandled GET /guilds/1/bans"
            assert [v["kind"] for v in await server.control.violations()] == ["unhandled_route"]


@pytest.mark.fakediscord(guilds=3, shards=3, players=("zed",), ack_deadline=0.5)
async def test_fake_process_fixture(fake_process) -> None:
    info = await fake_process.control.info()
    assert [g["shard"] for g in info["guilds"]] == [0, 1, 2]
    assert [u["name"] for u in info["users"]] == ["zed"]
    assert (await fake_process.control.configure())["ack_deadline"] == 0.5
    assert fake_process.env["DISCORD_API_BASE"] == info["api_base"]
    assert fake_process.env["DISCORD_GATEWAY_URL"] == info["gateway_url"]
