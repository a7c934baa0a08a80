"""`python -m bot simulate GAME`: play an all-AI match through the engine and summarise it."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import engine
from bot.cli._options import add_option_args, match_options
from bot.simulate import simulate
from engine.contract import IllegalChoice
from engine.text import fill, seat_label

NAME = "simulate"
HELP = "play an all-AI match through the engine alone and print a summary"

SUMMARY_KEYS = ("game", "seats", "seed", "policy", "winner", "draw", "rounds", "choices", "log_sha256", "reason", "scores")


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game", help=f"game key: {', '.join(engine.SHIPPED)}")
    parser.add_argument("--seats", type=int, default=3, help="number of seats (default 3)")
    parser.add_argument("--seed", type=int, default=1, help="match seed (default 1)")
    parser.add_argument("--policy", choices=["heuristic", "search", "random"], default="heuristic", help="AI policy for every seat")
    parser.add_argument("--json", action="store_true", help="print exactly one line of JSON")
    parser.add_argument("--out", help="folder for one map PNG per phase end, the final map and replay.gif")
    parser.add_argument("--db", help="play through the match service and store it in this database (URL)")
    add_option_args(parser)


def run(args: argparse.Namespace) -> int:
    if args.db:
        return _stored(args)
    images = None
    try:
        options = match_options(args)
        if args.out:
            from bot.sim_images import PhaseImages

            images = PhaseImages(args.game, Path(args.out))
        out = simulate(args.game, args.seats, args.seed, args.policy, options=options, on_step=images)
    except (KeyError, ValueError, IllegalChoice) as exc:
        print(f"simulate: {exc}")
        return 2
    summary = {k: out[k] for k in SUMMARY_KEYS}
    summary["reason"] = fill(str(summary["reason"]))
    if images is not None:
        summary.update(images.finish(out["state"]))
    if args.json:
        print(json.dumps(summary, sort_keys=True, separators=(",", ":")))
        return 0
    for text in out["phase_ends"]:
        print(f"- {fill(text)}")
    print(
        f"{out['game']}: {out['seats']} seats, seed {out['seed']}, {out['policy']} AI: "
        f"{verdict(out['game'], out['winner'], out['draw'])} ({summary['reason']}) "
        f"after {out['rounds']} rounds and {out['choices']} choices"
    )
    print(f"log sha256 {out['log_sha256']}")
    return 0


def verdict(key: str, winners: list[int], draw: bool) -> str:
    """"won by Player 1", "draw between ...", or for a cooperative game "<the team> won/lost";
    players are named as in every other text (`engine.text.seat_label`), never by engine index."""
    from bot.service.core import team_verdict

    team = team_verdict(engine.get(key), winners)
    if team is not None:
        return team
    seats = ", ".join(seat_label(w) for w in winners) or "nobody"
    return f"{'draw between ' if draw else 'won by '}{seats}"


def _stored(args: argparse.Namespace) -> int:
    """The same match through the service and store; the summary adds ``match_id``."""
    import asyncio

    from bot.service import ServiceError
    from bot.storesim import simulate_stored

    try:
        out = asyncio.run(simulate_stored(args.db, args.game, args.seats, args.seed, args.policy,
                                          match_options(args)))
    except (KeyError, ValueError, ServiceError) as exc:
        print(f"simulate: {exc}")
        return 2
    result = out.get("result") or {}
    summary = {
        "game": out["game"], "seats": out["seats"], "seed": out["seed"], "policy": out["policy"],
        "match_id": out["match_id"], "status": out["status"], "winner": result.get("winners", []),
        "draw": result.get("draw", False), "reason": fill(str(result.get("reason", ""))),
        "choices": out["choices"], "log_sha256": out["log_sha256"],
    }
    if args.json:
        print(json.dumps(summary, sort_keys=True, separators=(",", ":")))
    else:
        outcome = verdict(summary["game"], summary["winner"], summary["draw"])
        print(f"match #{summary['match_id']} stored: {summary['game']}, {outcome} ({summary['reason']}) "
              f"after {summary['choices']} choices; verify with  python -m bot replay {summary['match_id']} "
              f"--db {args.db} --verify")
    return 0
