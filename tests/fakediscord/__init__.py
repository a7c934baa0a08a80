"""fakediscord: a local fake of Discord's REST API and gateway that the real discord.py client
logs into, with virtual players for end-to-end tests (test infrastructure, not shipped)."""

from .control import ControlClient
from .models import Channel, Guild, Message, Thread, User, shard_for, snowflake_on_shard
from .players import Place, Player, PlayerError, Response
from .server import Call, FakeDiscord, Interaction, Violation, patch_discord

__all__ = ["Call", "Channel", "ControlClient", "FakeDiscord", "Guild", "Interaction", "Message", "Place",
           "Player", "PlayerError", "Response", "Thread", "User", "Violation", "patch_discord", "shard_for",
           "snowflake_on_shard"]
