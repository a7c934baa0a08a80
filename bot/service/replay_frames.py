"""Replay frames made while the match is played, kept on disk until its replay GIF joins them.

A finished match's replay (history.py) draws the public view at every public phase end, and the
channel's phase posts drew the same states a moment after each of them. So when a drawing worker
draws a phase post's map it also makes that phase end's replay frame (halved, mapped onto the
map's palette, written as one GIF image block: ``render.replay_frame``) and writes it here; the
replay takes the frames it finds and draws only the ones missing (a match older than this, a
frame pruned, a map taken from the drawing cache), and the GIF is the same frames as one drawn
from scratch (render.replay).

A phase post's map is titled with the phase it closes, the replay's frame with the phase after
it: the notice carries the frame's own label (``frame_label``), and the frame is the post's map
with its title rows drawn again (a renderer with ``title_rows``: render.Titles; another game's
frames of that kind are left to the replay: a whole second drawing would cost what the replay
saves). A frame is found by what it shows (the game, the view, the names: ``frame_key``), never
by match: the replay asks only for the keys of its own public views, so nothing else can reach
its GIF.

The frames live in files (``WARHOST_REPLAY_FRAMES``, default a directory of this user's in the
temporary directory; ``off``: none kept), not in a process: any drawing worker may draw a post
and another the replay, a restarted bot finds them, and the bot's memory holds none. A replay
removes the frames it used; every ``PRUNE_EVERY`` frames written, the oldest go once the
directory holds more than ``MAX_BYTES``. A file error only costs the frame (drawn again by the
replay), never the phase post.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import stat
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import render

log = logging.getLogger(__name__)

SETTING = "WARHOST_REPLAY_FRAMES"
MAX_BYTES = 256 * 1024 * 1024
"""Frames kept at most (about 50 KiB a frame of a 1200 px map: some 5,000 frames, 200 matches of 25
phase ends); past it the oldest go."""
PRUNE_EVERY = 64
"""Frames a process writes between two looks at the directory's size."""
SUFFIX = ".frame"
_written = 0
_refused: set[Path] = set()
"""Directories already found unusable: said once a process, not at every frame."""


def directory() -> Path | None:
    """Where frames are kept (made on first use, this user's only), None when off or unusable."""
    setting = os.environ.get(SETTING, "")
    if setting.lower() == "off":
        return None
    path = Path(setting) if setting else Path(tempfile.gettempdir()) / f"warhost-replay-frames-{os.getuid()}"
    if path in _refused:
        return None
    try:
        path.mkdir(mode=0o700, parents=True, exist_ok=True)
        found = path.lstat()
    except OSError as failed:
        _refused.add(path)
        log.warning("replay frames are not kept (%s): each replay draws its frames", failed)
        return None
    if not stat.S_ISDIR(found.st_mode) or found.st_uid != os.getuid():
        _refused.add(path)
        log.warning("replay frames are not kept: %s is not a directory of this user's", path)
        return None
    return path


def frame_key(game: str, view: Mapping[str, Any], names: Sequence[str] | None) -> str:
    """What a frame shows, as one digest (a view read back from a notice gives the same)."""
    text = json.dumps(["replay frame", game, view, names], sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode()).hexdigest()


def frame_view(payload: Mapping[str, Any]) -> dict[str, Any]:
    """The replay's view of the phase end a closing notice's map shows: the map's view with its
    own phase label again where the post titled it with the phase it closes."""
    view = dict(payload["view"])
    if "frame_label" in payload:
        view["phase_label"] = payload["frame_label"]
    return view


def draw_and_keep(game: str, view: Mapping[str, Any], names: list[str] | None,
                  replay_view: Mapping[str, Any]) -> bytes:
    """In a drawing worker: the PNG of a phase post's map (``render.draw``'s), its phase end's
    replay frame (of ``replay_view``) written to the directory on the way where the map's
    picture makes it (``render.draw_and_frame``) and it is not kept already (the result's map
    shows the state the last phase post showed)."""
    key = frame_key(game, replay_view, names)
    png, frame = render.draw_and_frame(game, view, names, None if has(key) else replay_view)
    if frame is not None:
        keep(key, frame)
    return png


def has(key: str) -> bool:
    """Whether the frame of this key is kept."""
    where = directory()
    return where is not None and (where / (key + SUFFIX)).exists()


def keep(key: str, frame: bytes) -> None:
    """Write one frame (whole or not at all: a reader never sees half a file)."""
    global _written
    where = directory()
    if where is None:
        return
    target = where / (key + SUFFIX)
    try:
        with tempfile.NamedTemporaryFile(dir=where, prefix=".", suffix=".part", delete=False) as out:
            out.write(frame)
        os.replace(out.name, target)
    except OSError as failed:
        log.warning("a replay frame was not kept (%s)", failed)
        return
    _written += 1
    if _written % PRUNE_EVERY == 0:
        prune(where)


def found(game: str, views: Sequence[Mapping[str, Any]], names: list[str] | None) -> list[bytes | None]:
    """The kept frame of each view (None where there is none)."""
    return found_keys([frame_key(game, view, names) for view in views])


def found_keys(keys: Sequence[str]) -> list[bytes | None]:
    """The kept frame of each key (``frame_key``; None where there is none)."""
    where = directory()
    if where is None:
        return [None] * len(keys)
    out: list[bytes | None] = []
    for key in keys:
        try:
            out.append((where / (key + SUFFIX)).read_bytes())
        except OSError:
            out.append(None)
    return out


def forget(game: str, views: Sequence[Mapping[str, Any]], names: list[str] | None) -> None:
    """Remove the frames of these views (their replay is drawn)."""
    forget_keys([frame_key(game, view, names) for view in views])


def forget_keys(keys: Sequence[str]) -> None:
    """Remove the frames of these keys (``frame_key``: their replay is drawn)."""
    where = directory()
    if where is None:
        return
    for key in keys:
        (where / (key + SUFFIX)).unlink(missing_ok=True)


def prune(where: Path, limit: int = MAX_BYTES) -> None:
    """The oldest frames removed until the directory holds at most ``limit`` bytes of them."""
    try:
        files = []
        for entry in os.scandir(where):
            if entry.name.endswith(SUFFIX):
                info = entry.stat()
                files.append((info.st_mtime, info.st_size, entry.path))
    except OSError:
        return
    total = sum(size for _, size, _ in files)
    for _, size, path in sorted(files):
        if total <= limit:
            break
        try:
            os.unlink(path)
        except OSError:
            continue
        total -= size
