"""Step 2: the content, a data file read with engine.kit.content and validated on first use."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field

from engine.kit import ContentError, data_folder, parse, read_toml

DATA = data_folder(__file__)


class Place(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str = Field(pattern=r"^[a-z]{1,12}$")
    name: str = Field(min_length=1, max_length=30)
    glow: int = Field(ge=1, le=5)


def read_places(path: Path) -> dict[str, Place]:
    """The places of ``path``; a malformed entry is a ContentError naming the file and the entry."""
    raw = read_toml(path).get("place", [])
    places = [parse(Place, entry, path, f"place[{index}]") for index, entry in enumerate(raw)]
    if len(places) < 2:
        raise ContentError(f"{path.name}: a hunt needs at least two places")
    return {place.id: place for place in places}


@cache
def places() -> dict[str, Place]:
    return read_places(DATA / "places.toml")
