"""One way every failed command or click is told to its player, in plain words.

A refusal of the service or the engine says what was wrong in its own words; refused game
options name the option and what it allows. Anything else is our fault, and its text (SQL, a
URL, a stack of pydantic errors) is no business of the player's: they get an error id to quote,
and the log gets the full detail under the same id. Slash commands (the command tree's handler)
and clicks (the router's) both end here."""

from __future__ import annotations

import logging
import secrets
from typing import Any

import discord
from discord import app_commands
from pydantic import ValidationError

import engine
from bot.discord.replies import answer
from bot.discord.texts import BAD_OPTIONS, BUSY, CHECK_FAILED, OPEN_LOBBY, OUT_OF_DATE, UNEXPECTED
from bot.discord.threads import several_text
from bot.service import ServiceError
from bot.service.errors import OpenLobby, SeveralMatches
from bot.service.wording import sentence
from db import StoreBusy
from db.health import is_damage
from engine.validate import explain_invalid

log = logging.getLogger(__name__)

ID_LETTERS = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
"""No 0/O or 1/I: the id is read out and typed again."""


def new_error_id() -> str:
    return "".join(secrets.choice(ID_LETTERS) for _ in range(6))


def unwrap(error: BaseException) -> BaseException:
    """The exception a command raised, out of discord.py's CommandInvokeError wrapper."""
    while isinstance(error, app_commands.CommandInvokeError) and error.original is not None:
        error = error.original
    return error


def _options_model(title: str) -> Any:
    """The game options model pydantic named `title` in its error, if it is one."""
    for game in engine.games().values():
        model = game.options_model()
        if model.__name__ == title:
            return model
    return None


def explain(error: BaseException, where: str = "an interaction") -> str:
    """What the player reads about `error`; unexpected errors are logged in full under an id."""
    error = unwrap(error)
    if isinstance(error, SeveralMatches):
        return several_text(error)
    if isinstance(error, OpenLobby):
        return OPEN_LOBBY.format(title=error.match.title, match_id=error.match.id, channel_id=error.match.channel_id)
    if isinstance(error, engine.IllegalChoice):
        return sentence(str(error))  # the engine's refusals are clauses: "the garrison is full"
    if isinstance(error, ServiceError):
        return str(error)
    if isinstance(error, ValidationError) and (model := _options_model(error.title)) is not None:
        return BAD_OPTIONS.format(why=explain_invalid(error, model))
    if isinstance(error, app_commands.CommandSignatureMismatch | app_commands.CommandNotFound):
        return OUT_OF_DATE
    if isinstance(error, app_commands.CheckFailure):
        return CHECK_FAILED
    if isinstance(error, StoreBusy):
        log.warning("%s: %s; the player was told to try again", where, error)
        return BUSY
    error_id = new_error_id()
    log.error("error id %s in %s", error_id, where, exc_info=(type(error), error, error.__traceback__))
    if is_damage(error):
        log.critical("the database is damaged (%s); stop the bot and restore a backup or move the file away",
                     str(error).splitlines()[0])
    return UNEXPECTED.format(error_id=error_id)


def _where(interaction: discord.Interaction) -> str:
    command = interaction.command
    if command is not None:
        return f"/{command.qualified_name} (interaction {interaction.id})"
    return f"{interaction.type.name} interaction {interaction.id}"


async def report(interaction: discord.Interaction, error: BaseException) -> None:
    """Tell the interaction's user, privately, what went wrong; never raises."""
    text = explain(error, _where(interaction))
    try:
        await answer(interaction, text)
    except discord.HTTPException as exc:  # the interaction expired, or Discord is down
        log.warning("could not tell the user of interaction %s what went wrong: %s", interaction.id, exc)


async def on_command_error(interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
    """The command tree's error handler: every slash command's failure ends here."""
    await report(interaction, error)


async def on_component_error(interaction: discord.Interaction, error: Exception) -> None:
    """The router's error handler: every click's and modal's failure ends here. A reply Discord
    refused (the interaction expired) leaves nothing to tell the player on it: only the log hears."""
    if isinstance(error, discord.HTTPException):
        log.exception("Discord refused a reply to interaction %s", interaction.id, exc_info=error)
        return
    await report(interaction, error)
