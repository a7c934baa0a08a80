"""Headless Chromium (Debian's package) driven through its DevTools protocol over aiohttp's
websocket client: no browser download, no extra client library."""

from __future__ import annotations

import asyncio
import base64
import contextlib
import itertools
import json
import os
import re
import shutil
from pathlib import Path
from typing import Any

import aiohttp

LISTENING = re.compile(r"DevTools listening on (ws://\S+)")


def chromium_path() -> str | None:
    return shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")


class Chromium:
    """One headless browser with one page; ``call`` sends a DevTools command and returns its result."""

    def __init__(self, profile: Path) -> None:
        self.profile = profile
        self.process: asyncio.subprocess.Process | None = None
        self.http: aiohttp.ClientSession | None = None
        self.socket: aiohttp.ClientWebSocketResponse | None = None
        self.ids = itertools.count(1)
        self.waiting: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self.reader: asyncio.Task[None] | None = None

    async def start(self) -> None:
        path = chromium_path()
        assert path is not None, "no chromium on this machine"
        self.process = await asyncio.create_subprocess_exec(
            path, "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
            "--no-first-run", "--no-default-browser-check", "--disable-extensions", "--hide-scrollbars",
            "--remote-debugging-port=0", "--remote-allow-origins=*", f"--user-data-dir={self.profile}",
            "about:blank", stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE)
        assert self.process.stderr is not None
        browser_url = None
        while browser_url is None:
            line = (await asyncio.wait_for(self.process.stderr.readline(), 60)).decode(errors="replace")
            if not line:
                raise AssertionError("chromium exited before it listened")
            found = LISTENING.search(line)
            browser_url = found[1] if found else None
        port = int(browser_url.split(":")[2].split("/")[0])
        asyncio.create_task(self._drain(self.process.stderr))
        self.http = aiohttp.ClientSession()
        page = None
        for _ in range(100):
            targets = await (await self.http.get(f"http://127.0.0.1:{port}/json/list")).json()
            page = next((t for t in targets if t.get("type") == "page"), None)
            if page is not None:
                break
            await asyncio.sleep(0.1)
        assert page is not None, "chromium opened no page"
        self.socket = await self.http.ws_connect(page["webSocketDebuggerUrl"], max_msg_size=0)
        self.reader = asyncio.create_task(self._read())

    @staticmethod
    async def _drain(stream: asyncio.StreamReader) -> None:
        while await stream.readline():
            pass

    async def _read(self) -> None:
        assert self.socket is not None
        async for message in self.socket:
            data = json.loads(message.data)
            future = self.waiting.pop(data.get("id", -1), None)
            if future is not None and not future.done():
                future.set_result(data)

    async def call(self, method: str, **params: Any) -> dict[str, Any]:
        assert self.socket is not None
        number = next(self.ids)
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self.waiting[number] = future
        await self.socket.send_str(json.dumps({"id": number, "method": method, "params": params}))
        data = await asyncio.wait_for(future, 60)
        if "error" in data:
            raise AssertionError(f"{method}: {data['error']}")
        return dict(data.get("result") or {})

    async def evaluate(self, expression: str) -> Any:
        result = await self.call("Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=True)
        if "exceptionDetails" in result:
            raise AssertionError(f"{expression}: {result['exceptionDetails']}")
        return result["result"].get("value")

    async def wait_for(self, expression: str, timeout: float = 60.0, what: str = "") -> Any:
        """Poll a page expression until it is truthy (the page works at its own pace)."""
        end = asyncio.get_running_loop().time() + timeout
        while True:
            value = await self.evaluate(expression)
            if value:
                return value
            if asyncio.get_running_loop().time() > end:
                raise AssertionError(f"the page never got to {what or expression} in {timeout} s")
            await asyncio.sleep(0.1)

    async def size(self, width: int, height: int, scale: float, mobile: bool) -> None:
        await self.call("Emulation.setDeviceMetricsOverride", width=width, height=height,
                        deviceScaleFactor=scale, mobile=mobile)
        await self.call("Emulation.setTouchEmulationEnabled", enabled=mobile, maxTouchPoints=5)

    async def screenshot(self, path: Path) -> bytes:
        data = base64.b64decode((await self.call("Page.captureScreenshot", format="png"))["data"])
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        return data

    async def key(self, key: str, code: str, key_code: int, text: str = "") -> None:
        for kind in ("keyDown", "keyUp"):
            await self.call("Input.dispatchKeyEvent", type=kind, key=key, code=code, windowsVirtualKeyCode=key_code,
                            **({"text": text} if text and kind == "keyDown" else {}))

    async def wheel(self, x: float, y: float, delta_y: float) -> None:
        await self.call("Input.dispatchMouseEvent", type="mouseWheel", x=x, y=y, deltaX=0, deltaY=delta_y)

    async def drag(self, start: tuple[float, float], end: tuple[float, float], steps: int = 5) -> None:
        await self.call("Input.dispatchMouseEvent", type="mousePressed", x=start[0], y=start[1], button="left",
                        clickCount=1)
        for step in range(1, steps + 1):
            x = start[0] + (end[0] - start[0]) * step / steps
            y = start[1] + (end[1] - start[1]) * step / steps
            await self.call("Input.dispatchMouseEvent", type="mouseMoved", x=x, y=y, button="left", buttons=1)
        await self.call("Input.dispatchMouseEvent", type="mouseReleased", x=end[0], y=end[1], button="left",
                        clickCount=1)

    async def pinch(self, centre: tuple[float, float], start_gap: float, end_gap: float, steps: int = 6) -> None:
        """Two fingers on a touch screen moving apart (zoom in) or together (zoom out)."""
        def points(gap: float) -> list[dict[str, float]]:
            return [{"x": centre[0] - gap / 2, "y": centre[1], "id": 1},
                    {"x": centre[0] + gap / 2, "y": centre[1], "id": 2}]

        await self.call("Input.dispatchTouchEvent", type="touchStart", touchPoints=points(start_gap))
        for step in range(1, steps + 1):
            gap = start_gap + (end_gap - start_gap) * step / steps
            await self.call("Input.dispatchTouchEvent", type="touchMove", touchPoints=points(gap))
        await self.call("Input.dispatchTouchEvent", type="touchEnd", touchPoints=[])

    async def close(self) -> None:
        if self.socket is not None:
            await self.socket.close()
        if self.reader is not None:
            self.reader.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.reader
        if self.http is not None:
            await self.http.close()
        if self.process is not None and self.process.returncode is None:
            self.process.terminate()
            try:
                await asyncio.wait_for(self.process.wait(), 10)
            except TimeoutError:
                self.process.kill()
                await self.process.wait()


def artefacts() -> Path:
    """Where browser tests keep their screenshots (WARHOST_ARTEFACTS, else tmp/artefacts in the repository)."""
    configured = os.environ.get("WARHOST_ARTEFACTS")
    root = Path(configured) if configured else Path(__file__).resolve().parents[2] / "tmp" / "artefacts"
    return root / "web"

