"""A modal submit that does not fit the open decision (forged, or another prompt's form) is
answered in plain words, and nothing is chosen."""

from __future__ import annotations

import re

from tests.e2e.harness import ephemeral_reply
from tests.e2e.test_delivery_blocked import start_match


async def test_a_forged_form_on_a_menu_prompt_is_refused_in_plain_words(fake, start_bot, alice, bob, tmp_path) -> None:
    bot = await start_match(fake, start_bot, alice, bob, tmp_path)
    prompt = await alice.dm.wait_for(lambda m: m.selects)
    found = re.match(r"wh:p:(\d+):(\d+):(\d+):", prompt.selects[0].custom_id)
    assert found is not None
    match_id, seat, version = found.groups()
    forged = {"custom_id": f"wh:pm:{match_id}:{seat}:{version}",
              "components": [{"type": 1, "components": [{"type": 4, "custom_id": "picks", "value": "3"}]}]}
    reply = await alice.dm._run(fake.new_interaction(5, alice.user, prompt.channel, forged, message=prompt), True)
    text = await ephemeral_reply(reply)
    assert "This form does not match your open decision" in text and "Nothing was chosen" in text
    assert "missing" not in text and "'picks'" not in text
    status = await bot.svc.status(int(fake.channel.id))
    assert any(w.user_id == alice.id for w in status.waiting), "alice still owes her choice"
