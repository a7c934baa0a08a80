"""Rebuild 2 (R): between battles Defenders may trade Artifacts with each other.

A trade is an exchange: one Artifact for one of the partner's, or for nothing when the partner
has the slot free (a gift is a trade where one side gives nothing). Slots are checked after the
exchange (2 hand, 1 back). Two Defenders of the same seat (a solo player) trade at once; with
another player's Defender the trade is an offer that player accepts or refuses, so nobody loses
an Artifact without saying yes. One offer is open at a time.
"""

from __future__ import annotations

from typing import Any

from engine.contract import Option
from engine.defenders import rules
from engine.defenders.content import content
from engine.defenders.names import who
from engine.defenders.prompting import dname
from engine.defenders.rules import Flow
from engine.defenders.state import Defender, DefendersState
from engine.kit.prompting import opt
from engine.text import seat_ref


def fits(artifacts: list[str]) -> bool:
    c = content()
    return all(sum(c.artifact(a).slot == slot for a in artifacts) <= rules.slot_limit(slot)
               for slot in ("hand", "back"))


def exchange_fits(d: Defender, give: str, other: Defender, take: str | None) -> bool:
    """Whether `d` can hand `give` to `other` and receive `take` (None: nothing) in return."""
    if give not in d.artifacts or (take is not None and take not in other.artifacts):
        return False
    mine = [a for a in d.artifacts if a != give] + ([take] if take else [])
    theirs = [a for a in other.artifacts if a != take] + [give]
    return fits(mine) and fits(theirs)


def label(give: str, other: Defender, take: str | None) -> str:
    """Reads "<artifact> to <partner> for <artifact>": within a button's 80 characters even
    with "Offer " and the longest names (73)."""
    c = content()
    what = f"for {c.artifact(take).name}" if take else "as a gift"
    return f"{c.artifact(give).name} to {dname(other)} {what}"


def accept_label(give: str, take: str | None) -> str:
    c = content()
    if take is None:
        return f"Accept {c.artifact(give).name} as a gift"
    return f"Accept: take {c.artifact(give).name}, give {c.artifact(take).name}"


def trade_options(state: DefendersState, seat: int) -> list[Option]:
    """Trades the seat may make or offer now, and its answers to an open offer."""
    offer = state.trade_offer
    if offer is not None:
        d, other = state.defenders[offer["d"]], state.defenders[offer["to"]]
        if other.seat == seat and exchange_fits(d, offer["key"], other, offer["for"]):
            return [opt("accept", accept_label(offer["key"], offer["for"]), {"act": "accept"},
                        f"Offered by {dname(d)}"),
                    opt("refuse", "Refuse the trade", {"act": "refuse"})]
        if d.seat == seat:
            return [opt("withdraw", "Withdraw the trade offer", {"act": "withdraw"})]
        return []
    out = []
    for d in state.of_seat(seat):
        for give in d.artifacts:
            for other in state.defenders:
                if other.idx == d.idx:
                    continue
                for take in [*other.artifacts, None]:
                    if other.seat == seat and take is not None and other.idx < d.idx:
                        continue  # a swap between two own Defenders is listed once
                    if exchange_fits(d, give, other, take):
                        verb = ("Swap" if take else "Give") if other.seat == seat else "Offer"
                        out.append(opt(f"trade:{d.idx}:{give}:{other.idx}:{take or '-'}",
                                       f"{verb} {label(give, other, take)}",
                                       {"act": "trade", "d": d.idx, "key": give, "to": other.idx, "for": take},
                                       f"{dname(d)} trades with {dname(other)}"))
    return out


def exchange(f: Flow, d: Defender, give: str, other: Defender, take: str | None) -> None:
    d.artifacts.remove(give)
    other.artifacts.append(give)
    if take is not None:
        other.artifacts.remove(take)
        d.artifacts.append(take)
    for defender, gained in ((other, give), (d, take)):
        defender.hp = min(defender.hp, rules.max_hp(defender))
        ability = content().artifact(gained).ability if gained else None
        if ability is not None and ability.effect == "max_hp":
            rules.heal(defender, ability.amount)
    f.emit("log", f"Trade: {who(d)} gives {content().artifact(give).name} to {who(other)}"
          + (f" for {content().artifact(take).name}." if take else "."))


def trade_choice(f: Flow, seat: int, ch: dict[str, Any]) -> None:
    """Apply a trade, an offer or an answer to one (the choice is one of `trade_options`)."""
    state = f.state
    act = ch["act"]
    if act == "trade":
        d, other = state.defenders[ch["d"]], state.defenders[ch["to"]]
        if other.seat == seat:
            exchange(f, d, ch["key"], other, ch["for"])
            return
        state.trade_offer = {"d": d.idx, "key": ch["key"], "to": other.idx, "for": ch["for"]}
        state.ready = [s for s in state.ready if s != other.seat]  # asked again: they have a decision
        f.emit("log", f"{who(d)} offers a trade: {label(ch['key'], other, ch['for'])} ({seat_ref(other.seat)}).")
        return
    offer = state.trade_offer
    assert offer is not None
    state.trade_offer = None
    d, other = state.defenders[offer["d"]], state.defenders[offer["to"]]
    if act == "accept":
        exchange(f, d, offer["key"], other, offer["for"])
    elif act == "refuse":
        f.emit("log", f"{seat_ref(seat)} turns the trade down.")
    else:
        f.emit("log", f"{seat_ref(seat)} withdraws the trade offer.")


def drop_offer_of(f: Flow, seat: int) -> None:
    """A seat that says it is ready leaves the open offer it made or was made: it lapses."""
    state = f.state
    offer = state.trade_offer
    if offer is not None and seat in (state.defenders[offer["d"]].seat, state.defenders[offer["to"]].seat):
        state.trade_offer = None
        f.emit("log", "The trade offer lapses.")
