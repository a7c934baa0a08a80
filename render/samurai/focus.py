"""Where the action is: the provinces the latest events touched, and the inset's crop around them.

The public view has no list of the provinces a phase touched, so they come from its own
fields: the battle and the declared attacks of a war turn first, then the provinces named
in the latest public events, newest first. The crop (in whole-map coordinates) always
holds the first of those happenings whole (both ends of an army's long move), zooming
out down to ZOOM_FLOOR if it must, then adds the others that fit without zooming out
below ZOOM_MIN; with none at all it shows the crowded Kinai.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.samurai.view_models import PublicView
from render import action
from render.samurai import layout as lay
from render.samurai.scene import Crop, Static

ZOOM_MIN = 1.8  # the inset zooms out no further for the older happenings
ZOOM_FLOOR = 1.5  # nor further than this for the newest (the inset's marks need 1.5x the whole map's room)
ZOOM_MAX = 2.6  # above this it would show too little around the action
PAD = 46  # whole-map px kept around the focus provinces: their neighbours and names
GRID = 8  # crops snap to this grid, so nearby phases share one cached inset
FALLBACK_REGION = "Kinai"


@dataclass(frozen=True)
class Focus:
    """The provinces the inset is about, most important first, and why they were chosen."""

    ids: tuple[str, ...]
    kind: str  # "battle", "war", "events" or "region"
    line: str = ""  # for "events": the newest event line naming one of them
    first: tuple[str, ...] = ()  # the newest happening's provinces (the battle and attacks, or that line's)


def focus(view: PublicView, st: Static) -> Focus:
    """The action provinces of this view: battle, declarations, then those named in the latest events."""
    known = st.whole.centres
    war = view.war
    battle = war.battle if war else None
    ids: list[str] = []
    if battle is not None:
        ids.append(battle.target)
    for declaration in war.declarations if war else []:
        ids += [declaration.target, declaration.source]
    kind = "battle" if battle else "war" if ids else "events"
    events = [event for event in view.last_events if event]
    line = ""
    first = [pid for pid in ids if pid in known]
    if not first:  # the newest event line that names a province
        for e in reversed(events):
            first = [pid for pid in action.mentioned([e], st.atlas.names) if pid in known]
            if first:
                line = e
                break
    ids += first + action.mentioned(events, st.atlas.names)
    ids = [pid for pid in dict.fromkeys(ids) if pid in known]
    if not ids:
        region = [pid for pid in st.atlas.order if st.atlas.regions.get(pid) == FALLBACK_REGION and pid in known]
        return Focus(tuple(region), "region", first=tuple(region))
    return Focus(tuple(ids), kind, line, tuple(dict.fromkeys(first)))


def _bounds(points: list[tuple[int, int]]) -> tuple[float, float, float, float]:
    """The box around some whole-map points, with room for their neighbours."""
    xs = [p[0] for p in points]
    ys = [p[1] for p in points]
    return (min(xs) - PAD, min(ys) - PAD, max(xs) + PAD, max(ys) + PAD)


def _zoom_for(bounds: tuple[float, float, float, float]) -> float:
    """The zoom at which the box fills the inset."""
    w, h = lay.INSET_MAP[2] - lay.INSET_MAP[0], lay.INSET_MAP[3] - lay.INSET_MAP[1]
    return min(w / max(1.0, bounds[2] - bounds[0]), h / max(1.0, bounds[3] - bounds[1]))


def crop(st: Static, wanted: Focus) -> tuple[Crop, tuple[str, ...]]:
    """The inset's crop and the focus provinces it holds: the newest happening's, then others that fit."""
    centres = st.whole.centres

    def zoom_with(pid: str) -> float:
        return _zoom_for(_bounds([centres[p] for p in [*chosen, pid]]))

    chosen: list[str] = []
    for pid in wanted.first:
        if not chosen or wanted.kind == "region" or zoom_with(pid) >= ZOOM_FLOOR:
            chosen.append(pid)
    limit = min(ZOOM_MIN, _zoom_for(_bounds([centres[p] for p in chosen]))) if chosen else ZOOM_MIN
    for pid in wanted.ids:
        if pid not in chosen and (not chosen or zoom_with(pid) >= limit):
            chosen.append(pid)
    bounds = _bounds([centres[p] for p in chosen])
    zoom = max(ZOOM_FLOOR, min(ZOOM_MAX, _zoom_for(bounds)))
    zoom = round(zoom * 20) / 20
    w = (lay.INSET_MAP[2] - lay.INSET_MAP[0]) / zoom
    h = (lay.INSET_MAP[3] - lay.INSET_MAP[1]) / zoom
    cx, cy = (bounds[0] + bounds[2]) / 2, (bounds[1] + bounds[3]) / 2
    whole_w, whole_h = st.whole.size
    x = min(max(cx - w / 2, 0), whole_w - w)
    y = min(max(cy - h / 2, 0), whole_h - h)
    x, y = round(x / GRID) * GRID, round(y / GRID) * GRID
    return Crop(x, y, zoom), tuple(chosen)
