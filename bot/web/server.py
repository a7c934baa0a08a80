"""The match pages' HTTP server, run inside the bot process on WEB_HOST:WEB_PORT (aiohttp, which
discord.py already brings).

    /m/<match>                      the public page (static HTML; its script reads the rest); <match> is
                                    the id and a signature of it (WebLinks.handle): not found by counting
    /m/<match>/state.json           the table now: status, log, the frames of the replay slider
    /m/<match>/events               server-sent events: the match moved (the page then reads its state)
    /m/<match>/map/<frame>.png      one frame's public map
    /m/<match>/s/<token>[/...]      the same for a seat, its own view added (a signed seat link)
    /static/<file>                  the pages' CSS and script

Every answer is a read: nothing here changes a match.
"""

from __future__ import annotations

import json
import logging
from importlib import resources
from typing import Any

from aiohttp import web

from bot.service import MatchService, NoMatch
from bot.service.errors import Conflict, NotSeated
from bot.service.web_links import BadLink, SeatPass, WebLinks
from bot.web.feed import Feed
from bot.web.tables import Tables

log = logging.getLogger(__name__)

KEEP_ALIVE = 20.0
"""Seconds between two comments on an idle event stream (proxies drop silent connections)."""
STATIC_TYPES = {".css": "text/css", ".js": "text/javascript", ".html": "text/html"}
SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; img-src 'self'; style-src 'self'; script-src 'self'; "
                               "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'",
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
}
"""No third-party request, no framing, and a seat link never leaks in a Referer header."""


def static_file(name: str) -> bytes:
    return resources.files("bot.web").joinpath("static", name).read_bytes()


