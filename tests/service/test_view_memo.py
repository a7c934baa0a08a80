"""A transaction builds each view once: the public view of a state and a seat's own view are
asked for by several of a change's notices (phase labels, the phase post's map, the turn
heads-up, the actor's reply and next prompt), and a view costs more than the rules' step.
The notices must still carry the view of the state they describe."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

import engine
from bot.service import MatchService
from db import Store
from tests.games import KEYS, short, table_of

HOST = 1


@pytest.mark.parametrize("key", KEYS)
async def test_an_all_ai_start_builds_each_view_once(tmp_path: Any, key: str,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    game = engine.get(key)
    built: Counter[tuple[int, int | None]] = Counter()
    kept: list[Any] = []  # every state asked about stays alive, so no two share an id
    view = game.view

    def counted(state: Any, seat: int | None) -> dict[str, Any]:
        kept.append(state)
        built[(id(state), seat)] += 1
        return view(state, seat)

    store = await Store.open(f"sqlite+aiosqlite:///{tmp_path / 'v.db'}", migrate=True)
    try:
        svc = MatchService(store, holder="test")
        seats, options = table_of(key), short(key, rounds=2)
        await svc.create(None, 77, HOST, "host", key, options, max_seats=seats, seed=5, host_plays=False)
        for _ in range(seats):
            await svc.add_ai(77, HOST)
        monkeypatch.setattr(game, "view", counted)
        await svc.start(77, HOST)  # the whole all-AI match is played in this one transaction
        monkeypatch.undo()
        notices = await svc.outbox(100_000)
    finally:
        await store.close()
    assert len(built) > 4
    assert max(built.values()) == 1, [count for count in built.values() if count > 1]
    # the result's map is the final state's public view, the same object the last labels read
    result = next(n for n in notices if n.kind == "result")
    final = next(state for state in reversed(kept) if game.result(state) is not None)
    assert result.payload["view"] == view(final, None)
