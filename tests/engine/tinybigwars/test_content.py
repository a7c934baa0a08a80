"""Content files load, meet the minimum counts, and malformed files fail with file and field."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from engine.tinybigwars.content import DATA_DIR, ContentError, content, load_content


def test_shipped_content_meets_the_minimum_counts() -> None:
    c = content()
    assert len(c.heroes) >= 10 and len(c.minions) >= 4 and len(c.buildings) >= 3 and len(c.locations) >= 14
    assert set(c.maps) == {2, 3, 4}
    for players, city in c.maps.items():
        assert len(city.starts) == players
        assert len(city.nodes) <= len(c.locations)
    assert len({h.name for h in c.heroes.values()}) == len(c.heroes)


@pytest.fixture
def data(tmp_path: Path) -> Path:
    target = tmp_path / "data"
    shutil.copytree(DATA_DIR, target)
    return target


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new, 1))


def test_copy_loads(data: Path) -> None:
    assert load_content(data).heroes.keys() == content().heroes.keys()


def test_bad_field_names_file_and_field(data: Path) -> None:
    _edit(data / "heroes.toml", "power = 3", 'power = "strong"')
    with pytest.raises(ContentError, match=r"heroes\.toml: hero\[0\]\.power"):
        load_content(data)


def test_missing_field_names_file_and_field(data: Path) -> None:
    _edit(data / "locations.toml", "coin = 1\n", "", )
    with pytest.raises(ContentError, match=r"locations\.toml: location\[0\]\.coin"):
        load_content(data)


def test_unknown_ability_is_refused(data: Path) -> None:
    _edit(data / "locations.toml", 'ability = "train_health_2"', 'ability = "fly"')
    with pytest.raises(ContentError, match=r"locations\.toml: location\[0\]\.ability"):
        load_content(data)


def test_bad_toml_and_missing_file(data: Path) -> None:
    (data / "minions.toml").write_text("[[minion]\n")
    with pytest.raises(ContentError, match=r"minions\.toml: not valid TOML"):
        load_content(data)
    (data / "minions.toml").unlink()
    with pytest.raises(ContentError, match=r"minions\.toml: file is missing"):
        load_content(data)


def test_duplicate_ids_and_broken_maps(data: Path) -> None:
    _edit(data / "heroes.toml", 'id = "ironmonk"', 'id = "ember"')
    with pytest.raises(ContentError, match=r"heroes\.toml: hero\[1\]\.id: duplicate"):
        load_content(data)


def test_map_road_to_nowhere(data: Path) -> None:
    _edit(data / "maps.toml", '["w", "nw"]', '["w", "moon"]')
    with pytest.raises(ContentError, match=r"maps\.toml: map\[0\]\.roads"):
        load_content(data)


def test_map_coordinates_in_range(data: Path) -> None:
    _edit(data / "maps.toml", "x = 0.05, y = 0.50", "x = 1.5, y = 0.50")
    with pytest.raises(ContentError, match=r"maps\.toml: map\[0\]\.nodes\.0\.x"):
        load_content(data)
