"""One live process per instance name.

The delivery and deadline leases are held in the name of the configured instance, not of one
process, so a restarted bot takes them back at once instead of waiting for them to expire. The
price: two live processes with the same name would both think they hold every lease. This guard
keeps them apart with a heartbeat lease that only one process (a random token) may hold.

A heartbeat left by a process that is gone is taken over at once when that process ran on this
machine (its pid is checked); otherwise the newcomer watches the heartbeat for a while: a live
owner renews it (refused), a dead one lets it expire (taken over)."""

from __future__ import annotations

import asyncio
import logging
import os
import socket
import uuid
from collections.abc import Callable
from datetime import datetime, timedelta
from pathlib import Path

from bot.service.errors import ServiceError
from db.models import Lease, utcnow
from db.store import Store

log = logging.getLogger(__name__)

HOST = socket.gethostname()[:60]


class InstanceInUse(ServiceError):
    """Another live process runs under the same instance name."""


def process_alive(pid: int) -> bool:
    """Whether process `pid` runs on this machine (a zombie, killed but not yet reaped, does not)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # someone else's process
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return True
    return state not in ("Z", "X")


def _owner(token: str) -> tuple[str, int | None]:
    """The host and pid a heartbeat token names ("host:pid:random")."""
    parts = token.rsplit(":", 2)
    if len(parts) != 3:
        return token, None
    try:
        return parts[0], int(parts[1])
    except ValueError:
        return parts[0], None


class InstanceGuard:
    """Holds the heartbeat lease "instance:<name>" for this process while it runs."""

    def __init__(self, store: Store, name: str, ttl_seconds: float,
                 clock: Callable[[], datetime] = utcnow, poll_seconds: float = 0.25) -> None:
        self.store = store
        self.name = name
        self.lease = f"instance:{name}"
        self.token = f"{HOST}:{os.getpid()}:{uuid.uuid4().hex[:12]}"
        self.ttl = timedelta(seconds=ttl_seconds)
        self.clock = clock
        self.poll = poll_seconds
        self.held = False

    async def claim(self) -> None:
        """Take the heartbeat, waiting out a dead owner elsewhere; InstanceInUse if one is alive."""
        watched: tuple[str, datetime] | None = None
        while True:
            if await self.store.acquire_lease(self.lease, self.token, self.clock(), self.ttl):
                self.held = True
                return
            row = await self._row()
            if row is None:
                continue  # released between our two reads
            host, pid = _owner(row.holder)
            if host == HOST and pid is not None and (pid == os.getpid() or not process_alive(pid)):
                log.info("instance %s: its previous process %s is gone; taking over its leases", self.name, pid)
                await self.store.release_lease(self.lease, row.holder, self.clock())
                continue
            if watched is None:
                watched = (row.holder, row.expires_at)
                log.warning("instance %s: the heartbeat of process %s on %s is fresh; waiting up to %.0f s "
                            "to see whether it still runs", self.name, pid, host,
                            (row.expires_at - self.clock()).total_seconds())
            elif (row.holder, row.expires_at) != watched:
                raise InstanceInUse(
                    f"another live process (pid {pid} on {host}) already runs as INSTANCE_NAME={self.name}. "
                    "Give every bot process on one database its own INSTANCE_NAME, or stop the other one first.")
            await asyncio.sleep(self.poll)

    async def renew(self) -> bool:
        """Keep the heartbeat fresh; False (logged) if another process holds it now."""
        held = await self.store.acquire_lease(self.lease, self.token, self.clock(), self.ttl) is not None
        if not held:
            log.error("instance %s: another process took this instance's heartbeat; this process stops "
                      "delivering and firing deadlines until it is free again. Give every bot process "
                      "its own INSTANCE_NAME.", self.name)
        self.held = held
        return held

    async def release(self) -> None:
        """At shutdown: the next process with this name may start at once."""
        if self.held:
            await self.store.release_lease(self.lease, self.token, self.clock())
            self.held = False

    async def _row(self) -> Lease | None:
        async with self.store.read() as session:
            return await self.store.lease(session, self.lease)
