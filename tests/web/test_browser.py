"""The match page in a real browser (headless Chromium): it loads a live match, zooms and pans,
moves the replay slider and follows the match to its next phase without a reload; screenshots at
phone and desktop widths are checked and kept (tests/web/chromium.py `artefacts`)."""

from __future__ import annotations

import io
import json
import os
from typing import Any

import pytest
from PIL import Image

from bot.service.wording import ai_name
from tests.e2e.harness import AutoPlayer, factory, settings_for
from tests.web.chromium import Chromium, artefacts, chromium_path
from tests.web.test_pages import seat_link, start_match

pytestmark = pytest.mark.skipif(
    chromium_path() is None and not os.environ.get("WARHOST_REQUIRE_BROWSER"),
    reason="no chromium here (apt-get install chromium; .ci/run installs it and requires this test)")

PHONE = (390, 844, 2.0, True)
DESKTOP = (1280, 900, 1.0, False)
LEGIBLE_PX = 10
"""The smallest text on screen, in CSS pixels, the page allows (map text included)."""
PAGE_WEIGHT = 300 * 1024


@pytest.fixture
async def browser(tmp_path: Any) -> Any:
    chromium = Chromium(tmp_path / "profile")
    await chromium.start()
    yield chromium
    await chromium.close()


async def open_page(browser: Chromium, url: str, size: tuple[int, int, float, bool]) -> None:
    await browser.size(*size)
    await browser.call("Page.navigate", url=url)
    await browser.wait_for("window.warhostTable && warhostTable.state && document.getElementById('map').complete"
                           " && document.getElementById('map').naturalWidth > 0", what="a loaded map")


async def check_screen(browser: Chromium, name: str, size: tuple[int, int, float, bool]) -> None:
    """Screenshot kept as an artefact; its map is drawn, and no text is below the legible size."""
    await browser.evaluate("new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")
    png = await browser.screenshot(artefacts() / f"{name}.png")
    shot = Image.open(io.BytesIO(png)).convert("RGB")
    scale = size[2]
    assert shot.size == (round(size[0] * scale), round(size[1] * scale))
    box = await browser.evaluate("(() => { const b = document.getElementById('viewport').getBoundingClientRect();"
                                 " return [b.left, b.top, b.right, Math.min(b.bottom, innerHeight)]; })()")
    crop = shot.crop(tuple(round(v * scale) for v in box))
    colours = crop.getcolors(maxcolors=1 << 20) or []
    assert len(colours) > 200, f"{name}: the map area is nearly empty ({len(colours)} colours)"
    assert max(count for count, _colour in colours) < 0.7 * crop.width * crop.height, f"{name}: one colour fills the map"
    smallest = await browser.evaluate(
        "Math.min(...[...document.querySelectorAll('h1, #phase, #deadline, #seats li, #log li, label, button')]"
        ".map((e) => parseFloat(getComputedStyle(e).fontSize)))")
    assert smallest >= 12, f"{name}: text of {smallest} px"
    map_text = await browser.evaluate("warhostTable.view.scale * 20")  # the map's smallest text, on screen
    assert map_text >= LEGIBLE_PX, f"{name}: the map's text is {map_text} px on screen"