class WebServer:
    """The pages of every match this bot's database holds."""

    def __init__(self, service: MatchService, links: WebLinks, feed_every: float = 1.0) -> None:
        self.service = service
        self.links = links
        self.tables = Tables(service, links.handle)
        self.feed = Feed(service.store, feed_every)
        self.runner: web.AppRunner | None = None
        self.port: int | None = None
        self.static = {name: static_file(name) for name in ("table.html", "table.css", "table.js")}

    def app(self) -> web.Application:
        app = web.Application(middlewares=[self._headers])
        match = r"/m/{match:\d{1,12}-[A-Za-z0-9_-]{1,40}}"
        seat = match + r"/s/{token:[A-Za-z0-9._-]{1,120}}"
        for base, route_seat in ((match, False), (seat, True)):
            app.router.add_get(base, self._page)
            app.router.add_get(base + "/state.json", self._state if not route_seat else self._seat_state)
            app.router.add_get(base + "/events", self._events)
            app.router.add_get(base + r"/map/{frame:\d{1,6}}.png", self._map)
        app.router.add_get(seat + "/panel.png", self._panel)
        app.router.add_get(r"/static/{name:table\.(css|js)}", self._static)
        return app

    async def start(self, host: str, port: int) -> None:
        self.runner = web.AppRunner(self.app(), access_log=None, shutdown_timeout=1.0)
        await self.runner.setup()
        site = web.TCPSite(self.runner, host, port)
        await site.start()
        self.port = int(self.runner.addresses[0][1]) if self.runner.addresses else port
        self.feed.start()
        log.info("match pages on http://%s:%s/m/<match>", host, self.port)

    async def stop(self) -> None:
        await self.feed.stop()
        if self.runner is not None:
            await self.runner.cleanup()
            self.runner = None

    @web.middleware
    async def _headers(self, request: web.Request, handler: Any) -> web.StreamResponse:
        try:
            response: web.StreamResponse = await handler(request)
        except (NoMatch, LookupError):
            response = _error(404, "There is no such match here.")
        except BadLink as exc:
            response = _error(403, str(exc))
        except (Conflict, NotSeated) as exc:
            response = _error(409, str(exc))
        for name, value in SECURITY_HEADERS.items():
            response.headers.setdefault(name, value)
        return response

    def _match_id(self, request: web.Request) -> int:
        """The match the address names; a forged handle is answered as a match that is not there."""
        return self.links.match_of(request.match_info["match"])

    def _seat_pass(self, request: web.Request) -> SeatPass | None:
        token = request.match_info.get("token")
        return None if token is None else self.links.read(self._match_id(request), token)

    async def _admitted(self, request: web.Request) -> SeatPass | None:
        """The seat the request's link opens, checked against who holds the seat now (or None: a public page)."""
        seat_pass = self._seat_pass(request)
        if seat_pass is not None:
            self.links.admit(seat_pass, await self.service.get_match(seat_pass.match_id))
        return seat_pass

    async def _page(self, request: web.Request) -> web.Response:
        await self._admitted(request)
        await self.service.get_match(self._match_id(request))  # a 404 for a match that is not there
        return web.Response(body=self.static["table.html"], content_type="text/html", charset="utf-8",
                            headers={"Cache-Control": "no-cache"})

    async def _static(self, request: web.Request) -> web.Response:
        name = request.match_info["name"]
        return web.Response(body=self.static[name], content_type=STATIC_TYPES[name[name.rindex("."):]],
                            headers={"Cache-Control": "no-cache"})

    async def _state(self, request: web.Request) -> web.Response:
        state = await self.tables.state(self._match_id(request))
        return _json(state.json())

    async def _seat_state(self, request: web.Request) -> web.Response:
        seat_pass = await self._admitted(request)
        state = await self.tables.state(self._match_id(request), seat_pass)
        return _json(state.json(), private=True)

    async def _map(self, request: web.Request) -> web.Response:
        await self._admitted(request)
        try:
            step = request.query.get("step", "")
            png = await self.tables.map_png(self._match_id(request), int(request.match_info["frame"]),
                                            int(step) if step.isdigit() else None)
        except IndexError:
            return _error(404, "There is no such phase in this match.")
        return web.Response(body=png, content_type="image/png", headers={"Cache-Control": "max-age=31536000, immutable"})

    async def _panel(self, request: web.Request) -> web.Response:
        seat_pass = await self._admitted(request)
        assert seat_pass is not None
        png = await self.tables.panel_png(seat_pass.match_id, seat_pass)
        return web.Response(body=png, content_type="image/png", headers={"Cache-Control": "no-store"})

    async def _events(self, request: web.Request) -> web.StreamResponse:
        """The match's version each time it moves, as server-sent events, until the page goes."""
        await self._admitted(request)
        match_id = self._match_id(request)
        version = (await self.service.get_match(match_id)).version
        response = web.StreamResponse(headers={"Content-Type": "text/event-stream", "Cache-Control": "no-store",
                                               "X-Accel-Buffering": "no"})
        await response.prepare(request)
        await response.write(f"retry: 3000\nevent: version\ndata: {version}\n\n".encode())
        try:
            while True:
                moved = await self.feed.wait_past(match_id, version, KEEP_ALIVE)
                if moved is None:
                    await response.write(b": still here\n\n")
                    continue
                version = moved
                await response.write(f"event: version\ndata: {version}\n\n".encode())
        except ConnectionResetError:
            pass  # the page went away
        return response


def _json(data: dict[str, Any], private: bool = False) -> web.Response:
    return web.Response(text=json.dumps(data, separators=(",", ":")), content_type="application/json",
                        headers={"Cache-Control": "no-store" if private else "no-cache"})


def _error(status: int, text: str) -> web.Response:
    body = (f"<!doctype html><html lang=en><meta charset=utf-8><meta name=viewport content='width=device-width'>"
            f"<title>warhost</title><link rel=stylesheet href=/static/table.css><main class=error><h1>{status}</h1>"
            f"<p>{_escape(text)}</p></main></html>")
    return web.Response(status=status, text=body, content_type="text/html")


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
