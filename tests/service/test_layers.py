"""Layer rules: bot/service imports no discord; db/ imports no discord and no Pillow."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _imports(folder: Path) -> set[str]:
    names: set[str] = set()
    for path in folder.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                names.update(a.name.split(".")[0] for a in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names.add(node.module.split(".")[0])
    return names


def test_service_and_store_stay_below_the_transports() -> None:
    assert "discord" not in _imports(ROOT / "bot" / "service")
    assert not {"discord", "PIL", "render"} & _imports(ROOT / "db")
