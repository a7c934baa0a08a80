"""No import circle in shipped code (bot/, engine/, render/, db/), imports under
`if TYPE_CHECKING:` and inside functions included: a circle means two modules that can only
be understood, tested and changed together, and a lazy or type-only import merely hides it."""

from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("bot", "engine", "render", "db")


def module_name(path: Path, root: Path) -> str:
    """`bot/discord/delivery.py` -> `bot.discord.delivery`; a package's `__init__.py` is the package."""
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules_under(root: Path, packages: Iterable[str]) -> dict[str, Path]:
    """Every module of the packages, by dotted name."""
    return {module_name(path, root): path
            for package in packages for path in sorted((root / package).rglob("*.py"))}


def _base(module: str, is_package: bool, node: ast.ImportFrom) -> str:
    """The absolute package a `from ... import` names (relative levels resolved)."""
    if node.level == 0:
        return node.module or ""
    parts = module.split(".")
    package = parts if is_package else parts[:-1]
    kept = package[: len(package) - (node.level - 1)]
    return ".".join([*kept, *([node.module] if node.module else [])])


def imports_of(module: str, path: Path, known: Mapping[str, Path]) -> set[str]:
    """The known modules one module imports, wherever the import statement stands."""
    is_package = path.name == "__init__.py"
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names if alias.name in known)
        elif isinstance(node, ast.ImportFrom):
            base = _base(module, is_package, node)
            for alias in node.names:
                submodule = f"{base}.{alias.name}"
                if submodule in known:
                    found.add(submodule)
                elif base in known:
                    found.add(base)
    found.discard(module)
    return found


def import_graph(root: Path, packages: Iterable[str]) -> dict[str, set[str]]:
    known = modules_under(root, packages)
    return {module: imports_of(module, path, known) for module, path in known.items()}


def circles(graph: Mapping[str, set[str]]) -> list[tuple[list[str], dict[str, list[str]]]]:
    """Each group of modules that reach one another (Tarjan's strongly connected components), as
    one shortest circle through its first module and the imports that bind the group."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[set[str]] = []

    def enter(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        on_stack.add(module)

    def visit(start: str) -> None:
        enter(start)
        work = [(start, iter(sorted(graph[start])))]
        while work:
            node, targets = work[-1]
            target = next((each for each in targets if each not in index or each in on_stack), None)
            if target is not None:
                if target in index:
                    low[node] = min(low[node], index[target])
                else:
                    enter(target)
                    work.append((target, iter(sorted(graph[target]))))
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                group = {node}
                while (member := stack.pop()) != node:
                    group.add(member)
                on_stack.difference_update(group)
                if len(group) > 1:
                    groups.append(group)

    for module in sorted(graph):
        if module not in index:
            visit(module)
    return sorted((_circle(graph, group), {module: sorted(graph[module] & group) for module in sorted(group)})
                  for group in groups)


def _circle(graph: Mapping[str, set[str]], group: set[str]) -> list[str]:
    """A shortest circle through the group's first module: a -> b -> ... -> a."""
    first = min(group)
    paths = {first: [first]}
    frontier = [first]
    while frontier:
        following = []
        for node in frontier:
            for target in sorted(graph[node] & group):
                if target == first:
                    return [*paths[node], first]
                if target not in paths:
                    paths[target] = [*paths[node], target]
                    following.append(target)
        frontier = following
    raise AssertionError(f"{first} is in no circle of {sorted(group)}")


def describe(found: list[tuple[list[str], dict[str, list[str]]]]) -> str:
    """Each circle, then every import that keeps its group of modules tied together."""
    lines = ["import circles (break every import listed under a circle, or move what both sides need):"]
    for circle, edges in found:
        lines.append("  " + " -> ".join(circle))
        lines.extend(f"      {module} imports {', '.join(targets)}" for module, targets in edges.items())
    return "\n".join(lines)


def test_shipped_code_has_no_import_circle() -> None:
    found = circles(import_graph(ROOT, PACKAGES))
    assert not found, describe(found)


def test_the_check_sees_type_only_lazy_and_relative_circles(tmp_path: Path) -> None:
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "sender.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pkg.hub import Hub\n")
    (package / "hub.py").write_text("def run():\n    from . import sender\n")
    (package / "leaf.py").write_text("from pkg import hub\n")
    graph = import_graph(tmp_path, ["pkg"])
    assert graph["pkg.leaf"] == {"pkg.hub"}
    found = circles(graph)
    assert [circle for circle, _ in found] == [["pkg.hub", "pkg.sender", "pkg.hub"]]
    assert "pkg.hub -> pkg.sender -> pkg.hub" in describe(found)


def test_the_check_passes_a_graph_without_circles(tmp_path: Path) -> None:
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("from pkg.top import run\n")
    (package / "top.py").write_text("from pkg.low import names\n")
    (package / "low.py").write_text("names = ()\n")
    assert circles(import_graph(tmp_path, ["pkg"])) == []
