"""A scripted Samurai Swords player for the end-to-end tests: it answers its DMs the way a
person would (the plan and levy modals with chosen numbers, otherwise the first offered
option) and records what it was shown, so a test can assert on components and secrets."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from tests.e2e.harness import open_prompt
from tests.fakediscord.players import Player, modal_text_inputs

BOUNDS = re.compile(r"\((-?\d+)-(-?\d+)\)$")


modal_inputs = modal_text_inputs


@dataclass
class SamuraiPlayer:
    """Answers open DM prompts. `plan` maps a koku total to the five plan numbers; the levy
    modal gets as many spearmen as the levy bin and the modal allow; every other modal
    (losses, garrison forces, gatherings, army screens) is sent as prefilled."""

    player: Player
    plan: Any = None
    levy_budget: int | None = None
    modals: list[tuple[str, list[dict[str, Any]]]] = field(default_factory=list)
    prompts_seen: list[dict[str, Any]] = field(default_factory=list)
    """Each prompt as it was shown: content, button labels, select options, file names."""
    sealed_plans: list[dict[str, int]] = field(default_factory=list)
    after_plan: Any = None
    handled: set[tuple[int, str]] = field(default_factory=set)
    """(message id, its edit count): a DM is answered once per version it shows."""

    async def step(self) -> bool:
        """Answer the newest open prompt not handled yet; False if there is none."""
        msgs = [m for m in self.player.dm.messages if open_prompt(m)]
        if not msgs:
            return False
        msg = msgs[-1]
        key = (msg.id, str(len(msg.versions)))  # the same DM edited into the next decision is a new one
        if key in self.handled:
            return False
        self.handled.add(key)
        self.prompts_seen.append({
            "content": msg.content, "buttons": [b.label for b in msg.buttons],
            "select": [o["label"] for sel in msg.selects for o in sel.options], "files": list(msg.files)})
        if msg.selects:
            options = msg.selects[0].options
            pick = next((o for o in options if o.get("description") == "suggested"), options[0])  # a small number
            await self.player.dm.select(None, [pick["value"]], message=msg)
            return True
        labels = [b.label for b in msg.buttons if b.label != "Change"]
        r = await self.player.dm.click(labels[0], message=msg)
        if r.modal is None:
            return True
        inputs = modal_inputs(r.modal)
        self.modals.append((msg.content, inputs))
        values = {c["custom_id"]: c.get("value") or "0" for c in inputs}
        names = [c["custom_id"] for c in inputs]
        if names == ["swords", "build", "levy", "ronin", "ninja"] and self.plan is not None:
            koku = int(BOUNDS.search(inputs[2]["label"])[2])
            plan = self.plan(koku)
            values = {k: str(v) for k, v in plan.items()}
            self.levy_budget = plan["levy"]
            await self.player.submit_modal(values)
            self.sealed_plans.append(plan)
            if self.after_plan is not None:
                self.after_plan(plan)
            return True
        if "spearman" in names and self.levy_budget is not None and "Levy:" in msg.content:
            top = int(BOUNDS.search(inputs[names.index("spearman")]["label"])[2])
            values = {n: "0" for n in names}
            values["spearman"] = str(min(top, self.levy_budget))
        await self.player.submit_modal(values)
        return True
