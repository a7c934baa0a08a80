"""The admin's HTTP listener: /healthz, /readyz and /metrics scraped during a match, and after the
database is cut away (PostgreSQL behind a TCP proxy the test closes)."""

from __future__ import annotations

import asyncio
import contextlib
import re
import socket
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from sqlalchemy.engine import make_url

from bot.discord.health import Health, HealthPortUnusable
from tests.e2e.harness import AutoPlayer, factory, play_until, settings_for
from tests.fakediscord import FakeDiscord, Player
from tests.pgfixture import pg_server_url, pg_url  # noqa: F401  (fixtures)

SAMPLE = re.compile(r'^(\w+)(\{(?:[^"}]|"(?:[^"\\]|\\.)*")*\})? (\S+)$', re.MULTILINE)


def samples(text: str) -> dict[str, float]:
    """Prometheus text format -> {"name{labels}": value}."""
    return {name + (labels or ""): float(value) for name, labels, value in SAMPLE.findall(text)}


def total(found: dict[str, float], name: str, **labels: str) -> float:
    """The sum of ``name``'s samples whose labels include ``labels``."""
    wanted = [f'{key}="{value}"' for key, value in labels.items()]
    return sum(value for key, value in found.items()
               if (key == name or key.startswith(name + "{")) and all(w in key for w in wanted))


async def get(health: Health, path: str) -> tuple[int, str]:
    async with aiohttp.ClientSession() as session, session.get(f"http://127.0.0.1:{health.port}{path}") as response:
        return response.status, await response.text()


async def wait_ready(fake: FakeDiscord, health: Health, timeout: float = 60.0) -> None:
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while (found := await get(health, "/readyz"))[0] != 200:
        assert loop.time() < end, f"/readyz still {found} after {timeout} s"
        await asyncio.sleep(0.1)


@contextlib.asynccontextmanager
async def listening(bot: Any) -> Any:
    health = Health(bot, "127.0.0.1", 0)
    await health.start()
    try:
        yield health
    finally:
        await health.stop()


async def _start_match(alice: Player, bob: Player) -> None:
    await alice.slash("game new", game="tinybigwars", round_limit=1)
    await alice.wait_for(lambda m: m.button("Join") is not None)
    await bob.click("Join")
    await alice.click("Add AI")
    assert "has started" in (await alice.click("Start")).content


async def test_scraped_during_a_match(fake: FakeDiscord, start_bot: Any, alice: Player, bob: Player,
                                      tmp_path: Path) -> None:
    bot = await start_bot(factory(settings_for(fake, tmp_path / "w.db")))
    async with listening(bot) as health:
        assert await get(health, "/healthz") == (200, '{"status": "ok"}')
        await wait_ready(fake, health)
        await _start_match(alice, bob)
        autos = [AutoPlayer(alice), AutoPlayer(bob)]
        # Mid-match: a phase has ended (a map was drawn) and prompts are open.
        await play_until(fake, autos, lambda: any(m.files.get("map.png") for m in fake.channel_messages(fake.channel)))
        status, text = await get(health, "/metrics")
        assert status == 200
        during = samples(text)
        assert total(during, "warhost_open_matches", game="tinybigwars") == 1
        assert total(during, "warhost_interactions_total", kind="application_command", outcome="acknowledged") >= 1
        assert total(during, "warhost_interactions_total", kind="component", outcome="acknowledged") >= 3
        assert total(during, "warhost_interaction_ack_seconds_count") >= 4
        assert total(during, "warhost_rest_requests_total", method="POST",
                     route="/interactions/{id}/{token}/callback") >= 4
        assert total(during, "warhost_rest_requests_total", method="POST", route="/channels/{id}/messages") >= 1
        assert total(during, "warhost_tick_seconds_count") >= 1
        assert total(during, "warhost_draw_seconds_count", kind="draw") >= 1
        assert "warhost_outbox_backlog" in during and "warhost_outbox_oldest_seconds" in during
        assert "warhost_parked_targets" in during and "warhost_gateway_latency_seconds" in during
        assert during["warhost_database_up"] == 1
        assert "interaction_token" not in text and "fake-token" not in text
        status, body = await get(health, "/readyz")
        assert status == 200 and body == '{"status": "ready"}'


class Proxy:
    """A TCP proxy to PostgreSQL that the test can cut (every connection closed, new ones refused)."""

    def __init__(self, url: str) -> None:
        parsed = make_url(url)
        host = parsed.query.get("host")
        self.unix = f"{host}/.s.PGSQL.{parsed.port or 5432}" if isinstance(host, str) and host.startswith("/") else None
        self.upstream = (parsed.host or "127.0.0.1", parsed.port or 5432)
        self.parsed = parsed
        self.server: asyncio.Server | None = None
        self.writers: list[asyncio.StreamWriter] = []

    async def start(self) -> str:
        self.server = await asyncio.start_server(self._client, "127.0.0.1", 0)
        port = self.server.sockets[0].getsockname()[1]
        return self.parsed.set(host="127.0.0.1", port=port, query={}).render_as_string(hide_password=False)

    async def _client(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        if self.unix:
            up_reader, up_writer = await asyncio.open_unix_connection(self.unix)
        else:
            up_reader, up_writer = await asyncio.open_connection(*self.upstream)
        self.writers += [writer, up_writer]

        async def pipe(source: asyncio.StreamReader, sink: asyncio.StreamWriter) -> None:
            with contextlib.suppress(Exception):
                while data := await source.read(65536):
                    sink.write(data)
                    await sink.drain()
            sink.close()

        await asyncio.gather(pipe(reader, up_writer), pipe(up_reader, writer))

    async def cut(self) -> None:
        assert self.server is not None
        self.server.close()
        for writer in self.writers:
            writer.close()
        self.writers.clear()


@pytest.mark.postgres
async def test_not_ready_once_the_database_is_cut_away(fake: FakeDiscord, start_bot: Any, alice: Player, bob: Player,
                                                       pg_url: str, tmp_path: Path) -> None:  # noqa: F811
    proxy = Proxy(pg_url)
    url = await proxy.start()
    settings = settings_for(fake, tmp_path / "unused.db")
    settings.database_url = url
    bot = await start_bot(factory(settings))
    async with listening(bot) as health:
        await wait_ready(fake, health)
        await _start_match(alice, bob)
        await proxy.cut()
        loop = asyncio.get_running_loop()
        end = loop.time() + 60
        while True:
            status, body = await get(health, "/readyz")
            if status == 503:
                break
            assert loop.time() < end, f"/readyz still {status} 60 s after the database was cut: {body}"
            await asyncio.sleep(0.1)
        assert body.startswith('{"status": "unavailable"')
        assert "the database does not answer" in body or "the database did not answer" in body, body
        assert await get(health, "/healthz") == (200, '{"status": "ok"}')  # alive: it is the database that is gone
        status, text = await get(health, "/metrics")
        assert status == 200 and samples(text)["warhost_database_up"] == 0
        # The loops fail too and, in time, say so: the tick and the delivery need the database.
        end = loop.time() + 120
        while "the tick loop last completed" not in body or "the deliver loop last completed" not in body:
            assert loop.time() < end, body
            await asyncio.sleep(0.5)
            _, body = await get(health, "/readyz")


async def test_a_taken_port_is_one_clear_error() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        health = Health(None, "127.0.0.1", port)  # type: ignore[arg-type]  (never reaches the bot)
        with pytest.raises(HealthPortUnusable, match=rf"cannot listen on 127.0.0.1:{port} \(HEALTH_HOST, HEALTH_PORT\)"):
            await health.start()
