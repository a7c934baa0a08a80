"""The match pages through the fake Discord: the links posts carry, what the public page, its feed
and its maps show (never a secret), a seat's private page and how its link stops working."""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
from pathlib import Path
from typing import Any

import aiohttp

from bot.discord.table_links import OPEN_THE_TABLE
from bot.web import tables
from tests.e2e.harness import AutoPlayer, factory, play_until, settings_for, wait_public_delivered

SEAT_LINK = re.compile(r"<(http://127\.0\.0\.1:\d+/m/(\d+)-[A-Za-z0-9_-]{12}/s/([^>]+))>")


async def start_match(fake: Any, start_bot: Any, alice: Any, bob: Any, tmp_path: Any, **settings: Any) -> Any:
    """A Tiny Big Wars match of alice and bob with the web table on an ephemeral port."""
    bot = await start_bot(factory(settings_for(fake, tmp_path / "w.db", **settings)))
    await alice.slash("game new", game="tinybigwars", round_limit=1, seed=2)
    lobby = await alice.wait_for(lambda m: m.button("Join") is not None)
    await bob.click("Join", message=lobby)
    await alice.wait_for(lambda m: m.id == lobby.id and "bob joined" in m.content)
    await alice.click("Start", message=lobby)
    await alice.dm.wait_for(lambda m: m.selects)
    await bob.dm.wait_for(lambda m: m.selects)
    return bot


def seat_link(player: Any) -> str:
    """The private link in the player's newest decision DM."""
    for msg in reversed(player.dm.messages):
        found = SEAT_LINK.search(msg.content)
        if found:
            return found[1]
    raise AssertionError(f"no seat link in {player.name}'s DMs")


async def fetch(http: aiohttp.ClientSession, url: str) -> tuple[int, bytes]:
    async with http.get(url) as response:
        return response.status, await response.read()


def record_drawn_views(monkeypatch: Any) -> list[dict[str, Any]]:
    """Every view the pages draw a map from."""
    drawn: list[dict[str, Any]] = []
    draw = tables.drawing.draw

    async def recording(game: str, view: Any, names: Any = None) -> bytes:
        drawn.append(dict(view))
        return await draw(game, view, names=names)

    monkeypatch.setattr(tables.drawing, "draw", recording)
    return drawn


async def test_public_page_feed_and_maps_hold_no_secret_and_the_seat_page_does(
        fake, start_bot, alice, bob, tmp_path, monkeypatch) -> None:
    drawn = record_drawn_views(monkeypatch)
    bot = await start_match(fake, start_bot, alice, bob, tmp_path, web_port=0)
    base = f"http://127.0.0.1:{bot.web.port}"
    page_of = f"/m/{bot.web.links.handle(1)}"
    force = [m for m in alice.dm.messages if m.selects][-1]
    await alice.dm.select(None, ["Spirit Lamp (6 points)", "Golden Hand (8 points)"], message=force)
    await alice.dm.wait_for(lambda m: m.id == force.id and "stays sealed" in m.content)
    await wait_public_delivered(bot)

    # The board links to the public page, with a Discord link button.
    board = await alice.wait_for(lambda m: m.button(OPEN_THE_TABLE) is not None)
    assert board.button(OPEN_THE_TABLE).url == f"{base}{page_of}"

    async with aiohttp.ClientSession() as http:
        public: dict[str, bytes] = {}
        for path in (page_of, page_of + "/state.json", "/static/table.js", "/static/table.css"):
            status, public[path] = await fetch(http, base + path)
            assert status == 200, path
        state = (await (await http.get(base + page_of + "/state.json")).json())
        assert state["title"] == "Tiny Big Wars" and state["seat"] is None
        assert [s["name"] for s in state["seats"]] == ["alice", "bob"]
        assert state["waiting"] == ["bob"] and state["deadline"]
        for index, frame in enumerate(state["frames"]):
            status, png = await fetch(http, base + frame["map"])
            assert status == 200 and png.startswith(b"\x89PNG"), index
            public[frame["map"]] = png
        async with http.get(base + page_of + "/events") as stream:  # the feed's first event: the version now
            first = await asyncio.wait_for(stream.content.readuntil(b"\n\n"), 10)
            public[page_of + "/events"] = first
            assert f"data: {state['version']}".encode() in first
        for path, body in public.items():
            assert b"spirit" not in body.lower() and b"goldhand" not in body.lower(), path
        assert drawn and all("you" not in view for view in drawn)
        assert "spirit" not in str(drawn).lower()

        # Alice's own link, from her DM, shows her sealed force; it opens her seat only.
        link = seat_link(alice)
        status, page = await fetch(http, link)
        assert status == 200 and page == public[page_of]
        mine = await (await http.get(link + "/state.json")).json()
        assert mine["seat"]["name"] == "alice" and "force heroes: lamp, goldhand" in mine["seat"]["facts"]
        assert "lamp, goldhand" in mine["seat"]["alt"]
        status, panel = await fetch(http, link + "/panel.png")
        assert status == 200 and panel.startswith(b"\x89PNG")
        bob_link = seat_link(bob)
        assert "goldhand" not in str(await (await http.get(bob_link + "/state.json")).json())

        # A forged, altered or foreign link opens nothing and says why.
        token = link.rsplit("/", 1)[1]
        seat, user, expires, signature = token.split(".")
        for forged, why in ((f"{base}{page_of}/s/{seat}.{user}.{int(expires) + 999}.{signature}", "not valid"),
                            (f"{base}{page_of}/s/1.{user}.{expires}.{signature}", "not valid"),
                            (f"{base}/m/{bot.web.links.handle(2)}/s/{token}", "not valid"),
                            (f"{base}{page_of}/s/junk", "not a seat link")):
            async with http.get(forged + "/state.json") as response:
                assert response.status == 403 and why in await response.text(), forged
        # Match ids count up: a page is reached only through the signed handle the bot posts.
        for unknown in ("/m/99", "/m/1", f"/m/1-{'A' * 12}", f"/m/{bot.web.links.handle(99)}",
                        page_of.replace("/m/1-", "/m/2-")):
            status, _body = await fetch(http, base + unknown)
            assert status == 404, unknown

        # A kick revokes bob's link at once.
        kicked = await alice.slash("game kick", player=bob)
        assert "played by the AI" in kicked.content
        async with http.get(bob_link + "/state.json") as response:
            assert response.status == 403 and "revoked" in await response.text()