async def test_a_live_match_page_zooms_replays_and_follows_the_match(
        fake, start_bot, alice, bob, tmp_path, browser) -> None:
    bot = await start_match(fake, start_bot, alice, bob, tmp_path, web_port=0)
    bot.web.feed.every = 0.1
    url = f"http://127.0.0.1:{bot.web.port}/m/{bot.web.links.handle(1)}"
    await open_page(browser, url, PHONE)
    await browser.evaluate("window.stillThisPage = true")
    state = await browser.evaluate("warhostTable.state")
    assert state["title"] == "Tiny Big Wars" and state["waiting"] == ["alice", "bob"]
    alt = await browser.evaluate("document.getElementById('map').alt")
    assert alt.startswith("Map of Tiny Big Wars")
    deadline = await browser.evaluate("document.getElementById('deadline').textContent")
    assert deadline.startswith("Deadline: ") and "Waiting for alice, bob." in deadline
    await check_screen(browser, "tinybigwars-phone", PHONE)

    # Zoom with the wheel at the map's centre, then with the keyboard; drag to pan.
    before = await browser.evaluate("({...warhostTable.view})")
    box = await browser.evaluate("(() => { const b = document.getElementById('viewport').getBoundingClientRect();"
                                 " return [b.left + b.width / 2, b.top + b.height / 2]; })()")
    await browser.wheel(box[0], box[1], -400)
    await browser.wait_for(f"warhostTable.view.scale > {before['scale']} * 1.2", what="a zoom in")
    zoomed = await browser.evaluate("({...warhostTable.view})")
    await browser.evaluate("document.getElementById('viewport').focus()")
    await browser.key("+", "Equal", 187, "+")
    await browser.wait_for(f"warhostTable.view.scale > {zoomed['scale']}", what="a keyboard zoom")
    await browser.drag((box[0], box[1]), (box[0] - 120, box[1] - 150))
    moved = await browser.evaluate("({...warhostTable.view})")
    assert moved["x"] < zoomed["x"] and moved["y"] < zoomed["y"]
    transform = await browser.evaluate("document.getElementById('map').style.transform")
    assert "scale(" in transform
    await check_screen(browser, "tinybigwars-phone-zoomed", PHONE)
    await browser.key("0", "Digit0", 48, "0")
    await browser.wait_for(f"Math.abs(warhostTable.view.scale - {before['scale']}) < 0.001", what="the fit again")
    await browser.pinch((box[0], box[1]), 60, 240)  # two fingers apart, as on a phone
    await browser.wait_for(f"warhostTable.view.scale > {before['scale']} * 1.5", what="a pinch zoom")

    # Both seal their forces: the next phase arrives on the page by itself.
    frames = len(state["frames"])
    for player in (alice, bob):
        assert await AutoPlayer(player).step()
    await browser.wait_for(f"warhostTable.state.frames.length > {frames} && warhostTable.following"
                           f" && warhostTable.state.phase !== {json.dumps(state['phase'])}"
                           " && document.getElementById('map').complete", what="the next phase")
    assert await browser.evaluate("window.stillThisPage") is True  # no reload
    now = await browser.evaluate("warhostTable.state")
    assert now["version"] > state["version"] and now["phase"] != state["phase"]
    src = await browser.evaluate("document.getElementById('map').getAttribute('src')")
    assert src == now["frames"][-1]["map"]

    # The replay slider goes back a phase from the keyboard, and "Now" comes back.
    last = len(now["frames"]) - 1
    await browser.evaluate("document.getElementById('replay').focus()")
    await browser.key("ArrowLeft", "ArrowLeft", 37)
    await browser.wait_for(f"warhostTable.frame === {last - 1} && document.getElementById('map').complete",
                           what="the phase before")
    src = await browser.evaluate("document.getElementById('map').getAttribute('src')")
    assert src == now["frames"][last - 1]["map"]
    label = await browser.evaluate("document.getElementById('replay').getAttribute('aria-valuetext')")
    assert label.startswith(f"{last} of {last + 1}: ")
    await browser.evaluate("document.getElementById('live').click()")
    await browser.wait_for(f"warhostTable.frame === {last}", what="now again")

    await open_page(browser, url, DESKTOP)
    await check_screen(browser, "tinybigwars-desktop", DESKTOP)

    # Alice's own page, from the link in her DM: her private panel beside the same map.
    await open_page(browser, seat_link(alice), PHONE)
    await browser.wait_for("warhostTable.state.seat && document.getElementById('panel').complete"
                           " && document.getElementById('panel').naturalWidth > 0", what="her panel")
    assert not await browser.evaluate("document.getElementById('yours').hidden")
    alt = await browser.evaluate("document.getElementById('panel').alt")
    assert alt.startswith("Your private panel, alice: ")
    await browser.evaluate("document.getElementById('yours').scrollIntoView()")
    await browser.screenshot(artefacts() / "tinybigwars-seat-phone.png")


async def test_a_samurai_page_weighs_less_than_300_kb(fake, start_bot, alice, tmp_path, browser) -> None:
    bot = await start_bot(factory(settings_for(fake, tmp_path / "w.db", web_port=0)))
    await alice.slash("game new", game="samurai", seed=3)
    lobby = await alice.wait_for(lambda m: m.button("Add AI") is not None)
    for _ in range(2):
        await alice.click("Add AI", message=lobby)
    await alice.wait_for(lambda m: m.id == lobby.id and ai_name(2) in m.content)
    await alice.click("Start", message=lobby)
    await alice.dm.wait_for(lambda m: bool(m.buttons or m.selects))
    url = f"http://127.0.0.1:{bot.web.port}/m/{bot.web.links.handle(1)}"
    await open_page(browser, url, PHONE)
    weight = await browser.evaluate(
        "performance.getEntriesByType('navigation').concat(performance.getEntriesByType('resource'))"
        ".reduce((total, entry) => total + entry.transferSize, 0)")
    assert 50 * 1024 < weight <= PAGE_WEIGHT, f"the Samurai page weighs {weight} bytes"
    await check_screen(browser, "samurai-phone", PHONE)
    await open_page(browser, url, DESKTOP)
    await check_screen(browser, "samurai-desktop", DESKTOP)
