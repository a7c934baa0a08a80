"""The `/game` command group. Each command is a thin call into the service; every reply
that is about one player only is ephemeral."""

from __future__ import annotations

import io
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

import engine
from bot.discord import records, texts
from bot.discord.board import board_of
from bot.discord.game_options import game_choices, offer_games, with_game_options
from bot.discord.mentions import NOBODY, plain_name, plain_names
from bot.discord.notify_commands import NotifyCommands
from bot.discord.permissions import held_by_slowmode, is_manager
from bot.discord.prompt_ui import moment, prompt_text, prompt_view, timestamp
from bot.discord.refusals import status_lines
from bot.discord.replies import answer, clip
from bot.discord.seat_commands import SeatCommands
from bot.discord.table_commands import CommandBase, TableCommands, channel_of
from bot.discord.threads import opens_thread
from bot.discord.vote_commands import VoteCommands
from bot.naming import named_prompt, shown_prompt
from bot.rules_text import rule_topics
from bot.service import ServiceError, drawing
from bot.service.away import TAKEOVER_LEVELS
from bot.service.clock import DEFAULT_PAUSE_DAYS, MIN_HOURS, PAUSE_DAYS, zone_choices
from bot.service.types import Place
from bot.service.wording import option_words

if TYPE_CHECKING:
    from bot.discord.wiring import Wiring

MAX_SEED = 2**53 - 1
"""Discord's integer options stop at 2^53 - 1 (the spec's Int53Type); one more is refused."""
MAX_TOPIC = 100
"""Rule topics are short names (the autocomplete offers them); Discord refuses longer input."""
MAX_CLOCK = 10
"""A time of day is "21:00"; a little room so a typo gets its own answer rather than Discord's."""
MAX_ZONE = 64
"""The longest IANA zone name is 32 characters; the column holds 64."""

GAME_CHOICES = game_choices(engine.games())
"""The games when this module is imported; each bot's group offers those registered when it starts."""
AWAY_CHOICES = [app_commands.Choice(name="the AI plays it", value="ai"),
                app_commands.Choice(name="its deadlines wait", value="pause")]
TAKEOVER_CHOICES = [app_commands.Choice(name=level, value=level) for level in TAKEOVER_LEVELS]
"""The AI that plays a seat it took over (bot/service/away.py); names kept short, /game is near
Discord's 4000 characters."""


def _here(interaction: discord.Interaction) -> Place:
    """Where the command was typed and by whom: a match's thread finds that match; the channel
    several matches run from finds the one the user sits in."""
    return Place(channel_of(interaction), interaction.user.id)


def _guild_id(interaction: discord.Interaction) -> int:
    assert interaction.guild_id is not None  # the group is guild-only
    return interaction.guild_id


