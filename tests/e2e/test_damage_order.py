"""The rarest Tiny Big Wars decision, damage order, reached and answered through Discord.

Bob marches three weak heroes on Alice's start, where her two sturdy heroes wait; once her
minions are gone and the hits do not kill both, she must say which hero takes them first."""

from __future__ import annotations

import asyncio
import re
from collections import deque

from sqlmodel import select

from db.models import Choice
from tests.e2e.harness import factory, open_prompt, settings_for
from tests.fakediscord.players import modal_text_inputs


def next_hop(view: dict, start: str, goal: str) -> str | None:
    roads: dict[str, set[str]] = {}
    for a, b in view["roads"]:
        roads.setdefault(a, set()).add(b)
        roads.setdefault(b, set()).add(a)
    prev = {start: start}
    todo = deque([start])
    while todo:
        node = todo.popleft()
        for nxt in roads.get(node, ()):
            if nxt not in prev:
                prev[nxt] = node
                todo.append(nxt)
    if goal not in prev or goal == start:
        return None
    node = goal
    while prev[node] != start:
        node = prev[node]
    return node


async def answer(place, player, msg, pick_button, numbers) -> None:
    if msg.selects and msg.selects[0].custom_id.endswith(":q"):  # a small number: picked from a select
        select = msg.selects[0]
        lo, hi = map(int, re.search(r"\((-?\d+)-(-?\d+)\)", select.placeholder).groups())
        await place.select(None, [str(numbers(select.placeholder, lo, hi))], message=msg)
        return
    if msg.selects:
        return
    labels = [b.label for b in msg.buttons if b.label != "Change"]
    label = pick_button(labels, msg.content)
    r = await place.click(label, message=msg)
    if r.modal is not None:
        values = {}
        for comp in modal_text_inputs(r.modal):
            lo, hi = map(int, re.search(r"\((-?\d+)-(-?\d+)\)", comp["label"]).groups())
            values[comp["custom_id"]] = str(numbers(comp["label"], lo, hi))
        await player.submit_modal(values)


async def test_damage_order_is_asked_and_answered(fake, start_bot, alice, bob, tmp_path) -> None:
    bot = await start_bot(factory(settings_for(fake, tmp_path / "w.db")))
    await alice.slash("game new", game="tinybigwars", seats=2, round_limit=12)
    await alice.wait_for(lambda m: m.button("Join") is not None)
    await bob.click("Join")
    await alice.wait_for(lambda m: "bob joined" in m.content)
    await alice.click("Start")
    info = await bot.svc.find_match(fake.channel.id)
    await alice.dm.select(None, ["Iron Monk (6 points)", "Jade Warden (6 points)"],
                          message=await alice.dm.wait_for(lambda m: m.selects))
    await bob.dm.select(None, ["Lotus Sage (5 points)", "Banner Captain (6 points)", "Willow Mender (5 points)"],
                        message=await bob.dm.wait_for(lambda m: m.selects))

    view = await bot.svc.public_view(info.id)
    names = {loc["id"]: loc["name"] for loc in view["locations"]}
    alice_home = next(loc["id"] for loc in view["locations"] if loc.get("start_seat") == 0)

    by_name = {name: loc for loc, name in names.items()}

    def bob_buttons(labels: list[str], content: str) -> str:
        """Bob's hero marches on Alice's start: where it stands is read from the prompt itself
        ("<hero> at <place>: N actions left"), never from a view read earlier, so the match
        takes the same path however late the prompt is answered."""
        moves = {lab for lab in labels if lab.startswith("Move to ")}
        standing = re.search(r"\*\*[^*]+? at ([^*:]+): \d+ actions? left", content)
        if moves and standing and standing.group(1) in by_name:
            hop = next_hop(view, by_name[standing.group(1)], alice_home)
            if hop and f"Move to {names[hop]}" in moves:
                return f"Move to {names[hop]}"
        for wanted in ("Activate", "Done", "Move to"):
            match = [lab for lab in labels if lab.startswith(wanted)]
            if match:
                return match[0]
        return labels[0]

    def alice_buttons(labels: list[str], content: str) -> str:
        for wanted in ("Done", "Pass"):
            if wanted in labels:
                return wanted
        return labels[0]  # damage order: the first hero named

    loop = asyncio.get_running_loop()
    end = loop.time() + 600  # ends as soon as the damage order is asked; generous for a busy machine
    handled: set[tuple[int, str]] = set()
    asked = False
    while loop.time() < end:
        async with bot.svc.store.read() as session:
            kinds = {c.kind for c in (await session.exec(select(Choice).where(Choice.match_id == info.id))).all()
                     if c.by == "player" and c.seat == 0}
        if "damage_order" in kinds:
            asked = True
            break
        if (await bot.svc.get_match(info.id)).status != "active":
            break
        acted = False
        for player, pick, numbers in (
            (alice, alice_buttons, lambda label, lo, hi: lo),
            (bob, bob_buttons, lambda label, lo, hi: hi if "extra hits" in label or "Minions" in label else lo),
        ):
            msgs = [m for m in player.dm.messages if open_prompt(m)]
            if msgs and (msgs[-1].id, str(msgs[-1].components)) not in handled:
                handled.add((msgs[-1].id, str(msgs[-1].components)))
                await answer(player.dm, player, msgs[-1], pick, numbers)
                acted = True
        if not acted:
            await asyncio.sleep(0.05)
    assert asked, "Alice was never asked (or never answered) which hero takes the hits first"
    ordered = [m for m in alice.dm.messages if any("which hero takes them first" in v.get("content", "")
                                                   for v in m.versions)]
    assert ordered
    # Answered: the DM says so, or (her next decision in the same DM) what she chose.
    await fake.wait_until(lambda: "You chose: **" in ordered[-1].content, 60)
