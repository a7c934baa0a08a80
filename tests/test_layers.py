"""The layers import downward only (docs/architecture.md): a rule engine that imported
discord or a database would no longer run alone, and a service that imported discord.py
would tie the terminal table to it."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

FORBIDDEN: dict[str, tuple[str, ...]] = {
    "engine": ("discord", "sqlalchemy", "sqlmodel", "aiosqlite", "asyncpg", "alembic", "PIL", "asyncio",
               "bot", "db", "render"),
    "render": ("discord", "sqlalchemy", "sqlmodel", "aiosqlite", "asyncpg", "alembic", "bot", "db"),
    "db": ("discord", "bot", "render"),
    "bot/service": ("discord", "bot.discord", "bot.local", "bot.cli", "bot.web", "aiohttp"),
    "bot/web": ("discord", "bot.discord", "bot.local", "bot.cli"),
}


def imported(path: Path) -> set[str]:
    """Every module a file imports (absolute names; relative imports stay in their package)."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


def offences(layer: str) -> list[str]:
    found = []
    for path in sorted((ROOT / layer).rglob("*.py")):
        for name in imported(path):
            for banned in FORBIDDEN[layer]:
                if name == banned or name.startswith(banned + "."):
                    found.append(f"{path.relative_to(ROOT)} imports {name}")
    return found


@pytest.mark.parametrize("layer", sorted(FORBIDDEN))
def test_a_layer_imports_nothing_above_it(layer: str) -> None:
    assert (ROOT / layer).is_dir()
    assert offences(layer) == []


def test_the_check_sees_a_forbidden_import(tmp_path: Path) -> None:
    module = tmp_path / "rules.py"
    module.write_text("import asyncio\nfrom discord import ui\nfrom . import board\n")
    assert imported(module) == {"asyncio", "discord"}
