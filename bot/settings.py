"""Typed settings read from the environment and `.env` (pydantic-settings)."""

from __future__ import annotations

import re
import socket
from functools import lru_cache
from typing import Literal

from pydantic import Field, SecretStr, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

INSTANCE_NAME_MAX = 50
"""Lease names are "instance:" + the name, and lease names hold at most 60 characters."""

MIN_SEARCH_WAIT_SECONDS, MAX_SEARCH_WAIT_SECONDS = 1.0, 600.0
"""SEARCH_WAIT_SECONDS's range (besides 0): below a second, a few decisions at the least budget
would already miss it."""


def default_instance_name() -> str:
    """One bot per machine: stable across restarts of the process, so a restarted bot takes
    its own leases back at once instead of waiting for them to expire."""
    host = re.sub(r"[^A-Za-z0-9._-]", "-", socket.gethostname()) or "localhost"
    return f"warhost-{host}"[:INSTANCE_NAME_MAX]


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore")

    discord_token: SecretStr | None = None
    database_url: str = "sqlite+aiosqlite:///warhost.db"
    dev_guild_id: int | None = None
    log_level: str = "INFO"
    discord_api_base: str | None = Field(default=None, description="REST base, e.g. http://127.0.0.1:9999/api/v10")
    discord_gateway_url: str | None = Field(default=None, description="gateway, e.g. ws://127.0.0.1:9999/")
    shard_count: int | None = None
    shard_ids: list[int] | None = None
    instance_name: str = Field(default_factory=default_instance_name, min_length=1, max_length=INSTANCE_NAME_MAX)
    """Who holds the delivery and deadline leases. Every bot process on one database needs
    its own; a process restarted under the same name takes its leases back at once."""
    db_wait_seconds: float = Field(default=10.0, gt=0, description="a click waits this long for the database, then is told the bot is very busy")
    reply_wait_seconds: float = Field(default=0.5, ge=0, le=2.5, description="the longest a click's reply waits to ride in its acknowledgement; the bot waits as long as 9 in 10 recent replies needed (at least 0.05 s, at most this), then acknowledges first and edits after (0: always at once)")
    tick_seconds: float = 5.0
    deliver_seconds: float = 1.0
    board_edit_seconds: float = Field(default=5.0, ge=0, description="a match's status board is edited at most once this often")
    board_wait_seconds: float = Field(default=30.0, ge=0, description="a status board change that only DMs and phase-post lines told (its latest line, who has chosen) waits at most this long to be edited in with the next; a phase end, a turn, a result or a post edits it at once")
    phase_edit_seconds: float = Field(default=4.0, ge=0, description="seconds between two writes of a match's phase posts: lines after a quiet spell go at once, sooner ones wait and go in one edit (0: every line at once)")
    delivery_probe_seconds: float = Field(default=60.0, gt=0, description="first re-try of a channel or DM that refused a post for good")
    delivery_probe_max_seconds: float = Field(default=900.0, gt=0, description="the re-tries back off (doubling) up to this")
    max_open_matches_per_server: int = Field(default=25, ge=1, description="open matches (lobbies included) a server may have")
    max_open_matches_per_user: int = Field(default=5, ge=1, description="open matches one player may sit in")
    thread_archive_seconds: float = Field(default=3600.0, ge=0, description="a finished or aborted match's thread is archived this long after its last post")
    draw_workers: int | None = Field(default=None, ge=0)
    """Processes that draw maps beside the event loop (None: one per core minus one, at least
    one); 0 draws in a thread of the bot process instead."""
    search_wait_seconds: float = 3.0
    """The wall wait, queue and think together, a search AI's decision aims at: while many wait
    for the thinking workers each gets less CPU than WARHOST_SEARCH_MS (at least 100 ms), and
    past that the heuristic answers (bot/service/think_queue.py). 0: no limit."""
    web_port: int | None = Field(default=None, ge=0, le=65535)
    """The match pages' HTTP port (bot/web/); None: no web server, and no post links to one."""
    web_host: str = "127.0.0.1"
    web_base_url: str | None = Field(default=None, pattern=r"^https?://[^\s/]+(/[^\s]*)?$")
    """The pages' public address that posts link to (default: http://WEB_HOST:WEB_PORT)."""
    web_secret: SecretStr | None = None
    """The key that signs seats' private links (None: one is made and kept in the database)."""
    web_link_days: float = Field(default=7.0, gt=0, le=90)
    """How long a seat's private link works (every new decision DM carries a fresh one)."""

    health_port: int | None = Field(default=None, ge=0, le=65535)
    """The HTTP listener for /healthz, /readyz and /metrics (None: none)."""
    health_host: str = "127.0.0.1"
    log_format: Literal["text", "json"] = "text"
    """json: one JSON object a line, for log collectors."""

    @field_validator("discord_token", "web_secret", "web_base_url", mode="before")
    @classmethod
    def _blank_is_none(cls, value: object) -> object:
        return None if isinstance(value, str) and not value.strip() else value

    @field_validator("instance_name", mode="before")
    @classmethod
    def _blank_name_is_default(cls, value: object) -> object:
        return default_instance_name() if isinstance(value, str) and not value.strip() else value

    @field_validator("dev_guild_id", "shard_count", "draw_workers", "health_port", "web_port", mode="before")
    @classmethod
    def _blank_int_is_none(cls, value: object) -> object:
        return None if isinstance(value, str) and not value.strip() else value

    @field_validator("search_wait_seconds")
    @classmethod
    def _a_wait_a_decision_can_meet(cls, value: float) -> float:
        if value != 0 and not MIN_SEARCH_WAIT_SECONDS <= value <= MAX_SEARCH_WAIT_SECONDS:
            raise ValueError(f"SEARCH_WAIT_SECONDS is 0 (no limit) or from {MIN_SEARCH_WAIT_SECONDS:g} to "
                             f"{MAX_SEARCH_WAIT_SECONDS:g} seconds (a decision thinks at least 0.1 s, and several "
                             f"queue at once), not {value:g}")
        return value

    @field_validator("log_format", mode="before")
    @classmethod
    def _format_any_case(cls, value: object) -> object:
        return value.strip().lower() or "text" if isinstance(value, str) else value

    @field_validator("shard_ids", mode="before")
    @classmethod
    def _parse_ids(cls, value: object) -> object:
        if isinstance(value, int) and not isinstance(value, bool):
            return [value]  # SHARD_IDS=1: the environment source JSON-decodes a lone id to an int
        if isinstance(value, str):
            value = value.strip()
            if not value:
                return None
            if not value.startswith("["):
                return [int(part) for part in value.split(",") if part.strip()]
        return value


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    return Settings()
