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
from engine.samurai.answers import Pick, ScreenAnswer
from engine.samurai.board import (
    PLURAL,
    active,
    army_at,
    check_province,
    deploy_targets,
    emit,
    end_phase,
    gsize,
    opt,
    owned,
    paged,
    player,
    pname,
    region_hint,
    units_text,
    who,
)
from engine.samurai.content import content
from engine.samurai.setup import QS_TROOPS, SETUP_TURNS
from engine.samurai.state import SamuraiState, no_units

SPEARMEN_PER_TURN = 2
ARMIES = 3


def spearmen_to_place() -> int:
    return SETUP_TURNS * SPEARMEN_PER_TURN


# ---------------------------------------------------------------- targets (also the classic turns)


def spear_targets(st: SamuraiState, seat: int) -> list[str]:
    """Own provinces that may take one more setup spearman (drafted ones counted)."""
    drafted = Counter(player(st, seat).draft.get("spears", []))
    if player(st, seat).tray["spearman"] - sum(drafted.values()) <= 0:
        return []
    cap = content().units.limits.setup_spearmen_per_province
    return [pid for pid in owned(st, seat) if st.provinces[pid].garrison["spearman"] + drafted[pid] < cap]


def claim_targets(st: SamuraiState, seat: int) -> list[str]:
    """Unoccupied provinces the seat may claim or wish for (its own wishes left out)."""
    if player(st, seat).tray["spearman"] <= 0:
        return []
    wished = set(player(st, seat).draft.get("claims", []))
    return [pid for pid, p in st.provinces.items() if p.owner is None and not p.neutral and pid not in wished]


def deploy_spots(st: SamuraiState, seat: int) -> list[str]:
    """Own provinces without an army, the seat's drafted deployments left out."""
    chosen = set(player(st, seat).draft.get("deploys", []))
    return [pid for pid in deploy_targets(st, seat) if pid not in chosen]


def frontier(st: SamuraiState, seat: int, pid: str) -> int:
    return sum(1 for other in content().adj[pid] if st.provinces[other].owner != seat)


def spread(st: SamuraiState, seat: int, count: int) -> list[str]:
    """Where `count` spearmen go when the player leaves it to the game: one at a time to the
    own province with room that borders most land not his, the emptier first."""
    order = content().order
    drafted = Counter(player(st, seat).draft.get("spears", []))
    cap = content().units.limits.setup_spearmen_per_province
    out = []
    for _ in range(count):
        room = [pid for pid in owned(st, seat) if st.provinces[pid].garrison["spearman"] + drafted[pid] < cap]
        if not room:
            break
        pid = min(room, key=lambda p: (-frontier(st, seat, p), st.provinces[p].garrison["spearman"] + drafted[p],
                                       order[p]))
        drafted[pid] += 1
        out.append(pid)
    return out


def fallback_claim(st: SamuraiState, seat: int) -> str | None:
    """The free province bordering most of the seat's land (the first on the map if tied)."""
    free = [pid for pid, p in st.provinces.items() if p.owner is None and not p.neutral]
    if not free:
        return None
    order = content().order
    adj = content().adj
    return min(free, key=lambda pid: (-sum(1 for n in adj[pid] if st.provinces[n].owner == seat), order[pid]))


# ---------------------------------------------------------------- army screens (both setups)


