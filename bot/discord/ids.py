"""custom_id formats. Every component the bot sends carries all it needs to be handled
from the database alone (after a restart, on whichever process gets the click)."""

from __future__ import annotations

import re
from dataclasses import dataclass

MAX_CUSTOM_ID = 100

_LOBBY = re.compile(r"wh:l:(?P<mid>\d{1,12}):(?P<action>join|leave|ai|start)")
_PROMPT = re.compile(r"wh:p:(?P<mid>\d{1,12}):(?P<seat>\d{1,2}):(?P<ver>\d{1,9}):(?P<op>[omncq])(?::(?P<val>[^\s]{1,50}))?")
_BOARD = re.compile(r"wh:b:(?P<mid>\d{1,12}):(?P<action>act|map|rules)")
_MODAL = re.compile(r"wh:pm:(?P<mid>\d{1,12}):(?P<seat>\d{1,2}):(?P<ver>\d{1,9})")
_SEAT = re.compile(r"wh:s:(?P<mid>\d{1,12}):(?P<seat>\d{1,2}):take")
_UNDO = re.compile(r"wh:u:(?P<mid>\d{1,12}):(?P<uid>\d{1,12}):(?P<answer>agree|refuse)")
_CONCEDE = re.compile(r"wh:c:(?P<mid>\d{1,12}):(?P<seat>\d{1,2})")
_VOTE = re.compile(r"wh:v:(?P<mid>\d{1,12}):(?P<vid>\d{1,12}):(?P<answer>yes|no)")


@dataclass(frozen=True)
class LobbyId:
    match_id: int
    action: str

    def encode(self) -> str:
        return f"wh:l:{self.match_id}:{self.action}"


@dataclass(frozen=True)
class PromptId:
    """op: o = pick an option (val), m = multi-select, n = open the numbers modal, c = change,
    q = a number picked from the quick select (one field, few values)."""

    match_id: int
    seat: int
    version: int
    op: str
    value: str | None = None

    def encode(self) -> str:
        base = f"wh:p:{self.match_id}:{self.seat}:{self.version}:{self.op}"
        return f"{base}:{self.value}" if self.value else base


@dataclass(frozen=True)
class ModalId:
    match_id: int
    seat: int
    version: int

    def encode(self) -> str:
        return f"wh:pm:{self.match_id}:{self.seat}:{self.version}"


@dataclass(frozen=True)
class BoardId:
    """A status board button: act (the open decision), map, rules (the topics)."""

    match_id: int
    action: str

    def encode(self) -> str:
        return f"wh:b:{self.match_id}:{self.action}"


@dataclass(frozen=True)
class UndoId:
    """Agree to or refuse an undo request (the buttons of its consent DM)."""

    match_id: int
    undo_id: int
    answer: str
    """agree | refuse"""

    def encode(self) -> str:
        return f"wh:u:{self.match_id}:{self.undo_id}:{self.answer}"


@dataclass(frozen=True)
class ConcedeId:
    """Confirm `/game concede` (the button of its private reply): the seat it was made for."""

    match_id: int
    seat: int

    def encode(self) -> str:
        return f"wh:c:{self.match_id}:{self.seat}"


@dataclass(frozen=True)
class VoteId:
    """Yes or no to a vote to end a match (the buttons of its DM)."""

    match_id: int
    vote_id: int
    answer: str
    """yes | no"""

    def encode(self) -> str:
        return f"wh:v:{self.match_id}:{self.vote_id}:{self.answer}"


@dataclass(frozen=True)
class SeatId:
    """Take a seat open for a replacement (the Take seat button of its channel and lobby posts)."""

    match_id: int
    seat: int

    def encode(self) -> str:
        return f"wh:s:{self.match_id}:{self.seat}:take"


ParsedId = LobbyId | PromptId | ModalId | BoardId | UndoId | ConcedeId | VoteId | SeatId


def parse(custom_id: str) -> ParsedId | None:
    """The id, or None for anything this bot did not make (a forged or foreign id)."""
    if len(custom_id) > MAX_CUSTOM_ID:
        return None
    if m := _LOBBY.fullmatch(custom_id):
        return LobbyId(int(m["mid"]), m["action"])
    if m := _PROMPT.fullmatch(custom_id):
        return PromptId(int(m["mid"]), int(m["seat"]), int(m["ver"]), m["op"], m["val"])
    if m := _BOARD.fullmatch(custom_id):
        return BoardId(int(m["mid"]), m["action"])
    if m := _MODAL.fullmatch(custom_id):
        return ModalId(int(m["mid"]), int(m["seat"]), int(m["ver"]))
    if m := _SEAT.fullmatch(custom_id):
        return SeatId(int(m["mid"]), int(m["seat"]))
    if m := _UNDO.fullmatch(custom_id):
        return UndoId(int(m["mid"]), int(m["uid"]), m["answer"])
    if m := _CONCEDE.fullmatch(custom_id):
        return ConcedeId(int(m["mid"]), int(m["seat"]))
    if m := _VOTE.fullmatch(custom_id):
        return VoteId(int(m["mid"]), int(m["vid"]), m["answer"])
    return None
