"""`python -m bot export` and `python -m bot import`: a match moved to another database.

Round trip for a finished and an unfinished match of every game: the imported match has a new
id and the same log, its `replay --verify` passes with the same digest; the unfinished one sends
its open decisions again. A document the replay does not reproduce, or a malformed one, is refused
with its reason and writes nothing."""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import re
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

import engine
from bot.cli import export, import_match, replay
from bot.service import MatchService
from db import Match, Notice, Store
from tests.games import KEYS, short, table_of

GUILD, CHANNEL, OTHER_CHANNEL = 10**17 + 1, 10**17 + 2, 10**17 + 3
ALICE, BOB = 2**62 + 11, 2**62 + 12
UNFINISHED_CHOICES = 3
"""Human choices made before an unfinished match is exported."""


def _args(module: Any, argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    module.configure(parser)
    return parser.parse_args(argv)


async def _played(url: str, game: str, finished: bool) -> int:
    """A match of alice, bob and AI seats, played by the heuristic for the humans: to its end, or
    for a few human choices."""
    options, seats = short(game), table_of(game)
    store = await Store.open(url)
    try:
        svc = MatchService(store)
        info = await svc.create(GUILD, CHANNEL, ALICE, "alice", game, options, max_seats=seats, seed=11)
        await svc.join(CHANNEL, BOB, "bob")
        for _ in range(seats - 2):
            await svc.add_ai(CHANNEL, ALICE)
        await svc.start(CHANNEL, ALICE)
        rules = engine.get(game)
        policy = rules.policies()["heuristic"]
        made = 0
        for _ in range(5000):
            if (await svc.get_match(info.id)).status != "active":
                break
            if not finished and made >= UNFINISHED_CHOICES:
                break
            acted = False
            for user in (ALICE, BOB):
                pending = await svc.pending_prompt(info.id, user)
                if pending is None or pending.prompt.answered:
                    continue
                async with store.read() as session:
                    match = await session.get(Match, info.id)
                    assert match is not None
                    state = await store.load_state(session, match)
                choice = engine.decide(rules, policy, state, pending.prompt, random.Random(match.step))
                await svc.submit(info.id, user, dict(choice), version=pending.version)
                made += 1
                acted = True
                break
            assert acted, "nobody owes a choice in a running match"
        status = (await svc.get_match(info.id)).status
        assert status == ("finished" if finished else "active"), status
        return info.id
    finally:
        await store.close()


def _verify(url: str, match_id: int, capsys: pytest.CaptureFixture[str]) -> str:
    assert replay.run(_args(replay, [str(match_id), "--db", url, "--verify"])) == 0, capsys.readouterr().out
    out = capsys.readouterr().out
    digest = re.search(r"log sha256 ([0-9a-f]{16})", out)
    assert digest, out
    return digest.group(1)


async def _count(url: str, table: Any) -> int:
    store = await Store.open(url, migrate=False)
    try:
        async with store.read() as session:
            return int((await session.exec(sa.select(sa.func.count()).select_from(table))).scalar_one())
    finally:
        await store.close()


@pytest.mark.parametrize("finished", [True, False], ids=["finished", "unfinished"])
@pytest.mark.parametrize("game", KEYS)
def test_round_trip_keeps_the_replay(game: str, finished: bool, tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    source, target = f"sqlite+aiosqlite:///{tmp_path / 'a.db'}", f"sqlite+aiosqlite:///{tmp_path / 'b.db'}"
    match_id = asyncio.run(_played(source, game, finished))
    digest = _verify(source, match_id, capsys)
    assert export.run(_args(export, [str(match_id), "--db", source])) == 0
    text = capsys.readouterr().out
    document = json.loads(text)
    assert document["game"] == game and document["seed"] == 11
    assert [s["user_id"] for s in document["seats"]][:2] == [str(ALICE), str(BOB)]
    assert [s["name"] for s in document["seats"]][:2] == ["alice", "bob"]
    assert (document["result"] is not None) == finished
    assert len(document["choices"]) >= (1 if finished else UNFINISHED_CHOICES)

    # The target already has a match, so the import gets a new id.
    asyncio.run(_played(target, "tinybigwars", finished=True))
    path = tmp_path / "match.json"
    path.write_text(text)
    assert import_match.run(_args(import_match, [str(path), "--db", target, "--channel", str(OTHER_CHANNEL)])) == 0
    found = re.search(r"imported as match (\d+)", capsys.readouterr().out)
    assert found
    new_id = int(found.group(1))
    assert new_id != match_id or match_id != 1
    assert _verify(target, new_id, capsys) == digest

    status, channel, kind, prompts, owed = asyncio.run(_imported(target, new_id))
    assert (status, channel, kind) == ("finished" if finished else "active", OTHER_CHANNEL, game)
    if not finished:  # its players are asked again where it is now
        assert set(prompts) & {ALICE, BOB} and owed, prompts
    else:
        assert prompts == [] and not owed


async def _imported(url: str, match_id: int) -> tuple[str, int, str, list[int | None], bool]:
    """Status, channel, game and prompt notices of an imported match; whether a human owes a choice."""
    store = await Store.open(url, migrate=False)
    try:
        async with store.read() as session:
            match = await session.get(Match, match_id)
            assert match is not None
            prompts = list((await session.exec(sa.select(Notice.user_id).where(
                Notice.match_id == match_id, Notice.kind == "prompt"))).scalars().all())
        svc = MatchService(store)
        owed = False
        if match.status == "active":
            owed = any([await svc.pending_prompt(match_id, user) is not None for user in (ALICE, BOB)])
        return match.status, match.channel_id, match.game, prompts, owed
    finally:
        await store.close()


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory) -> str:
    """A finished Tiny Big Wars match's document (played once for the refusal tests)."""
    source = f"sqlite+aiosqlite:///{tmp_path_factory.mktemp('source') / 'a.db'}"
    match_id = asyncio.run(_played(source, "tinybigwars", finished=True))
    return asyncio.run(export._export(source, match_id)).model_dump_json()


def _import(tmp_path: Path, document: Any, target: str) -> tuple[int, str]:
    asyncio.run(_empty(target))  # an empty, migrated database: afterwards it still holds no match
    path = tmp_path / "doc.json"
    path.write_text(document if isinstance(document, str) else json.dumps(document))
    code = import_match.run(_args(import_match, [str(path), "--db", target, "--channel", str(OTHER_CHANNEL)]))
    return code, path.name


@pytest.mark.parametrize(("change", "error"), [
    (lambda d: d["result"].update(winners=[s for s in range(3) if s not in d["result"]["winners"]]),
     "the replay does not reproduce the document's result"),
    (lambda d: d["choices"].pop(), "does not match its log_sha256"),
    (lambda d: d.update(game="chess"), "game: Value error, unknown game 'chess'"),
    (lambda d: d.update(version=2), "match document version 2: this bot reads version 1"),
    (lambda d: d.update(format="other"), "not a match document"),
    (lambda d: d["seats"][0].update(user_id="alice"), "seats.0.user_id: String should match pattern"),
    (lambda d: d.pop("seed"), "seed: Field required"),
    (lambda d: d["choices"][0].update(seq=7), "numbered 1, 2, 3"),
])
def test_a_document_the_replay_refuses_writes_nothing(change: Any, error: str, exported: str, tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    document = json.loads(exported)
    change(document)
    target = f"sqlite+aiosqlite:///{tmp_path / 'b.db'}"
    code, _ = _import(tmp_path, document, target)
    err = capsys.readouterr().err
    assert code == 1 and error in err and err.rstrip().endswith("nothing was written"), err
    assert asyncio.run(_count(target, Match)) == 0


def test_a_changed_choice_is_refused_naming_it(exported: str, tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    document = json.loads(exported)
    first = document["choices"][0]
    first["payload"] = {"nonsense": True}
    document["log_sha256"] = engine.log_sha256([(c["seat"], c["payload"]) for c in document["choices"]])
    target = f"sqlite+aiosqlite:///{tmp_path / 'b.db'}"
    code, _ = _import(tmp_path, document, target)
    err = capsys.readouterr().err
    assert code == 1 and f"choice 1 ({first['kind']} by seat {first['seat']}) is refused on replay" in err, err
    assert asyncio.run(_count(target, Match)) == 0


def test_not_json_and_unknown_match(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = f"sqlite+aiosqlite:///{tmp_path / 'b.db'}"
    code, _ = _import(tmp_path, '{"format": "warhost-match",', target)
    assert code == 1 and "not JSON: Expecting property name enclosed in double quotes at line 1" in \
        capsys.readouterr().err
    source = f"sqlite+aiosqlite:///{tmp_path / 'a.db'}"
    asyncio.run(_empty(source))
    assert export.run(_args(export, ["42", "--db", source])) == 1
    assert "no match 42 in this database" in capsys.readouterr().err


async def _empty(url: str) -> None:
    await (await Store.open(url)).close()
