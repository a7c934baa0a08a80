"""Reading a game's content files (cards, maps, unit tables) with errors that name the place.

Content is data so designers can tune it without touching rules. A malformed file must fail
loudly when the content is first loaded, naming the file and the field, never mid-match. The
readers below are the one way to read content; each game's content.py keeps only what is particular to its data (cross-file checks, maps).
"""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from engine.kit.errors import ContentError

Model = TypeVar("Model", bound=BaseModel)


def data_folder(module_file: str) -> Path:
    """The ``data`` folder next to a game package's module (pass ``__file__``)."""
    return Path(module_file).parent / "data"


def _text(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ContentError(f"{path.name}: file is missing") from None


def read_toml(path: Path) -> dict[str, Any]:
    """The parsed TOML file; a missing or malformed file is a ContentError naming it."""
    try:
        return tomllib.loads(_text(path))
    except tomllib.TOMLDecodeError as exc:
        raise ContentError(f"{path.name}: not valid TOML: {exc}") from None


def read_json(path: Path) -> Any:
    """The parsed JSON file; a missing or malformed file is a ContentError naming it."""
    try:
        return json.loads(_text(path))
    except json.JSONDecodeError as exc:
        raise ContentError(f"{path.name}: not valid JSON: {exc}") from None


def field_of(exc: ValidationError) -> tuple[str, str]:
    """(dotted field path, message) of a validation error's first problem."""
    error = exc.errors()[0]
    return ".".join(str(part) for part in error["loc"]), error["msg"]


def parse(model: type[Model], raw: Any, path: Path, entry: str = "") -> Model:
    """``raw`` validated as ``model``, or a ContentError naming the file and the field.

    Without ``entry`` the field is quoted (``units.toml: field 'units.gunner.cost': ...``); an
    ``entry`` names one record of a list first (``heroes.toml: hero[2].power: ...``), for files
    that are lists of cards.
    """
    try:
        return model.model_validate(raw)
    except ValidationError as exc:
        where, message = field_of(exc)
        if entry:
            raise ContentError(f"{path.name}: {entry}.{where or 'entry'}: {message}") from None
        raise ContentError(f"{path.name}: field '{where}': {message}") from None
