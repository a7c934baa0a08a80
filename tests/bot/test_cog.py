"""The game cog's lifecycle owns the loops: loading it adds /game and starts the tick, the
delivery and the heartbeat; unloading stops them and takes /game back; the bot's close stops
them before it gives up its leases and its instance name."""

from __future__ import annotations

import asyncio
from typing import Any

from bot.discord.app import WarhostBot
from bot.discord.cog import GameCog
from bot.settings import Settings


class Thinkers:
    """No AI ever thinks here; the cog only wires its wake-up and stops it."""

    on_applied = None

    async def stop(self) -> None:
        return None


class Service:
    """Records what the loops ask of the service; nothing is ever due."""

    def __init__(self) -> None:
        self.thinkers = Thinkers()
        self.calls: list[str] = []
        self.loops_running_at_release: list[bool] = []
        self.released: list[str] = []
        self.cog: GameCog | None = None

    async def recover(self) -> None:
        self.calls.append("recover")

    async def tick(self) -> bool:
        self.calls.append("tick")
        return False

    async def release_lease(self, name: str, holder: str) -> None:
        assert self.cog is not None
        self.released.append(name)
        self.loops_running_at_release.append(any(not task.done() for task in self.cog._tasks))


class Guard:
    held = True

    def __init__(self) -> None:
        self.renewals = 0
        self.released = False

    async def renew(self) -> None:
        self.renewals += 1

    async def release(self) -> None:
        self.released = True


def _bot(service: Service, guard: Guard) -> WarhostBot:
    settings = Settings(_env_file=None, discord_token="unused", tick_seconds=0.02, deliver_seconds=0.02)
    bot = WarhostBot(settings)
    bot._service = service  # type: ignore[assignment]  # what setup_hook opens over a store
    bot.guard = guard  # type: ignore[assignment]
    return bot


async def test_the_cog_owns_the_loops_and_the_game_command() -> None:
    service, guard = Service(), Guard()
    bot = _bot(service, guard)
    cog = GameCog(bot)
    service.cog = cog
    await bot.add_cog(cog)
    assert bot.game is cog and bot.tree.get_command("game") is cog.group
    assert len(cog._tasks) == 3 and not any(task.done() for task in cog._tasks)
    await asyncio.sleep(0.15)
    assert service.calls[0] == "recover" and "tick" in service.calls and guard.renewals > 0
    tasks = list(cog._tasks)
    await bot.remove_cog(GameCog.__cog_name__)
    assert all(task.done() for task in tasks) and bot.tree.get_command("game") is None
    assert bot.game is None


async def test_close_stops_the_loops_before_the_leases_are_given_up() -> None:
    service, guard = Service(), Guard()
    bot: Any = _bot(service, guard)
    cog = GameCog(bot)
    service.cog = cog
    await bot.add_cog(cog)
    await bot.close()
    assert service.released == ["deliver", "tick"], "another process takes both over at once"
    assert service.loops_running_at_release == [False, False] and guard.released


async def test_commands_and_clicks_act_through_the_cog_and_wake_its_current_delivery() -> None:
    from bot.discord.delivery import Delivery

    service = Service()
    bot = _bot(service, Guard())
    bot.wake_delivery()  # before start-up: nothing to wake, and no error
    cog = GameCog(bot)
    assert cog.router.wiring is cog and cog.group.wiring is cog
    assert cog.service is service and cog.messenger is bot
    cog.delivery = Delivery(bot)  # a delivery replaced (as after a crash) is the one woken
    cog.router.wiring.wake_delivery()
    assert cog.delivery.wake.is_set()
