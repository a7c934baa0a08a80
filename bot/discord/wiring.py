"""What the commands and components are handed instead of the bot.

They need the game's service, a few look-ups and posts of the Discord client, and a way to wake
the delivery; naming exactly that keeps them free of the bot's class (and of its start-up)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    import discord
    from discord.abc import PrivateChannel
    from discord.http import HTTPClient

    from bot.discord.seat_turns import SeatTurns
    from bot.service import MatchService
    from bot.service.outbox import Fence


class Messenger(Protocol):
    """The Discord client as components use it: find channels, users and guilds, post, and the
    raw REST calls discord.py has no model method for (threads). ``discord.Client`` is one."""

    http: HTTPClient

    def get_channel(self, id: int, /) -> discord.abc.GuildChannel | discord.Thread | PrivateChannel | None: ...

    def get_partial_messageable(self, id: int, *, guild_id: int | None = None,
                                type: discord.ChannelType | None = None) -> discord.PartialMessageable: ...

    def get_user(self, id: int, /) -> discord.User | None: ...

    async def create_dm(self, user: discord.abc.Snowflake, /) -> discord.DMChannel: ...

    def get_guild(self, id: int, /) -> discord.Guild | None: ...


class Host(Messenger, Protocol):
    """The messenger with the service it works for: what the outbox delivery and the status
    boards are given (the bot is one)."""

    @property
    def svc(self) -> MatchService: ...

    async def holds_lease(self, name: str) -> bool:
        """Whether this process may still deliver (``deliver``): a process paused past its lease sends nothing."""
        ...


class LeaseKeeper(Protocol):
    """The process's leases as the outbox delivery writes under them (app.py's ``Leases``)."""

    def fence(self, name: str) -> Fence | None: ...

    def lost(self, name: str) -> None: ...


class Outbound(Host, Protocol):
    """The host the outbox delivery works for: also the leases whose fence its marks carry
    (None before the bot set them up; the bot is one)."""

    @property
    def leases(self) -> LeaseKeeper | None: ...


class Wiring(Protocol):
    """The service a command or click acts through, the messenger it reaches Discord with, the
    delivery it wakes once the service has written notices, and the seat turns its reply to a
    prompt click shares with delivery (the game's cog is one)."""

    @property
    def service(self) -> MatchService: ...

    @property
    def messenger(self) -> Messenger: ...

    def wake_delivery(self, match_id: int | None = None) -> None: ...

    @property
    def seat_turns(self) -> SeatTurns: ...
