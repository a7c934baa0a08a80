"""The first two rounds of Samurai Swords through Discord: two people and an AI, setup by
DM, the sealed plan modal, swords, levy and placement, ronin, and battles, with a map
posted at every phase and the plan kept from the other player until the reveal."""

from __future__ import annotations

import asyncio

from tests.bot.wording_scan import message_problems
from tests.e2e.harness import factory, settings_for, wait_public_delivered
from tests.e2e.samurai_play import BOUNDS, SamuraiPlayer


def alice_plan(koku: int) -> dict[str, int]:
    """One sword, one koku of ronin, the rest on levy: every step of the round gets a prompt."""
    return {"swords": 1, "build": 0, "levy": koku - 2, "ronin": 1, "ninja": 0}


async def test_two_rounds_of_samurai_through_dms(fake, start_bot, alice, bob, tmp_path) -> None:
    bot = await start_bot(factory(settings_for(fake, tmp_path / "w.db")))
    await alice.slash("game new", game="samurai", seats=3, mode="base", round_limit=2)
    lobby = await alice.wait_for(lambda m: m.button("Join") is not None)
    await bob.click("Join")
    await alice.wait_for(lambda m: m.id == lobby.id and "bob joined" in m.content)
    await alice.click("Add AI")
    await alice.wait_for(lambda m: m.id == lobby.id and "AI" in m.content)
    await alice.click("Start")
    info = await bot.svc.find_match(fake.channel.id)
    posts = lambda: fake.channel_messages(fake.channel)  # noqa: E731

    leaks_at_seal: list[list[str]] = []
    round_start = [0]

    def check_sealed(plan: dict[str, int]) -> None:
        """Right after Alice seals, while the round's plans are not revealed yet: nobody else
        can read hers (neither her DM's confirmation nor the public line of the reveal)."""
        revealed = sum(1 for m in posts() if "Plans revealed" in m.content)
        if revealed >= len(a.sealed_plans):
            return  # Bob was faster and Alice's plan was the last: revealed at once
        leaks_at_seal.append(
            fake.leaks(f"Levy units {plan['levy']}, Hire ronin (2 per koku) 1", allowed=[alice])
            + [m.content for m in posts() if "Plans revealed" in m.content and m.id > round_start[-1]])

    a = SamuraiPlayer(alice, plan=alice_plan, after_plan=check_sealed)
    b = SamuraiPlayer(bob)
    loop = asyncio.get_running_loop()
    end = loop.time() + 240
    while not any("The match is over" in m.content for m in posts()):
        assert loop.time() < end, f"two rounds did not finish; last posts: {[m.content for m in posts()[-3:]]}"
        headers = [m.id for m in posts() if "Action 1 - Plan" in m.content]
        round_start[-1] = headers[-1] if headers else 0
        acted = await a.step()
        if not acted or not a.sealed_plans or len(b.sealed_plans) >= len(a.sealed_plans):
            acted = await b.step() or acted
        if not acted:
            await asyncio.sleep(0.05)
    # the lobby post may say the match is over before delivery closes the last phase post with its
    # map: wait for the bot to have delivered every channel notice (a quiet second is no proof
    # on a busy machine: a CI run under load once checked before the last map)
    await wait_public_delivered(bot)
    await fake.quiesce(quiet=1.0, timeout=60)

    # The plan is a modal of five numbers, bounded by the koku in hand.
    plan_modals = [inputs for _, inputs in a.modals if [c["custom_id"] for c in inputs][:1] == ["swords"]]
    assert len(plan_modals) == 2
    for inputs in plan_modals:
        assert len(inputs) == 5
        assert all(BOUNDS.search(c["label"]) for c in inputs)
    assert any("spearman" in [c["custom_id"] for c in inputs] for _, inputs in a.modals), "no levy modal"

    # Sealed until the reveal, then public.
    assert leaks_at_seal and all(found == [] for found in leaks_at_seal), leaks_at_seal
    first = a.sealed_plans[0]
    assert bob.sees(f"alice swords 1, build 0, levy {first['levy']}, ronin 1, ninja 0")

    # DMs: setup choices as buttons or a select, sealed prompts with the private map.
    texts = [m["content"] for m in a.prompts_seen]
    assert any("add one spearman" in t for t in texts) and any("deploy army" in t for t in texts)
    assert any("Plan:" in t for t in texts) and any("Levy:" in t for t in texts)
    sealed = [m for m in a.prompts_seen if "secret: only you see this" in m["content"]]
    assert sealed and all(m["buttons"] or m["select"] for m in sealed)
    assert any(m["buttons"] == ["Enter numbers"] for m in sealed if "Plan:" in m["content"])
    assert all("you.png" in m["files"] for m in sealed), [(m["content"][:200], m["files"]) for m in sealed if "you.png" not in m["files"]]
    assert any("sword" in t.lower() for t in texts), "Alice bid a sword but never chose one"
    assert any("ronin" in t.lower() and "Plan:" not in t for t in texts), "no ronin placement"
    assert any("Wage War B" in t for t in texts)
    assert message_problems(fake.messages.values()) == []  # every text of the match reads cleanly (issue 25)

    # A phase post with the map after every action that ran, in both rounds.
    headers = [m for m in posts() if m.content.startswith("**Round ")]
    for want in ("Round 1 - Action 1", "Round 1 - Actions 3-6", "Round 1 - Action 7", "Round 2 - Action 1",
                 "Round 2 - Action 7"):
        assert any(want in m.content for m in headers), want
    # Each phase post closes with the map (a phase too long for one post carries on in the next).
    unmapped = [m.content.splitlines()[0] for n, m in enumerate(headers) if not m.files.get("map.png")
                and not (n + 1 < len(headers) and "(continued)" in headers[n + 1].content.splitlines()[0])]
    assert not unmapped, unmapped
    assert all(m.image().size[0] > 0 for m in headers if m.files.get("map.png"))

    # Battles were fought with dice, in public.
    channel = "\n".join(m.text for m in posts())  # a busy phase carries on in an embed
    assert "alice attacks" in channel or "bob attacks" in channel
    assert "round 1 melee" in channel

    # Names, never raw seat references, in anything a player reads.
    for msg in fake.messages.values():
        assert "[[seat:" not in msg.content, msg.content
        for button in msg.buttons:
            assert "[[seat:" not in button.label
    status = await bot.svc.get_match(info.id)
    assert status.status != "active"

