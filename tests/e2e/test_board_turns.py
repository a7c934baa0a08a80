"""The status board in a phase played in turns: whose turn it is, the turn order, and each
seat's score, as the public view shows them (nobody merely waiting is shown as done)."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from tests.e2e.harness import AutoPlayer, factory, open_prompt, settings_for


def activation_offer(player: Any) -> bool:
    """The player's DMs hold an open Hero Activation decision: their turn has come."""
    return any(open_prompt(m) and "Activate " in json.dumps(m.components) for m in player.dm.messages)


async def test_the_board_says_whose_turn_the_order_and_the_score(fake, start_bot, alice, bob, tmp_path) -> None:
    await start_bot(factory(settings_for(fake, tmp_path / "w.db")))
    await alice.slash("game new", game="tinybigwars", seats=2, round_limit=1, seed=3)
    lobby = await alice.wait_for(lambda m: m.button("Join") is not None)
    await bob.click("Join", message=lobby)
    await alice.click("Start", message=lobby)
    board = await alice.wait_for(lambda m: "(match #1)" in m.content and m.button("Act") is not None)
    # A sealed step: who has chosen is shown as such.
    assert "· 0 influence" in board.content, board.content
    players = [AutoPlayer(alice), AutoPlayer(bob)]
    loop = asyncio.get_running_loop()
    end = loop.time() + 300
    while not activation_offer(bob):  # the activation order of seed 3 is bob, alice
        assert loop.time() < end, "bob's Hero Activation never came"
        acted = [await p.step() for p in players if p.player is alice or not activation_offer(bob)]
        if not any(acted):
            await asyncio.sleep(0.05)
    shown = await alice.wait_for(lambda m: m.id == board.id and "Hero Activation" in m.content
                                 and "on turn" in m.content, timeout=60)
    lines = shown.content.splitlines()
    assert "Turn order: bob, alice" in lines, shown.content
    bob_line = next(line for line in lines if line.startswith("- bob"))
    alice_line = next(line for line in lines if line.startswith("- alice"))
    assert "on turn: owes a choice" in bob_line and " influence" in bob_line, bob_line
    assert "waits for their turn" in alice_line and "chosen" not in alice_line, alice_line
    status = await alice.slash("game status")
    assert "Turn order: bob, alice" in status.content and "waits for their turn" in status.content
