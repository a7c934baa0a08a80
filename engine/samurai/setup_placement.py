"""Setup placements made by everyone at once, sealed (option `setup`, default "simultaneous").

The rulebook has the players take turns six times (claim a province in Quick Start and LWTV,
then add two spearmen) and then deploy their armies one at a time: 45 waits for a 4-seat
base game. Placing spearmen and deploying armies only touch one's own provinces, so every
player does all of it in one sealed sequence (12 spearmen, at most 3 in a province during
setup; the Quick Start / LWTV army screens; the three armies, one per province) and all
of it is revealed together: one wait.

Claims do touch the others: two players may want the same unoccupied province. So in Quick
Start and LWTV a sealed claims step comes first. Every player lists six wishes in order;
then six claim rounds are played in sword order, each player taking his first wish still
free. A player whose wishes are all taken gets the free province bordering most of his land
(then the one listed first on the map). Claims come before the spearmen because where you
reinforce depends on what you hold. Two waits in all.

`setup="classic"` keeps the rulebook's turns (rules.py's task queue).

Drafts: "claims" (wishes), then "spears" (provinces, one entry per spearman), "a1"/"a2"
(army screens), "deploys" (a province per army) and "last" (the kind of the last part
answered, kept by the sealed review prompt).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from engine.contract import Event, IllegalChoice, NumberField, Prompt
from engine.kit.events import emit
from engine.kit.prompting import opt
from engine.samurai.answers import Pick, ScreenAnswer
from engine.samurai.board import (
    PLURAL,
    active,
    army_at,
    check_province,
    deploy_targets,
    end_phase,
    garrison_size,
    owned,
    paged,
    player_of,
    province_name,
    region_hint,
    units_text,
    who,
)
from engine.samurai.content import content
from engine.samurai.setup import QS_TROOPS, SETUP_TURNS
from engine.samurai.state import SamuraiState, no_units
from engine.words import counted

SPEARMEN_PER_TURN = 2
ARMIES = 3


def spearmen_to_place() -> int:
    return SETUP_TURNS * SPEARMEN_PER_TURN


# ---------------------------------------------------------------- targets (also the classic turns)


def spear_targets(state: SamuraiState, seat: int) -> list[str]:
    """Own provinces that may take one more setup spearman (drafted ones counted)."""
    drafted = Counter(player_of(state, seat).draft.get("spears", []))
    if player_of(state, seat).tray["spearman"] - sum(drafted.values()) <= 0:
        return []
    cap = content().units.limits.setup_spearmen_per_province
    return [pid for pid in owned(state, seat) if state.provinces[pid].garrison["spearman"] + drafted[pid] < cap]


def is_spear_target(state: SamuraiState, seat: int, pid: str) -> bool:
    """Whether ``pid`` is one of `spear_targets`, worked out for that province alone."""
    player = player_of(state, seat)
    drafted = player.draft.get("spears", [])
    if player.tray["spearman"] - len(drafted) <= 0:
        return False
    province = state.provinces[pid]
    return (province.owner == seat
            and province.garrison["spearman"] + drafted.count(pid) < content().units.limits.setup_spearmen_per_province)


def has_spear_target(state: SamuraiState, seat: int) -> bool:
    """Whether `spear_targets` has one, found without listing the rest."""
    player = player_of(state, seat)
    drafted = Counter(player.draft.get("spears", []))
    if player.tray["spearman"] - sum(drafted.values()) <= 0:
        return False
    cap = content().units.limits.setup_spearmen_per_province
    provinces = state.provinces
    return any(provinces[pid].garrison["spearman"] + drafted[pid] < cap for pid in owned(state, seat))


def claim_targets(state: SamuraiState, seat: int) -> list[str]:
    """Unoccupied provinces the seat may claim or wish for (its own wishes left out)."""
    if player_of(state, seat).tray["spearman"] <= 0:
        return []
    wished = set(player_of(state, seat).draft.get("claims", []))
    return [pid for pid, province in state.provinces.items() if province.owner is None and not province.neutral and pid not in wished]


def deploy_spots(state: SamuraiState, seat: int) -> list[str]:
    """Own provinces without an army, the seat's drafted deployments left out."""
    chosen = set(player_of(state, seat).draft.get("deploys", []))
    return [pid for pid in deploy_targets(state, seat) if pid not in chosen]


def frontier(state: SamuraiState, seat: int, pid: str) -> int:
    return sum(1 for other in content().adj[pid] if state.provinces[other].owner != seat)


