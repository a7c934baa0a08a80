"""`python -m bot <command>`: every module in this package that defines NAME is a command.

A command module defines NAME, HELP, ``configure(parser)`` and ``run(args) -> int``.
With no command, ``run`` (the Discord bot) is assumed.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys
from types import ModuleType

from pydantic import ValidationError


def _commands() -> dict[str, ModuleType]:
    found: dict[str, ModuleType] = {}
    for info in pkgutil.iter_modules(__path__):
        module = importlib.import_module(f"{__name__}.{info.name}")
        name = getattr(module, "NAME", None)
        if name:
            found[name] = module
    return found


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    commands = _commands()
    parser = argparse.ArgumentParser(prog="python -m bot", description="warhost: a Discord game master")
    sub = parser.add_subparsers(dest="command")
    for name, module in sorted(commands.items()):
        module.configure(sub.add_parser(name, help=module.HELP, description=module.HELP))
    if (not argv or (argv[0] not in commands and argv[0] not in ("-h", "--help"))) and "run" in commands:
        argv = ["run", *argv]
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return 2
    try:
        return int(commands[args.command].run(args) or 0)
    except ValidationError as error:
        if error.title != "Settings":
            raise
        print(settings_problem(error), file=sys.stderr)
        return 2


def settings_problem(error: ValidationError) -> str:
    """What is wrong with the settings (the environment or .env), a line a setting, by the name
    it is set by, instead of pydantic's traceback."""
    lines = ["warhost: the settings (environment variables or .env) are not valid:"]
    for problem in error.errors():
        name = "_".join(str(part) for part in problem["loc"]).upper() or "?"
        given = problem.get("input")
        secret = any(word in name for word in ("TOKEN", "SECRET", "DATABASE"))  # a URL may hold a password
        shown = "" if secret or isinstance(given, dict) else f" (given {str(given)[:80]!r})"
        lines.append(f"  {name}{shown}: {problem['msg']}")
    return "\n".join(lines)
