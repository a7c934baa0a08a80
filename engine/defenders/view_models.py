"""Tiny Epic Defenders views as types (docs/design/defenders-view.md): the allow-list, field by field.

The game is cooperative and nearly everything is public; what no model has a field for is the
Turn Deck's order, the Horde, the caravan pile, a face-down boss and the Skill and Artifact
decks (only their sizes).
"""

from __future__ import annotations

from typing import Literal

from engine.view_model import PromptView, ViewModel


class CapitalView(ViewModel):
    """The capital in the middle of the ring."""

    name: str
    threat: int
    destruction: int
    caravans: int


class RegionView(ViewModel):
    """An outer region; pos 0 is left of the capital, then clockwise."""

    pos: int
    key: str
    name: str
    terrain: str
    side: str
    war: bool
    ability: str
    ability_text: str
    threat: int
    max_threat: int
    destroyed: bool
    caravans: int
    ward: bool
    storm: bool
    fleet_die: bool
    adjacent: list[str]


class WarView(ViewModel):
    """The Dark War components still on their cards."""

    fleet_dice: int
    storms: int
    tree: int | None
    manticore: str | int  # the region it sits in, or the index of its rider
    soldiers: int
    deserters: int
    death_tokens: int


class ArtifactView(ViewModel):
    """An artifact a Defender carries."""

    key: str
    name: str
    slot: str
    text: str


class SkillView(ViewModel):
    """A skill a Defender has learnt."""

    key: str
    name: str
    cost: int
    text: str
    own_turn: bool


class DefenderView(ViewModel):
    """A Defender on the map."""

    idx: int
    seat: int
    key: str
    name: str
    region: str
    hp: int
    max_hp: int
    xp: int
    xp_max: int
    exhausted: bool
    death_tokens: int
    in_tree: bool
    riding: bool
    shield: bool
    ability: str
    ability_text: str
    artifacts: list[ArtifactView]
    skills: list[SkillView]


class HiddenBoss(ViewModel):
    """The boss still face down: only its kind."""

    kind: str
    revealed: Literal[False]


class RevealedBoss(ViewModel):
    """The boss in play; `held` when it is at 1 HP and cannot fall until all caravans are home."""

    kind: str
    revealed: Literal[True]
    key: str
    name: str
    hp: int
    max_hp: int
    region: str
    text: str
    held: bool


class CardInPlay(ViewModel):
    """The Turn Deck card being resolved."""

    kind: str
    name: str
    regions: list[str]


class DeckView(ViewModel):
    """Pile sizes, never their order."""

    turn: int
    discard: int
    horde: int
    round_cards: int
    current: CardInPlay | None


class CaravansView(ViewModel):
    """Where the caravans are."""

    pile: int
    home: int
    total: int
    on_map: dict[str, int]


class ActiveView(ViewModel):
    """The Defender card being played: whose turn, the action points left."""

    card: str
    defender: int | None
    ap: int
    passed: list[int]


class AttackView(ViewModel):
    """An attack waiting to be defended or taken."""

    region: str
    source: str
    dire: bool
    cost: int
    declined: list[int]


CAPITAL_FELL = "the Capital City fell"
"""The reason of the loss the Capital's Threat causes (the map's banner then names the Capital)."""


class ResultView(ViewModel):
    """The end of the match."""

    won: bool
    reason: str


class PublicView(ViewModel):
    """What every player sees."""

    game: Literal["defenders"]
    mode: str
    difficulty: str
    battle: int
    battles: int
    round: int
    phase: str
    phase_label: str
    capital: CapitalView
    ring: list[RegionView]
    war: WarView
    defenders: list[DefenderView]
    boss: RevealedBoss | HiddenBoss
    deck: DeckView
    caravans: CaravansView
    active: ActiveView | None
    attack: AttackView | None
    prompts: list[PromptView]
    log: list[str]
    result: ResultView | None


class You(ViewModel):
    """The seat and the Defenders it plays."""

    seat: int
    defenders: list[int]


class SeatView(PublicView):
    """The public view plus the seat's own `you` block."""

    you: You
