"""LWTV: the event hand limit, one objective card per living army and one more for the lord
of Kyoto, held at every moment the limit can be exceeded.

A hand grows only by a draw, but the limit shrinks whenever its holder loses an army or
Kyoto. `ask_discards` runs after every step of the phase machine (`rules.advance`), so
every one of those moments is caught the same way:

- during the Plan step (the round's draws happen just before it) the discard is the seat's
  part of the Plan step: the others plan meanwhile;
- at any other moment (an army or Kyoto lost in the war) it is an interrupt of that seat,
  asked before the game goes on;
- at the final score the values of the cards are settled, so the lowest-valued cards go
  without asking (the choice the holder would make: it scores the most).

The discard is sealed: the prompt is secret, the public event says only that a card was
discarded, and the discard pile is in no view.
"""

from __future__ import annotations

from engine.contract import Event, IllegalChoice, Prompt
from engine.kit.events import emit
from engine.kit.prompting import opt
from engine.samurai.answers import Pick
from engine.samurai.board import active, player_of, who
from engine.samurai.content import content
from engine.samurai.state import Interrupt, SamuraiState
from engine.samurai.victory import card_value, excess, hand_limit, lowest_card


def discard_owed(state: SamuraiState, seat: int) -> bool:
    """Whether the seat is already asked for a discard (in the Plan step or as an interrupt)."""
    if player_of(state, seat).draft.get("discard"):
        return True
    return any(interrupt.seat == seat and interrupt.kind == "discard" for interrupt in state.interrupts)


def ask_discards(state: SamuraiState) -> None:
    """Ask every living seat whose hand is over its limit for a discard, once."""
    if state.options.mode != "lwtv" or state.phase == "over" or state.options.edition < 2:
        return
    for seat in active(state):
        if not excess(state, seat) or discard_owed(state, seat):
            continue
        if state.phase == "plan":
            player_of(state, seat).draft["discard"] = True
        else:
            state.interrupts.append(Interrupt(seat=seat, kind="discard"))


def discard_prompt(state: SamuraiState, seat: int) -> Prompt:
    """Which objective card to give up (one per answer, asked again while still over)."""
    cards = content().cards
    options = []
    for card_id in player_of(state, seat).hand:
        value = card_value(state, seat, card_id)
        options.append(opt(f"discard:{card_id}", f"Discard {cards[card_id].title}",
                           {"act": "discard", "card": card_id},
                           description=f"worth {value:+d} VP now"))
    over = excess(state, seat)
    limit = hand_limit(state, seat)
    then = "then make your plan" if state.phase == "plan" else "then the game goes on"
    text = (f"Your hand holds {len(player_of(state, seat).hand)} event cards, more than your limit of {limit} "
            f"(one per army, one more for Kyoto): discard {'one' if over == 1 else f'{over}, one at a time'}, "
            f"{then}. Nobody else learns which.")
    return Prompt(seat=seat, kind="discard", text=text, answer=Pick, options=options, secret=True,
                  default={"act": "discard", "card": lowest_card(state, seat)})


def discard_card(state: SamuraiState, events: list[Event], seat: int, answer: Pick) -> None:
    """Give up one card of a hand over the limit; the ask ends once the hand fits."""
    player = player_of(state, seat)
    if answer.act != "discard" or answer.card not in player.hand:
        raise IllegalChoice("choose a card from your hand to discard")
    player.hand.remove(answer.card)
    state.discard.append(answer.card)
    emit(state, "log", events, "info", f"{who(seat)} discards an event card.")
    if state.interrupts and state.interrupts[0].seat == seat and state.interrupts[0].kind == "discard":
        state.interrupts.pop(0)
    elif not excess(state, seat):
        player.draft.pop("discard", None)