def spread(state: SamuraiState, seat: int, count: int) -> list[str]:
    """Where `count` spearmen go when the player leaves it to the game: one at a time to the
    own province with room that borders most land not his, the emptier first."""
    order = content().order
    drafted = Counter(player_of(state, seat).draft.get("spears", []))
    cap = content().units.limits.setup_spearmen_per_province
    out = []
    for _ in range(count):
        room = [pid for pid in owned(state, seat) if state.provinces[pid].garrison["spearman"] + drafted[pid] < cap]
        if not room:
            break
        pid = min(room, key=lambda spot: (-frontier(state, seat, spot), state.provinces[spot].garrison["spearman"] + drafted[spot],
                                       order[spot]))
        drafted[pid] += 1
        out.append(pid)
    return out


def fallback_claim(state: SamuraiState, seat: int) -> str | None:
    """The free province bordering most of the seat's land (the first on the map if tied)."""
    free = [pid for pid, province in state.provinces.items() if province.owner is None and not province.neutral]
    if not free:
        return None
    order = content().order
    adj = content().adj
    return min(free,
               key=lambda pid: (-sum(1 for neighbour in adj[pid] if state.provinces[neighbour].owner == seat),
                                order[pid]))


# ---------------------------------------------------------------- army screens (both setups)


def screen_default(left: dict[str, int], which: int) -> dict[str, int]:
    """An even split that always leaves the later armies a legal share."""
    limits = content().units.limits.army_samurai
    share = 4 - which
    bow = min(limits, -(-left["bowman"] // share))
    sword = min(limits - bow, -(-left["swordsman"] // share))
    return {"bowman": bow, "swordsman": sword, "gunner": left["gunner"] // share}


def screen_prompt(state: SamuraiState, seat: int) -> Prompt:
    troops = QS_TROOPS[state.options.mode]
    draft = player_of(state, seat).draft
    which = 2 if ("a1" in draft and "a2" not in draft) else 1
    left = dict(troops)
    if which == 2:
        for kind in left:
            left[kind] -= draft["a1"][kind]
    fields = [NumberField(name=kind, label=f"Army {which}: {PLURAL[kind]} (of {left[kind]})", max=left[kind])
              for kind in ("bowman", "swordsman", "gunner")]
    answered = "a1" in draft and "a2" in draft
    text = (f"Army screen: troops for army {which}; army 3 takes what is left "
            f"({units_text(troops)} in all, at most 4 samurai and 10 ashigaru per army).")
    if answered:
        text = "Army screen sealed. Submit army 1 again to revise (army 2 is then asked again)."
    return Prompt(seat=seat, kind="army_screen", text=text, answer=ScreenAnswer, input="numbers",
                  fields=fields, secret=True, answered=answered, default=screen_default(left, which))


def do_screen(state: SamuraiState, seat: int, answer: ScreenAnswer) -> None:
    troops = QS_TROOPS[state.options.mode]
    draft = player_of(state, seat).draft
    which = 2 if ("a1" in draft and "a2" not in draft) else 1
    got = answer.model_dump()
    limits = content().units.limits
    left = dict(troops)
    if which == 2:
        for kind in left:
            left[kind] -= draft["a1"][kind]
    for kind, count in got.items():
        if count > left[kind]:
            raise IllegalChoice(f"only {left[kind]} {PLURAL[kind]} are left to give army {which}")
    if got["bowman"] + got["swordsman"] > limits.army_samurai:
        raise IllegalChoice(f"an army holds at most {limits.army_samurai} samurai (bowmen and swordsmen)")
    rest = {kind: left[kind] - got[kind] for kind in left}
    if which == 1 and (rest["bowman"] + rest["swordsman"] > 2 * limits.army_samurai
                       or rest["gunner"] > 2 * limits.army_ashigaru):
        raise IllegalChoice("armies 2 and 3 could not hold the troops left over: give army 1 more samurai")
    if which == 2:
        if rest["bowman"] + rest["swordsman"] > limits.army_samurai:
            raise IllegalChoice(f"army 3 would get {rest['bowman'] + rest['swordsman']} samurai; "
                                f"an army holds at most {limits.army_samurai}")
        if rest["gunner"] > limits.army_ashigaru:
            raise IllegalChoice(f"army 3 would get {rest['gunner']} gunners; at most {limits.army_ashigaru} ashigaru fit")
        draft["a2"] = got
    else:
        draft["a1"] = got
        draft.pop("a2", None)


def apply_screens(state: SamuraiState) -> None:
    troops = QS_TROOPS[state.options.mode]
    for seat in active(state):
        player = player_of(state, seat)
        draft = player.draft
        a1, a2 = draft.pop("a1"), draft.pop("a2")
        a3 = {kind: troops[kind] - a1[kind] - a2[kind] for kind in troops}
        for army, got in zip(player.armies, (a1, a2, a3), strict=True):
            army.units = {**no_units(), **got}
        for kind, count in troops.items():
            player.tray[kind] -= count


# ---------------------------------------------------------------- the sealed claims (QS, LWTV)


def claims_prompt(state: SamuraiState, seat: int) -> Prompt:
    wishes = player_of(state, seat).draft.get("claims", [])
    undo = opt("undo", "Undo the last wish", {"act": "undo"})
    if len(wishes) >= SETUP_TURNS or player_of(state, seat).draft.get("claims_done"):
        keep = opt("keep", "Keep these wishes", {"act": "keep"})
        listed = ", ".join(province_name(pid) for pid in wishes) or "the game's choice"
        return Prompt(seat=seat, kind="claim", text=f"Claim wishes sealed: {listed}.", answer=Pick,
                      options=[keep, undo] if wishes else [keep], secret=True, answered=True, default=keep.choice)
    candidates = [(pid, opt(f"claim:{pid}", province_name(pid), {"act": "claim", "province": pid}))
             for pid in claim_targets(state, seat)]
    rest = opt("auto", "Let the game choose the rest for me", {"act": "auto"})
    options = paged(state, seat, candidates, ([undo] if wishes else []) + [rest])
    return Prompt(seat=seat, kind="claim", text=f"Setup: claim wish {len(wishes) + 1} of {SETUP_TURNS}, an "
                  "unoccupied province. Claims are served in sword order, one per player a round; a wish "
                  "already taken passes to your next." + region_hint(state, seat, options), answer=Pick, options=options, secret=True,
                  default=rest.choice)


def do_claim_wish(state: SamuraiState, seat: int, answer: Pick) -> None:
    draft = player_of(state, seat).draft
    wishes: list[str] = draft.setdefault("claims", [])
    sealed = len(wishes) >= SETUP_TURNS or draft.get("claims_done")
    if answer.act == "keep":
        if not sealed:
            raise IllegalChoice("name your next wish, or let the game choose the rest")
        return
    if answer.act == "undo":
        if draft.pop("claims_done", None) is None:
            if not wishes:
                raise IllegalChoice("nothing to undo")
            wishes.pop()
        return
    if sealed:
        raise IllegalChoice("your wishes are sealed; undo one first")
    if answer.act == "auto":
        draft["claims_done"] = True
        return
    if answer.act != "claim":
        raise IllegalChoice("name an unoccupied province to claim")
    pid = check_province(answer.province)
    if pid in wishes:
        raise IllegalChoice(f"{province_name(pid)} is already on your list")
    if pid not in claim_targets(state, seat):
        raise IllegalChoice(f"{province_name(pid)} is not unoccupied")
    wishes.append(pid)


def claims_sealed(state: SamuraiState) -> bool:
    return all(len(player_of(state, seat).draft.get("claims", [])) >= SETUP_TURNS or player_of(state, seat).draft.get("claims_done")
               for seat in active(state))


def resolve_claims(state: SamuraiState, events: list[Event]) -> None:
    """Six claim rounds in sword order: each player's first wish still free, else the free
    province bordering most of his land."""
    for _ in range(SETUP_TURNS):
        for seat in state.order:
            player = player_of(state, seat)
            wishes = player.draft.get("claims", [])
            pid = next((war for war in wishes if state.provinces[war].owner is None), None)
            wished = pid is not None
            if pid is None:
                pid = fallback_claim(state, seat)
            if pid is None or player.tray["spearman"] <= 0:
                continue
            state.provinces[pid].owner = seat
            state.provinces[pid].garrison["spearman"] += 1
            player.tray["spearman"] -= 1
            emit(state, "log", events, "info",
                 f"{who(seat)} claims {province_name(pid)}" + ("." if wished else " (all wishes taken)."))
    for seat in active(state):
        player_of(state, seat).draft = {}
    end_phase(events, state, "Setup: provinces claimed (six rounds in sword order).", kind="setup")
    state.phase = "placement"


# ---------------------------------------------------------------- the sealed placement


def placement_stage(state: SamuraiState, seat: int) -> str:
    draft = player_of(state, seat).draft
    if len(draft.get("spears", [])) < spearmen_to_place() and has_spear_target(state, seat):
        return "spear"
    if state.options.mode != "base" and "a2" not in draft:
        return "army_screen"
    if len(draft.get("deploys", [])) < sum(1 for army in player_of(state, seat).armies if army.alive) and deploy_spots(state, seat):
        return "deploy"
    return "review"


def placement_prompt(state: SamuraiState, seat: int) -> Prompt:
    stage = placement_stage(state, seat)
    draft = player_of(state, seat).draft
    undo = opt("undo", "Undo the last step", {"act": "undo"})
    has_undo = bool(draft.get("spears") or "a1" in draft or draft.get("deploys"))
    if stage == "army_screen":
        return screen_prompt(state, seat)
    if stage == "spear":
        drafted = Counter(draft.get("spears", []))
        left = spearmen_to_place() - len(draft.get("spears", []))
        candidates = [(pid, opt(f"spear:{pid}", f"{province_name(pid)} ("
                           f"{counted(state.provinces[pid].garrison['spearman'] + drafted[pid], 'spearman', 'spearmen')})", {"act": "spear", "province": pid})) for pid in spear_targets(state, seat)]
        rest = opt("spread", f"Place the remaining {counted(left, 'spearman', 'spearmen')} for me", {"act": "spread"})
        options = paged(state, seat, candidates, ([undo] if has_undo else []) + [rest])
        return Prompt(seat=seat, kind="spear", text=f"Setup: add one spearman to a province you own (at most 3 per "
                      f"province; {left} of {spearmen_to_place()} left).{region_hint(state, seat, options)}", answer=Pick, options=options, secret=True,
                      default=rest.choice)
    if stage == "deploy":
        army_number = len(draft.get("deploys", [])) + 1
        drafted = Counter(draft.get("spears", []))
        candidates = [(pid, opt(f"deploy:{pid}", f"{province_name(pid)} ({counted(garrison_size(state.provinces[pid].garrison) + drafted[pid], 'unit')})",
                           {"act": "deploy", "province": pid})) for pid in deploy_spots(state, seat)]
        options = paged(state, seat, candidates, [undo] if has_undo else [])
        return Prompt(seat=seat, kind="deploy", text=f"Setup: deploy army {army_number} in a province you own without an army."
                      f"{region_hint(state, seat, options)}",
                      answer=Pick, options=options, secret=True, default=candidates[0][1].choice)
    keep = opt("keep", "Keep this setup", {"act": "keep"})
    return Prompt(seat=seat, kind=draft.get("last", "deploy"), text="Setup sealed: spearmen placed and armies deployed "
                  "(shown when everyone is done).", answer=Pick, options=[keep, undo] if has_undo else [keep],
                  secret=True, answered=True, default=keep.choice)


def undo_placement(state: SamuraiState, seat: int) -> None:
    """Take back the latest part: a deployment, the army screens, a spearman."""
    draft = player_of(state, seat).draft
    if draft.get("deploys"):
        draft["deploys"].pop()
    elif "a2" in draft:
        draft.pop("a2")
    elif "a1" in draft:
        draft.pop("a1")
    elif draft.get("spears"):
        draft["spears"].pop()
    else:
        raise IllegalChoice("nothing to undo")


def do_placement(state: SamuraiState, seat: int, answer: Any) -> None:
    stage = placement_stage(state, seat)
    draft = player_of(state, seat).draft
    if stage == "army_screen":
        do_screen(state, seat, answer)
        draft["last"] = stage
        return
    if answer.act == "undo":
        undo_placement(state, seat)
        return
    if stage == "review":
        if answer.act != "keep":
            raise IllegalChoice("keep your setup or undo its last step")
        return
    if stage == "spear":
        if answer.act == "spread":
            draft.setdefault("spears", []).extend(spread(state, seat,
                                                     spearmen_to_place() - len(draft.get("spears", []))))
        elif answer.act == "spear":
            pid = check_province(answer.province)
            if not is_spear_target(state, seat, pid):
                raise IllegalChoice(f"{province_name(pid)} is not yours or already holds 3 spearmen")
            draft.setdefault("spears", []).append(pid)
        else:
            raise IllegalChoice("add a spearman to one of your provinces, or let the game place the rest")
    else:
        if answer.act != "deploy":
            raise IllegalChoice("deploy the army in one of your provinces")
        pid = check_province(answer.province)
        if pid not in deploy_spots(state, seat):
            raise IllegalChoice(f"{province_name(pid)} is not yours or already has an army")
        draft.setdefault("deploys", []).append(pid)
    draft["last"] = stage


def placement_sealed(state: SamuraiState) -> bool:
    return all(placement_stage(state, seat) == "review" for seat in active(state))


def resolve_placement(state: SamuraiState, events: list[Event]) -> None:
    """Everyone's spearmen, screens and armies appear together."""
    for seat in active(state):
        player = player_of(state, seat)
        for pid in player.draft.get("spears", []):
            state.provinces[pid].garrison["spearman"] += 1
            player.tray["spearman"] -= 1
        armies = [unplaced for unplaced in player.armies if unplaced.alive and unplaced.location is None]
        for army, pid in zip(armies, player.draft.get("deploys", []), strict=False):
            assert army_at(state, pid) is None
            army.location = pid
        placed = ", ".join(province_name(pid) for pid in player.draft.get("deploys", []))
        emit(state, "log", events, "info", f"{who(seat)} deploys armies in {placed}.")
    if state.options.mode != "base":
        apply_screens(state)
    for seat in active(state):
        player_of(state, seat).draft = {}