async def test_the_feed_says_when_the_match_moves(fake, start_bot, alice, bob, tmp_path) -> None:
    bot = await start_match(fake, start_bot, alice, bob, tmp_path, web_port=0)
    bot.web.feed.every = 0.05
    base = f"http://127.0.0.1:{bot.web.port}"
    page_of = f"/m/{bot.web.links.handle(1)}"
    async with aiohttp.ClientSession() as http:
        before = await (await http.get(base + page_of + "/state.json")).json()
        async with http.get(base + page_of + "/events") as stream:
            await stream.content.readuntil(b"\n\n")
            await AutoPlayer(alice).step()
            moved = (await asyncio.wait_for(stream.content.readuntil(b"\n\n"), 20)).decode()
        version = int(re.search(r"data: (\d+)", moved)[1])
        assert version > before["version"]
        after = await (await http.get(base + page_of + "/state.json")).json()
        assert before["waiting"] == ["alice", "bob"]
        assert after["version"] >= version and after["waiting"] == ["bob"]


async def test_the_result_links_to_the_table(fake, start_bot, alice, bob, tmp_path) -> None:
    bot = await start_match(fake, start_bot, alice, bob, tmp_path, web_port=0, web_base_url="https://table.example/")
    await play_until(fake, [AutoPlayer(alice), AutoPlayer(bob)],
                     lambda: any("The match is over" in m.content for m in fake.channel.messages))
    # the result post (the lobby post, edited to the end, says it too, without a picture)
    result = await alice.wait_for(lambda m: "The match is over" in m.content and bool(m.files), timeout=120)
    page_of = f"https://table.example/m/{bot.web.links.handle(1)}"
    assert result.button(OPEN_THE_TABLE).url == page_of
    assert page_of + "/s/" in seat_link_text(alice)
    assert bot.web is not None


def seat_link_text(player: Any) -> str:
    return "\n".join(m.content for m in player.dm.messages)


def listening_ports() -> set[int]:
    """The TCP ports this process listens on (Linux: its sockets' inodes in /proc/net/tcp*)."""
    inodes = set()
    for fd in Path("/proc/self/fd").iterdir():
        with contextlib.suppress(OSError):
            target = os.readlink(fd)
            if target.startswith("socket:["):
                inodes.add(target[8:-1])
    ports = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for line in Path(table).read_text().splitlines()[1:]:
            fields = line.split()
            if fields[3] == "0A" and fields[9] in inodes:  # 0A: LISTEN
                ports.add(int(fields[1].rsplit(":", 1)[1], 16))
    return ports


async def test_with_no_web_port_nothing_listens_and_nothing_links(fake, start_bot, alice, bob, tmp_path) -> None:
    before = listening_ports()
    bot = await start_match(fake, start_bot, alice, bob, tmp_path)
    await wait_public_delivered(bot)
    assert bot.web is None and bot.web_links is None
    assert listening_ports() == before
    everything = [*fake.messages.values()]
    assert any(m.buttons for m in everything)
    assert all(b.url is None for m in everything for b in m.buttons)
    assert not any("/m/" in m.content for m in everything)


async def test_the_web_port_listens(fake, start_bot, alice, bob, tmp_path) -> None:
    """The check above sees a listener when there is one."""
    before = listening_ports()
    bot = await start_match(fake, start_bot, alice, bob, tmp_path, web_port=0)
    assert listening_ports() - before == {bot.web.port}
