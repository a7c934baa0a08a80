"""Where the database stands against our Alembic scripts, read without importing Alembic when
it is already at the newest revision (most starts)."""

from __future__ import annotations

import ast
import functools
from pathlib import Path
from typing import Any

import sqlalchemy as sa

MIGRATIONS = Path(__file__).with_name("migrations")


def alembic_config(url: str, connection: Any = None) -> Any:
    """An Alembic config for our migrations, independent of the working directory."""
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    cfg.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    cfg.attributes["url"] = url
    if connection is not None:
        cfg.attributes["connection"] = connection
    return cfg


@functools.cache
def script_heads() -> frozenset[str] | None:
    """The newest revisions of our migration scripts, read from the files' ``revision`` and
    ``down_revision`` (once a process, without importing Alembic: its import and the loading of
    its script directory were most of a start's wait); None if a file states them in a way not
    read here (the upgrade then runs and decides)."""
    revisions: set[str] = set()
    replaced: set[str] = set()
    for path in (MIGRATIONS / "versions").glob("*.py"):
        found: dict[str, Any] = {}
        for node in ast.parse(path.read_text()).body:
            target, value = ((node.targets[0] if len(node.targets) == 1 else None, node.value)
                             if isinstance(node, ast.Assign) else
                             (node.target, node.value) if isinstance(node, ast.AnnAssign) else (None, None))
            if isinstance(target, ast.Name) and target.id in ("revision", "down_revision") and value is not None:
                try:
                    found[target.id] = ast.literal_eval(value)
                except ValueError:
                    return None
        if not isinstance(found.get("revision"), str) or "down_revision" not in found:
            return None
        down = found["down_revision"]
        downs = [] if down is None else [down] if isinstance(down, str) else list(down)
        if not all(isinstance(revision, str) for revision in downs):
            return None
        revisions.add(found["revision"])
        replaced.update(downs)
    return frozenset(revisions - replaced) or None


def at_heads(sync_conn: Any) -> bool:
    """Whether the database's stored revisions are our scripts' newest (an empty database has
    none), read with a plain query (the table is Alembic's ``alembic_version``)."""
    heads = script_heads()
    if heads is None or not sa.inspect(sync_conn).has_table("alembic_version"):
        return False
    stored = sync_conn.execute(sa.text("SELECT version_num FROM alembic_version")).scalars().all()
    return frozenset(stored) == heads
