"""Discord's JSON error codes the bot acts on, each defined here once (the senders, the thread
steps and the refusal rules all read them from here)."""

from __future__ import annotations

UNKNOWN_CHANNEL = 10003
UNKNOWN_MESSAGE = 10008
UNKNOWN_USER = 10013
UNKNOWN_WEBHOOK = 10015
"""An interaction's token Discord does not know (or no longer: an interaction webhook)."""
UNKNOWN_INTERACTION = 10062
"""An interaction past its 3 s for a callback."""
MISSING_ACCESS = 50001
DMS_CLOSED = 50007
""""Cannot send messages to this user": the player's DMs are closed to the bot."""
MISSING_PERMISSIONS = 50013
WRONG_CHANNEL_TYPE = 50024
"""The channel is of a type the request cannot be made in (a thread in a DM, a forum...)."""
ARCHIVED_THREAD = 50083
"""The thread is archived: a post reopens it, an edit is refused until it is reopened."""
NO_MUTUAL_GUILDS = 50278
THREAD_EXISTS = 160004
"""A thread has already been created for this message (a retry after a lost response)."""
LOCKED_THREAD = 160005
"""Posting in a locked thread takes Manage Threads: the match's thread waits for a moderator."""
