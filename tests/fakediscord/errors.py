"""What a fake Discord handler answers with: Discord's JSON bodies and its error answers."""

from __future__ import annotations

import json
from typing import Any

from aiohttp import web


def jresp(data: Any, status: int = 200, headers: dict[str, str] | None = None) -> web.Response:
    """JSON with Content-Type exactly "application/json": discord.http.json_or_text only parses
    that exact value (aiohttp's json_response appends "; charset=utf-8")."""
    return web.Response(body=json.dumps(data).encode(), status=status,
                        headers={"Content-Type": "application/json", **(headers or {})})


class DiscordError(Exception):
    """Raised inside a handler to answer with one of Discord's error bodies and record a violation."""

    def __init__(self, status: int, code: int, message: str, kind: str, detail: str = "",
                 extra: dict | None = None) -> None:
        super().__init__(f"{status} {code} {message}")
        self.status, self.code, self.message, self.kind, self.detail = status, code, message, kind, detail
        self.extra = extra or {}