def screen_default(left: dict[str, int], which: int) -> dict[str, int]:
    """An even split that always leaves the later armies a legal share."""
    lim = content().units.limits.army_samurai
    share = 4 - which
    bow = min(lim, -(-left["bowman"] // share))
    sword = min(lim - bow, -(-left["swordsman"] // share))
    return {"bowman": bow, "swordsman": sword, "gunner": left["gunner"] // share}


def screen_prompt(st: SamuraiState, seat: int) -> Prompt:
    troops = QS_TROOPS[st.options.mode]
    d = player(st, seat).draft
    which = 2 if ("a1" in d and "a2" not in d) else 1
    left = dict(troops)
    if which == 2:
        for k in left:
            left[k] -= d["a1"][k]
    fields = [NumberField(name=k, label=f"Army {which}: {PLURAL[k]} (of {left[k]})", max=left[k])
              for k in ("bowman", "swordsman", "gunner")]
    answered = "a1" in d and "a2" in d
    text = (f"Army screen: troops for army {which}; army 3 takes what is left "
            f"({units_text(troops)} in all, at most 4 samurai and 10 ashigaru per army).")
    if answered:
        text = "Army screen sealed. Submit army 1 again to revise (army 2 is then asked again)."
    return Prompt(seat=seat, kind="army_screen", text=text, answer=ScreenAnswer, input="numbers",
                  fields=fields, secret=True, answered=answered, default=screen_default(left, which))


def do_screen(st: SamuraiState, seat: int, ans: ScreenAnswer) -> None:
    troops = QS_TROOPS[st.options.mode]
    d = player(st, seat).draft
    which = 2 if ("a1" in d and "a2" not in d) else 1
    got = ans.model_dump()
    lim = content().units.limits
    left = dict(troops)
    if which == 2:
        for k in left:
            left[k] -= d["a1"][k]
    for k, n in got.items():
        if n > left[k]:
            raise IllegalChoice(f"only {left[k]} {PLURAL[k]} are left to give army {which}")
    if got["bowman"] + got["swordsman"] > lim.army_samurai:
        raise IllegalChoice(f"an army holds at most {lim.army_samurai} samurai (bowmen and swordsmen)")
    rest = {k: left[k] - got[k] for k in left}
    if which == 1 and (rest["bowman"] + rest["swordsman"] > 2 * lim.army_samurai
                       or rest["gunner"] > 2 * lim.army_ashigaru):
        raise IllegalChoice("armies 2 and 3 could not hold the troops left over: give army 1 more samurai")
    if which == 2:
        if rest["bowman"] + rest["swordsman"] > lim.army_samurai:
            raise IllegalChoice(f"army 3 would get {rest['bowman'] + rest['swordsman']} samurai; "
                                f"an army holds at most {lim.army_samurai}")
        if rest["gunner"] > lim.army_ashigaru:
            raise IllegalChoice(f"army 3 would get {rest['gunner']} gunners; at most {lim.army_ashigaru} ashigaru fit")
        d["a2"] = got
    else:
        d["a1"] = got
        d.pop("a2", None)


def apply_screens(st: SamuraiState) -> None:
    troops = QS_TROOPS[st.options.mode]
    for seat in active(st):
        pl = player(st, seat)
        d = pl.draft
        a1, a2 = d.pop("a1"), d.pop("a2")
        a3 = {k: troops[k] - a1[k] - a2[k] for k in troops}
        for army, got in zip(pl.armies, (a1, a2, a3), strict=True):
            army.units = {**no_units(), **got}
        for k, n in troops.items():
            pl.tray[k] -= n


# ---------------------------------------------------------------- the sealed claims (QS, LWTV)


def claims_prompt(st: SamuraiState, seat: int) -> Prompt:
    wishes = player(st, seat).draft.get("claims", [])
    undo = opt("undo", "Undo the last wish", {"act": "undo"})
    if len(wishes) >= SETUP_TURNS or player(st, seat).draft.get("claims_done"):
        keep = opt("keep", "Keep these wishes", {"act": "keep"})
        listed = ", ".join(pname(pid) for pid in wishes) or "the game's choice"
        return Prompt(seat=seat, kind="claim", text=f"Claim wishes sealed: {listed}.", answer=Pick,
                      options=[keep, undo] if wishes else [keep], secret=True, answered=True, default=keep.choice)
    cands = [(pid, opt(f"claim:{pid}", pname(pid), {"act": "claim", "province": pid}))
             for pid in claim_targets(st, seat)]
    rest = opt("auto", "Let the game choose the rest for me", {"act": "auto"})
    options = paged(st, seat, cands, ([undo] if wishes else []) + [rest])
    return Prompt(seat=seat, kind="claim", text=f"Setup: claim wish {len(wishes) + 1} of {SETUP_TURNS}, an "
                  "unoccupied province. Claims are served in sword order, one per player a round; a wish "
                  "already taken passes to your next." + region_hint(st, seat, options), answer=Pick, options=options, secret=True,
                  default=rest.choice)


def do_claim_wish(st: SamuraiState, seat: int, ans: Pick) -> None:
    d = player(st, seat).draft
    wishes: list[str] = d.setdefault("claims", [])
    sealed = len(wishes) >= SETUP_TURNS or d.get("claims_done")
    if ans.act == "keep":
        if not sealed:
            raise IllegalChoice("name your next wish, or let the game choose the rest")
        return
    if ans.act == "undo":
        if d.pop("claims_done", None) is None:
            if not wishes:
                raise IllegalChoice("nothing to undo")
            wishes.pop()
        return
    if sealed:
        raise IllegalChoice("your wishes are sealed; undo one first")
    if ans.act == "auto":
        d["claims_done"] = True
        return
    if ans.act != "claim":
        raise IllegalChoice("name an unoccupied province to claim")
    pid = check_province(ans.province)
    if pid in wishes:
        raise IllegalChoice(f"{pname(pid)} is already on your list")
    if pid not in claim_targets(st, seat):
        raise IllegalChoice(f"{pname(pid)} is not unoccupied")
    wishes.append(pid)


def claims_sealed(st: SamuraiState) -> bool:
    return all(len(player(st, s).draft.get("claims", [])) >= SETUP_TURNS or player(st, s).draft.get("claims_done")
               for s in active(st))


def resolve_claims(st: SamuraiState, ev: list[Event]) -> None:
    """Six claim rounds in sword order: each player's first wish still free, else the free
    province bordering most of his land."""
    for _ in range(SETUP_TURNS):
        for seat in st.order:
            pl = player(st, seat)
            wishes = pl.draft.get("claims", [])
            pid = next((w for w in wishes if st.provinces[w].owner is None), None)
            wished = pid is not None
            if pid is None:
                pid = fallback_claim(st, seat)
            if pid is None or pl.tray["spearman"] <= 0:
                continue
            st.provinces[pid].owner = seat
            st.provinces[pid].garrison["spearman"] += 1
            pl.tray["spearman"] -= 1
            emit(st, ev, f"{who(seat)} claims {pname(pid)}" + ("." if wished else " (all wishes taken)."))
    for seat in active(st):
        player(st, seat).draft = {}
    end_phase(ev, st, "Setup: provinces claimed (six rounds in sword order).", kind="setup")
    st.phase = "placement"


# ---------------------------------------------------------------- the sealed placement


def placement_stage(st: SamuraiState, seat: int) -> str:
    d = player(st, seat).draft
    if len(d.get("spears", [])) < spearmen_to_place() and spear_targets(st, seat):
        return "spear"
    if st.options.mode != "base" and "a2" not in d:
        return "army_screen"
    if len(d.get("deploys", [])) < sum(1 for a in player(st, seat).armies if a.alive) and deploy_spots(st, seat):
        return "deploy"
    return "review"


def placement_prompt(st: SamuraiState, seat: int) -> Prompt:
    stage = placement_stage(st, seat)
    d = player(st, seat).draft
    undo = opt("undo", "Undo the last step", {"act": "undo"})
    has_undo = bool(d.get("spears") or "a1" in d or d.get("deploys"))
    if stage == "army_screen":
        return screen_prompt(st, seat)
    if stage == "spear":
        drafted = Counter(d.get("spears", []))
        left = spearmen_to_place() - len(d.get("spears", []))
        cands = [(pid, opt(f"spear:{pid}", f"{pname(pid)} ({st.provinces[pid].garrison['spearman'] + drafted[pid]} "
                           "spearmen)", {"act": "spear", "province": pid})) for pid in spear_targets(st, seat)]
        rest = opt("spread", f"Place the remaining {left} spearmen for me", {"act": "spread"})
        options = paged(st, seat, cands, ([undo] if has_undo else []) + [rest])
        return Prompt(seat=seat, kind="spear", text=f"Setup: add one spearman to a province you own (at most 3 per "
                      f"province; {left} of {spearmen_to_place()} left).{region_hint(st, seat, options)}", answer=Pick, options=options, secret=True,
                      default=rest.choice)
    if stage == "deploy":
        n = len(d.get("deploys", [])) + 1
        drafted = Counter(d.get("spears", []))
        cands = [(pid, opt(f"deploy:{pid}", f"{pname(pid)} ({gsize(st.provinces[pid].garrison) + drafted[pid]} units)",
                           {"act": "deploy", "province": pid})) for pid in deploy_spots(st, seat)]
        options = paged(st, seat, cands, [undo] if has_undo else [])
        return Prompt(seat=seat, kind="deploy", text=f"Setup: deploy army {n} in a province you own without an army."
                      f"{region_hint(st, seat, options)}",
                      answer=Pick, options=options, secret=True, default=cands[0][1].choice)
    keep = opt("keep", "Keep this setup", {"act": "keep"})
    return Prompt(seat=seat, kind=d.get("last", "deploy"), text="Setup sealed: spearmen placed and armies deployed "
                  "(shown when everyone is done).", answer=Pick, options=[keep, undo] if has_undo else [keep],
                  secret=True, answered=True, default=keep.choice)


def undo_placement(st: SamuraiState, seat: int) -> None:
    """Take back the latest part: a deployment, the army screens, a spearman."""
    d = player(st, seat).draft
    if d.get("deploys"):
        d["deploys"].pop()
    elif "a2" in d:
        d.pop("a2")
    elif "a1" in d:
        d.pop("a1")
    elif d.get("spears"):
        d["spears"].pop()
    else:
        raise IllegalChoice("nothing to undo")


def do_placement(st: SamuraiState, seat: int, ans: Any) -> None:
    stage = placement_stage(st, seat)
    d = player(st, seat).draft
    if stage == "army_screen":
        do_screen(st, seat, ans)
        d["last"] = stage
        return
    if ans.act == "undo":
        undo_placement(st, seat)
        return
    if stage == "review":
        if ans.act != "keep":
            raise IllegalChoice("keep your setup or undo its last step")
        return
    if stage == "spear":
        if ans.act == "spread":
            d.setdefault("spears", []).extend(spread(st, seat, spearmen_to_place() - len(d.get("spears", []))))
        elif ans.act == "spear":
            pid = check_province(ans.province)
            if pid not in spear_targets(st, seat):
                raise IllegalChoice(f"{pname(pid)} is not yours or already holds 3 spearmen")
            d.setdefault("spears", []).append(pid)
        else:
            raise IllegalChoice("add a spearman to one of your provinces, or let the game place the rest")
    else:
        if ans.act != "deploy":
            raise IllegalChoice("deploy the army in one of your provinces")
        pid = check_province(ans.province)
        if pid not in deploy_spots(st, seat):
            raise IllegalChoice(f"{pname(pid)} is not yours or already has an army")
        d.setdefault("deploys", []).append(pid)
    d["last"] = stage


def placement_sealed(st: SamuraiState) -> bool:
    return all(placement_stage(st, s) == "review" for s in active(st))


def resolve_placement(st: SamuraiState, ev: list[Event]) -> None:
    """Everyone's spearmen, screens and armies appear together."""
    for seat in active(st):
        pl = player(st, seat)
        for pid in pl.draft.get("spears", []):
            st.provinces[pid].garrison["spearman"] += 1
            pl.tray["spearman"] -= 1
        armies = [a for a in pl.armies if a.alive and a.location is None]
        for army, pid in zip(armies, pl.draft.get("deploys", []), strict=False):
            assert army_at(st, pid) is None
            army.location = pid
        placed = ", ".join(pname(pid) for pid in pl.draft.get("deploys", []))
        emit(st, ev, f"{who(seat)} deploys armies in {placed}.")
    if st.options.mode != "base":
        apply_screens(st)
    for seat in active(st):
        player(st, seat).draft = {}