class GameCommands(CommandBase, app_commands.Group):
    """`/game`: built with the wiring it acts through, so it never needs the bot."""

    def __init__(self, wiring: Wiring) -> None:
        super().__init__(
            name="game",
            description="Play war board games in this channel",
            allowed_contexts=app_commands.AppCommandContext(guild=True, dm_channel=False, private_channel=False),
            allowed_installs=app_commands.AppInstallationType(guild=True, user=False),
        )
        self.wiring = wiring
        games = engine.games()
        for command in self.commands:
            if isinstance(command, app_commands.Command):
                offer_games(command, games)

    @app_commands.command(name="new", description="Open a lobby for a new match in this channel")
    @app_commands.describe(
        game="which game",
        seats="most players allowed",
        deadline_hours="hours a decision may take before the AI chooses",
        seed="replay a known shuffle (default random)",
        away="what happens to an away seat (/game away)",
        deadline_at="a daily due time, like 21:00 (with timezone)",
        timezone="the time zone of deadline_at, like Europe/Berlin",
        min_hours="with deadline_at: least hours a decision gets (default 12)",
        takeover="AI for late or away seats",
    )
    @app_commands.choices(game=GAME_CHOICES, away=AWAY_CHOICES, takeover=TAKEOVER_CHOICES)
    @with_game_options
    async def new(
        self,
        interaction: discord.Interaction,
        game: str,
        seats: app_commands.Range[int, 1, 8] | None = None,
        deadline_hours: app_commands.Range[float, 0.05, 720.0] | None = None,
        seed: app_commands.Range[int, 0, MAX_SEED] | None = None,
        away: str = "ai",
        deadline_at: app_commands.Range[str, 1, MAX_CLOCK] | None = None,
        timezone: app_commands.Range[str, 1, MAX_ZONE] | None = None,
        min_hours: app_commands.Range[float, MIN_HOURS[0], MIN_HOURS[1]] | None = None,
        takeover: str = "heuristic",
        **chosen: Any,
    ) -> None:
        """`chosen` holds the game options (bot/discord/game_options.py), None where not given."""
        await self._private(interaction)
        if game not in engine.games():  # Discord offers only the listed games: a forged request
            listed = ", ".join(f"{info.title} (`{key}`)" for key, info in sorted(engine.games().items()))
            await self._done(interaction, texts.NO_GAME.format(game=plain_name(clip(game, 40)), games=listed))
            return
        fields = engine.get(game).options_model().model_fields
        options: dict[str, Any] = {}
        for name, value in chosen.items():
            if value is None:
                continue
            if name not in fields:
                await self._done(interaction, texts.NO_OPTION.format(game=engine.get(game).title, option=name))
                return
            options[name] = value
        kwargs: dict[str, Any] = {"max_seats": seats, "seed": seed, "away_mode": away, "deadline_at": deadline_at,
                                  "timezone": timezone, "min_hours": min_hours, "takeover_ai": takeover}
        if deadline_hours is not None:
            kwargs["deadline_hours"] = deadline_hours
        thread = opens_thread(interaction)
        info = await self.service.create(
            interaction.guild_id,
            channel_of(interaction),
            interaction.user.id,
            interaction.user.display_name,
            game,
            options,
            thread=thread,
            **kwargs,
        )
        shown = "".join(texts.LOBBY_OPTION.format(option=option_words(name, value)) for name, value in options.items())
        if info.clock is not None:
            shown += texts.LOBBY_CLOCK.format(clock=info.clock.describe())
        if info.takeover_ai == "search":
            shown += texts.LOBBY_TAKEOVER_SEARCH
        where = texts.LOBBY_IN_THREAD if thread else slowmode_warning(interaction)
        await self._done(interaction, texts.LOBBY_OPENED.format(title=info.title, match_id=info.id, options=shown,
                                                                where=where))

    @new.autocomplete("timezone")
    async def timezone_autocomplete(self, interaction: discord.Interaction,
                                    current: str) -> list[app_commands.Choice[str]]:
        return [app_commands.Choice(name=zone, value=zone) for zone in zone_choices(current[:MAX_ZONE])]

    @app_commands.command(name="join", description="Take a seat in this channel's lobby")
    async def join(self, interaction: discord.Interaction) -> None:
        await self._private(interaction)
        info = await self.service.join(_here(interaction), interaction.user.id, interaction.user.display_name)
        await self._done(interaction, texts.JOINED.format(title=info.title))

    @app_commands.command(name="leave", description="Leave this channel's lobby")
    async def leave(self, interaction: discord.Interaction) -> None:
        await self._private(interaction)
        await self.service.leave(_here(interaction), interaction.user.id)
        await self._done(interaction, texts.LEFT)

    @app_commands.command(name="addai", description="Seat an AI player in the lobby")
    @app_commands.describe(policy="how the AI plays")
    @app_commands.choices(
        policy=[app_commands.Choice(name="heuristic (plays to win)", value="heuristic"),
                app_commands.Choice(name="search (thinks ahead, slower)", value="search"),
                app_commands.Choice(name="random (any legal move)", value="random")]
    )
    async def addai(self, interaction: discord.Interaction, policy: str = "heuristic") -> None:
        await self._private(interaction)
        info = await self.service.add_ai(_here(interaction), interaction.user.id, policy=policy)
        how = {"random": texts.AI_PLAYS_AT_RANDOM, "search": texts.AI_THINKS_AHEAD}.get(policy, "")
        await self._done(interaction, texts.AI_SEATED.format(name=plain_name(info.newest_ai()), how=how))

    @app_commands.command(name="start", description="Start the match in this channel")
    async def start(self, interaction: discord.Interaction) -> None:
        await self._private(interaction)
        await self.service.start(_here(interaction), interaction.user.id, is_manager=await self._manager(interaction))
        await self._done(interaction, texts.STARTED)

    @app_commands.command(name="status", description="Phase, who still has to choose, and the deadline")
    async def status(self, interaction: discord.Interaction) -> None:
        await self._private(interaction)
        state = await self.service.status(_here(interaction))
        text, view, _ = await board_of(self.service, state.match.id)
        names = {seat.user_id: seat.name for seat in state.match.seats if seat.user_id is not None}
        text = "\n".join([text, *status_lines(state.blocked, names)])
        await answer(interaction, text[:2000], view=view)

    @app_commands.command(name="map", description="Show the current map")
    async def map(self, interaction: discord.Interaction) -> None:
        # Shown to the asker only: the channel already gets a map at every phase end.
        await self._private(interaction)
        info = await self.service.find_match(_here(interaction))
        if info is None:
            await self._done(interaction, texts.NO_MATCH_START_ONE)
            return
        view = await self.service.public_view(info.id)
        png = await drawing.draw(info.game, view, names=info.names())
        await answer(interaction, texts.MAP_CAPTION.format(title=info.title, phase=view.get("phase_label", "")),
                     file=discord.File(io.BytesIO(png), "map.png"))

    @app_commands.command(name="log", description="The latest public events of this match")
    @app_commands.describe(lines="how many lines")
    async def log(self, interaction: discord.Interaction, lines: app_commands.Range[int, 1, 50] = 15) -> None:
        await self._private(interaction)
        events = await self.service.log(_here(interaction), limit=lines)
        text = "\n".join(events) if events else texts.NOTHING_YET
        await self._done(interaction, text[-1900:])

    @app_commands.command(name="rules", description="Read a rule of the game played here")
    @app_commands.describe(topic="rule topic", game="which game (default: the one here)")
    @app_commands.choices(game=GAME_CHOICES)
    async def rules(self, interaction: discord.Interaction, topic: app_commands.Range[str, 1, MAX_TOPIC],
                    game: str | None = None) -> None:
        key = game or await self._game_here(interaction)
        topics = rule_topics(key)
        text = topics.get(topic) or next((rule for name, rule in topics.items() if name.lower() == topic.lower()), None)
        if text is None:
            # Discord keeps the topic to 100 characters; a longer one (a forged request) is clipped.
            asked = clip(topic, MAX_TOPIC)
            listed = ", ".join(sorted(topics)) or texts.NO_TOPICS
            await answer(interaction, texts.NO_RULE_TOPIC.format(asked=asked, topics=listed))
            return
        await answer(interaction, texts.RULE.format(topic=topic, text=text))

    @rules.autocomplete("topic")
    async def topic_autocomplete(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        key = getattr(interaction.namespace, "game", None) or await self._game_here(interaction)
        names = [t for t in rule_topics(key) if current.lower() in t.lower()]
        return [app_commands.Choice(name=t, value=t) for t in names][:25]

    async def _game_here(self, interaction: discord.Interaction) -> str:
        try:
            info = await self.service.find_match(_here(interaction)) if interaction.channel_id else None
        except ServiceError:  # several matches run from this channel: no game is "the one here"
            info = None
        return info.game if info is not None else engine.default_key()

    @app_commands.command(name="act", description="Answer your open decision here (if DMs fail you)")
    async def act(self, interaction: discord.Interaction) -> None:
        await self._private(interaction)
        info = await self.service.find_match(_here(interaction))
        if info is None:
            await self._done(interaction, texts.NO_MATCH_HERE)
            return
        pending = await self.service.pending_prompt(info.id, interaction.user.id)
        if pending is None:
            await self._done(interaction, texts.NO_DECISION)
            return
        shown = shown_prompt(pending.prompt)
        prompt = named_prompt(shown, info.names())
        written = named_prompt(shown, plain_names(info.names()))
        await answer(interaction, prompt_text(written, pending.deadline),
                     view=prompt_view(info.id, pending.seat, pending.version, prompt))

    @app_commands.command(name="abort", description="End this channel's match (host or Manage Server)")
    async def abort(self, interaction: discord.Interaction) -> None:
        await self._private(interaction)

        async def apply() -> str:
            await self.service.abort(_here(interaction), interaction.user.id, is_manager=await self._manager(interaction),
                                     by_name=interaction.user.display_name)
            return texts.ABORTED

        await self._once(interaction, "abort", apply)

    @app_commands.command(name="kick", description="Hand a player's seat to the AI (host or Manage Server)")
    @app_commands.describe(player="the player to replace by the AI")
    async def kick(self, interaction: discord.Interaction, player: discord.User) -> None:
        await self._private(interaction)
        info = await self.service.find_match(_here(interaction))
        if info is None:
            await self._done(interaction, texts.NO_MATCH_HERE)
            return
        seat = info.seat_of(player.id)
        if seat is None:
            await self._done(interaction, texts.NOT_SEATED.format(name=plain_name(player.display_name)))
            return
        manager = is_manager(interaction, info.guild_id)

        async def apply() -> str:
            await self.service.kick(_here(interaction), interaction.user.id, seat, is_manager=manager)
            return texts.KICKED.format(name=plain_name(player.display_name))

        await self._once(interaction, f"kick:{player.id}", apply)

    @app_commands.command(name="extend", description="Give everyone more time for the current decision")
    @app_commands.describe(hours="extra hours")
    async def extend(self, interaction: discord.Interaction, hours: app_commands.Range[float, 0.1, 336.0]) -> None:
        await self._private(interaction)

        async def apply() -> str:
            manager = await self._manager(interaction)
            await self.service.extend(_here(interaction), interaction.user.id, hours, is_manager=manager)
            state = await self.service.status(_here(interaction))
            return texts.EXTENDED.format(deadline=timestamp(state.deadline))

        await self._once(interaction, f"extend:{hours:g}", apply)

    @app_commands.command(name="pause", description="Pause deadlines for some days (host or Manage Server)")
    @app_commands.describe(days="how long (default 7, at most 30)")
    async def pause(self, interaction: discord.Interaction,
                    days: app_commands.Range[float, PAUSE_DAYS[0], PAUSE_DAYS[1]] = DEFAULT_PAUSE_DAYS) -> None:
        await self._private(interaction)

        async def apply() -> str:
            info = await self.service.pause(_here(interaction), interaction.user.id,
                                            is_manager=await self._manager(interaction), days=days)
            return texts.PAUSED_UNTIL.format(until=moment(info.paused_until))

        await self._once(interaction, f"pause:{days:g}", apply)

    @app_commands.command(name="resume", description="Resume a paused match")
    async def resume(self, interaction: discord.Interaction) -> None:
        await self._private(interaction)

        async def apply() -> str:
            await self.service.resume(_here(interaction), interaction.user.id, is_manager=await self._manager(interaction))
            return texts.RESUMED

        await self._once(interaction, "resume", apply)

    @app_commands.command(name="history", description="Finished matches of this server: result, length, replay")
    @app_commands.describe(game="only matches of this game")
    @app_commands.choices(game=GAME_CHOICES)
    async def history(self, interaction: discord.Interaction, game: str | None = None) -> None:
        await self._private(interaction)
        entries = await self.service.history(_guild_id(interaction), game)
        stretches = await self.service.stretches([entry.match_id for entry in entries])
        await answer(interaction, records.history_text(entries, game, stretches), allowed_mentions=NOBODY)

    @app_commands.command(name="stats", description="A player's games, wins, rating and favourite pick here")
    @app_commands.describe(player="whose stats (default: yours)")
    async def stats(self, interaction: discord.Interaction, player: discord.User | None = None) -> None:
        await self._private(interaction)
        who = player or interaction.user
        found = await self.service.player_stats(_guild_id(interaction), who.id)
        pace = await self.service.player_pace(_guild_id(interaction), who.id)
        shared = await self.service.shared_seats(_guild_id(interaction), who.id)
        await answer(interaction, records.stats_text(who.display_name, found, pace, shared), allowed_mentions=NOBODY)

    @app_commands.command(name="leaderboard", description="The best players of this server, per game")
    @app_commands.describe(game="one game (default: every game)")
    @app_commands.choices(game=GAME_CHOICES)
    async def leaderboard(self, interaction: discord.Interaction, game: str | None = None) -> None:
        await self._private(interaction)
        keys = [game] if game is not None else sorted(engine.games())
        size = records.LEADERBOARD_ONE if game is not None else records.LEADERBOARD_EACH
        boards = {key: await self.service.leaderboard(_guild_id(interaction), key, size) for key in keys}
        await answer(interaction, records.leaderboard_text(boards, game), allowed_mentions=NOBODY)

    # Defined in table_commands.py (a Group collects only the commands of its own class body).
    mine = TableCommands.mine
    undo = TableCommands.undo
    away = TableCommands.away
    concede = VoteCommands.concede
    propose = VoteCommands.propose
    notify = NotifyCommands.notify
    replace = SeatCommands.replace


def slowmode_warning(interaction: discord.Interaction) -> str:
    """A warning for the host when the match's channel has slowmode the bot cannot bypass."""
    seconds = int(getattr(interaction.channel, "slowmode_delay", 0) or 0)
    if not held_by_slowmode(seconds, interaction.app_permissions.value):
        return ""
    return texts.SLOWMODE_WARNING.format(seconds=seconds)
