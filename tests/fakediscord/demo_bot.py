"""A small test-only bot that exercises every flow the fake supports (not shipped with warhost).

Run standalone against `python -m tests.fakediscord`:
    DISCORD_API_BASE=... DISCORD_GATEWAY_URL=... python -m tests.fakediscord.demo_bot [--sharded]
"""

from __future__ import annotations

import argparse
import asyncio
import io
import os
from collections.abc import Iterable
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands
from PIL import Image, ImageDraw


def render_board(size: int) -> bytes:
    """A tiny PNG grid, enough to check that images survive multipart upload."""
    img = Image.new("RGB", (32 * size, 32 * size), "white")
    draw = ImageDraw.Draw(img)
    for i in range(size + 1):
        draw.line([(i * 32, 0), (i * 32, 32 * size)], fill="black")
        draw.line([(0, i * 32), (32 * size, i * 32)], fill="black")
    buf = io.BytesIO()
    img.save(buf, "PNG", compress_level=1)
    return buf.getvalue()


class OrdersModal(discord.ui.Modal, title="Secret orders"):
    attack = discord.ui.TextInput(label="Attack", custom_id="attack", max_length=2)
    defend = discord.ui.TextInput(label="Defend", custom_id="defend", max_length=2)

    def __init__(self) -> None:
        super().__init__(custom_id="orders", timeout=None)

    async def on_submit(self, interaction: discord.Interaction) -> None:
        interaction.client.orders[interaction.user.id] = (self.attack.value, self.defend.value)  # type: ignore[attr-defined]
        await interaction.response.send_message(f"Orders: attack {self.attack.value}, defend {self.defend.value}",
                                                ephemeral=True)


class EnlistModal(discord.ui.Modal, title="Enlist"):
    """Label-based layout (type 18) with a text input and a select, as newer modals use."""

    name = discord.ui.Label(text="Name", component=discord.ui.TextInput(custom_id="name", max_length=20))
    faction = discord.ui.Label(text="Faction", component=discord.ui.Select(custom_id="faction", options=[
        discord.SelectOption(label="Jade", value="jade"), discord.SelectOption(label="Ruby", value="ruby")]))

    def __init__(self) -> None:
        super().__init__(custom_id="enlist", timeout=None)

    async def on_submit(self, interaction: discord.Interaction) -> None:
        name = self.name.component.value  # type: ignore[attr-defined]
        faction = self.faction.component.values[0]  # type: ignore[attr-defined]
        await interaction.response.send_message(f"{name} enlists with {faction}")


class SecretView(discord.ui.View):
    """Persistent DM view: DM clicks reach shard 0 only, so it must not depend on in-memory state."""

    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.button(label="Spend 2", custom_id="secret:spend2", style=discord.ButtonStyle.primary)
    async def spend(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        await interaction.response.send_modal(OrdersModal())


class BoardView(discord.ui.View):
    def __init__(self) -> None:
        super().__init__(timeout=None)
        self.add_item(discord.ui.Button(label="Rules", url="https://example.invalid/rules"))

    @discord.ui.button(label="Join", custom_id="board:join", style=discord.ButtonStyle.success)
    async def join(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        await interaction.response.send_message(f"{interaction.user.name} joined", ephemeral=True)
        try:
            await interaction.user.send("Choose your secret move", view=SecretView())
        except discord.Forbidden as err:
            interaction.client.dm_errors.append(err.code)  # type: ignore[attr-defined]
            await interaction.followup.send("I can't DM you: open your DMs", ephemeral=True)

    @discord.ui.button(label="Info", custom_id="board:info")
    async def info(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        await interaction.response.send_message("Only you see this", ephemeral=True)

    @discord.ui.button(label="Closed", custom_id="board:closed", disabled=True)
    async def closed(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        await interaction.response.send_message("unreachable")


class TargetView(discord.ui.View):
    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.select(placeholder="Target", custom_id="target", options=[
        discord.SelectOption(label="Jade", value="jade"), discord.SelectOption(label="Ruby", value="ruby"),
        discord.SelectOption(label="Onyx", value="onyx")], max_values=2)
    async def pick(self, interaction: discord.Interaction, select: discord.ui.Select) -> None:
        await interaction.response.edit_message(content=f"Target: {', '.join(select.values)}", view=None)


class CounterView(discord.ui.View):
    """A deferred update (callback type 6) followed by an @original edit of the same message."""

    def __init__(self) -> None:
        super().__init__(timeout=None)
        self.count = 0

    @discord.ui.button(label="+1", custom_id="counter:inc")
    async def inc(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        await interaction.response.defer()
        self.count += 1
        await interaction.edit_original_response(content=f"Count: {self.count}", view=self)


class RawView(discord.ui.View):
    """Sends component rows verbatim, so a test can make the bot break Discord's limits."""

    def __init__(self, rows: list[dict]) -> None:
        super().__init__(timeout=None)
        self._rows = rows

    def to_components(self) -> list[dict]:  # type: ignore[override]
        return self._rows


class RawModal(discord.ui.Modal, title="Too big"):
    def __init__(self, inputs: int) -> None:
        super().__init__(custom_id="toobig", timeout=None)
        self._inputs = inputs

    def to_components(self) -> list[dict]:  # type: ignore[override]
        return [{"type": 1, "components": [{"type": 4, "custom_id": f"f{i}", "label": f"F{i}", "style": 1}]}
                for i in range(self._inputs)]


class StatusBoard(discord.ui.LayoutView):
    """A Components V2 status board: a container with a heading, a section whose accessory is a
    button, the map in a media gallery (attachment://map.png) and a row of buttons; "Advance"
    edits the board in place, keeping the attachment."""

    def __init__(self, round_no: int = 1) -> None:
        super().__init__(timeout=None)
        self.round_no = round_no
        join = discord.ui.Button(label="Join", custom_id="board2:join", style=discord.ButtonStyle.success)
        join.callback = self.join  # type: ignore[method-assign]
        advance = discord.ui.Button(label="Advance", custom_id="board2:advance")
        advance.callback = self.advance  # type: ignore[method-assign]
        self.add_item(discord.ui.Container(
            discord.ui.TextDisplay("# Status board"),
            discord.ui.Section(discord.ui.TextDisplay(f"Round {round_no}"), discord.ui.TextDisplay("2 seats"),
                               accessory=join),
            discord.ui.MediaGallery(discord.MediaGalleryItem("attachment://map.png", description="the map")),
            discord.ui.Separator(),
            discord.ui.ActionRow(advance),
            accent_colour=discord.Colour.blurple()))

    async def join(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"{interaction.user.name} takes a seat", ephemeral=True)

    async def advance(self, interaction: discord.Interaction) -> None:
        await interaction.response.edit_message(view=StatusBoard(self.round_no + 1))


class RawLayout(discord.ui.LayoutView):
    """Sends a V2 layout verbatim (discord.py checks some limits itself), so a test can make the bot
    break Discord's."""

    def __init__(self, components: list[dict]) -> None:
        super().__init__(timeout=None)
        self._components = components

    def to_components(self) -> list[dict]:  # type: ignore[override]
        return self._components

    def has_components_v2(self) -> bool:
        return True


def _text(content: str) -> dict:
    return {"type": 10, "content": content}


def _button(cid: str) -> dict:
    return {"type": 2, "style": 1, "label": cid, "custom_id": cid}


BAD_KINDS = ["rows", "row_width", "custom_id", "content", "options", "modal_inputs", "bigfile", "min_max",
             "empty_option", "mentions", "select_row", "v2_content", "v2_total", "v2_section", "v2_text",
             "v2_attachment", "v2_nesting"]
V2_BAD: dict[str, list[dict]] = {
    "v2_total": [{"type": 17, "components": [_text(f"line {i}") for i in range(40)]}],
    "v2_section": [{"type": 9, "components": [_text(f"t{i}") for i in range(4)],
                    "accessory": {"type": 2, "style": 1, "label": "Go", "custom_id": "go"}}],
    "v2_text": [_text("a" * 2500), _text("b" * 2500)],
    "v2_attachment": [{"type": 12, "items": [{"media": {"url": "attachment://missing.png"}}]}],
    "v2_nesting": [{"type": 17, "components": [{"type": 17, "components": [_text("inner")]}]}],
}
"""V2 layouts breaking one rule each: 41 components, 4 texts in a section, 5000 characters of text,
a gallery naming no attached file, a container in a container."""
GAMES = ["tinybigwars", "tinybigwars-lite", "trenchwar", "skirmish"]


class _ConflictingMentions(discord.AllowedMentions):
    """`parse: ["users"]` together with an explicit users list: Discord refuses the pair."""

    def to_dict(self) -> Any:
        data = dict(super().to_dict())
        data["parse"] = [*data.get("parse", []), "users"]
        return data


def _conflicting_mentions() -> discord.AllowedMentions:
    return _ConflictingMentions(users=[discord.Object(1)])


async def _bad(interaction: discord.Interaction, kind: str) -> None:
    send = interaction.response.send_message
    if kind == "rows":
        await send("rows", view=RawView([{"type": 1, "components": [_button(f"r{i}")]} for i in range(6)]))
    elif kind == "row_width":
        await send("wide", view=RawView([{"type": 1, "components": [_button(f"b{i}") for i in range(6)]}]))
    elif kind == "custom_id":
        await send("long id", view=RawView([{"type": 1, "components": [_button("x" * 101)]}]))
    elif kind == "content":
        await send("x" * 2001)
    elif kind == "options":
        opts = [{"label": f"o{i}", "value": f"o{i}"} for i in range(26)]
        await send("many", view=RawView([{"type": 1, "components": [
            {"type": 3, "custom_id": "many", "options": opts}]}]))
    elif kind == "modal_inputs":
        await interaction.response.send_modal(RawModal(6))
    elif kind == "min_max":
        opts = [{"label": f"o{i}", "value": f"o{i}"} for i in range(4)]
        await send("min over max", view=RawView([{"type": 1, "components": [
            {"type": 3, "custom_id": "mm", "options": opts, "min_values": 3, "max_values": 2}]}]))
    elif kind == "empty_option":
        await send("empty", view=RawView([{"type": 1, "components": [
            {"type": 3, "custom_id": "eo", "options": [{"label": "", "value": "a"}]}]}]))
    elif kind == "mentions":
        await send("<@1>", allowed_mentions=_conflicting_mentions())
    elif kind == "select_row":
        opts = [{"label": "a", "value": "a"}]
        await send("select beside a button", view=RawView([{"type": 1, "components": [
            {"type": 3, "custom_id": "sr", "options": opts}, _button("beside")]}]))
    elif kind == "v2_content":
        await send("legacy text", view=StatusBoard(), file=discord.File(io.BytesIO(render_board(1)), "map.png"))
    elif kind in V2_BAD:
        await send(view=RawLayout(V2_BAD[kind]), file=discord.File(io.BytesIO(render_board(1)), "map.png"))
    elif kind == "bigfile":
        big = discord.File(io.BytesIO(b"\0" * (interaction.filesize_limit + 1)), "big.bin")
        await send("big", file=big)


class DemoMixin:
    """Commands and state shared by the plain and the auto-sharded demo bot."""

    tree: app_commands.CommandTree

    def _setup_demo(self, guild_ids: Iterable[int]) -> None:
        self.guild_ids = list(guild_ids)
        self.orders: dict[int, tuple[str, str]] = {}
        self.dm_errors: list[int] = []
        self.errors: list[int] = []
        self.seen_shards: list[tuple[int | None, int | None]] = []
        self.sleepy_delay = 0.3
        self.followup_delay = 0.3
        self.board_messages: list[discord.Message] = []
        self.threads: list[discord.Thread] = []
        tree = self.tree
        bot = self

        @tree.command(name="ping", description="Alive?")
        async def ping(interaction: discord.Interaction) -> None:
            guild = interaction.guild
            bot.seen_shards.append((guild.id if guild else None, guild.shard_id if guild else None))
            await interaction.response.send_message("pong")

        @tree.command(name="board", description="Show the board")
        async def board(interaction: discord.Interaction, size: app_commands.Range[int, 1, 8] = 3) -> None:
            await interaction.response.send_message(
                f"Board {size}x{size}", file=discord.File(io.BytesIO(render_board(size)), "board.png"),
                view=BoardView())

        game = app_commands.Group(name="game", description="Games")
        admin = app_commands.Group(name="admin", description="Admin", parent=game)

        async def game_names(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
            return [app_commands.Choice(name=g, value=g) for g in GAMES if g.startswith(current)]

        @game.command(name="new", description="Open a game")
        @app_commands.autocomplete(game=game_names)
        async def game_new(interaction: discord.Interaction, game: str,
                           seats: app_commands.Range[int, 2, 6] = 2) -> None:
            await interaction.response.send_message(f"New {game} game for {seats} seats")

        @admin.command(name="reset", description="Reset (Manage Server)")
        async def admin_reset(interaction: discord.Interaction, target: discord.Member | None = None) -> None:
            if not interaction.permissions.manage_guild:
                await interaction.response.send_message("You need Manage Server", ephemeral=True)
                return
            who = f" for {target.name}" if target else ""
            await interaction.response.send_message(f"Reset done{who}")

        tree.add_command(game)

        @tree.command(name="slow", description="Deferred, then edited in place")
        async def slow(interaction: discord.Interaction) -> None:
            await interaction.response.defer(thinking=True)
            await asyncio.sleep(0.05)
            await interaction.edit_original_response(
                content="done", attachments=[discord.File(io.BytesIO(render_board(2)), "slow.png")])

        @tree.command(name="followup", description="Reply, then an ephemeral follow-up that is edited")
        async def followup(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("first")
            msg = await interaction.followup.send("second", ephemeral=True, wait=True)
            await msg.edit(content="second (edited)")
            original = await interaction.original_response()
            await original.edit(content="first (edited)")

        @tree.command(name="sleepy", description="Acknowledges too late")
        async def sleepy(interaction: discord.Interaction) -> None:
            await asyncio.sleep(bot.sleepy_delay)
            try:
                await interaction.response.send_message("late")
            except discord.HTTPException as err:
                bot.errors.append(err.code)

        @tree.command(name="latefollowup", description="Follows up after the token expired")
        async def latefollowup(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("working")
            await asyncio.sleep(bot.followup_delay)
            try:
                await interaction.followup.send("too late")
            except discord.HTTPException as err:
                bot.errors.append(err.code)

        @tree.command(name="twice", description="Acknowledges twice")
        async def twice(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("once")
            route = discord.http.Route("POST", "/interactions/{iid}/{token}/callback", iid=interaction.id,
                                       token=interaction.token)
            try:
                await interaction.client.http.request(route, json={"type": 4, "data": {"content": "twice"}})
            except discord.HTTPException as err:
                bot.errors.append(err.code)

        @tree.command(name="bad", description="Breaks a Discord limit on purpose")
        @app_commands.choices(kind=[app_commands.Choice(name=k, value=k) for k in BAD_KINDS])
        async def bad(interaction: discord.Interaction, kind: str) -> None:
            try:
                await _bad(interaction, kind)
            except discord.HTTPException as err:
                bot.errors.append(err.code)

        @tree.command(name="target", description="Pick targets")
        async def target(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("Pick up to two targets", view=TargetView())

        @tree.command(name="vanish", description="Replies, then deletes the reply")
        async def vanish(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("poof")
            await interaction.delete_original_response()

        @tree.command(name="enlist", description="Opens a label-based modal")
        async def enlist(interaction: discord.Interaction) -> None:
            await interaction.response.send_modal(EnlistModal())

        @tree.command(name="counter", description="A counter edited in place")
        async def counter(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("Count: 0", view=CounterView())

        @tree.command(name="dm", description="Send me my secret orders")
        async def dm(interaction: discord.Interaction) -> None:
            try:
                await interaction.user.send("Secret orders", view=SecretView())
            except discord.Forbidden as err:
                bot.dm_errors.append(err.code)
                await interaction.response.send_message("I can't DM you: open your DMs", ephemeral=True)
                return
            await interaction.response.send_message("Check your DMs", ephemeral=True)

        @tree.command(name="announce", description="Post, edit and type in the channel")
        async def announce(interaction: discord.Interaction) -> None:
            await interaction.response.defer(ephemeral=True, thinking=True)
            channel = interaction.channel
            assert isinstance(channel, discord.TextChannel)
            await channel.typing()
            msg = await channel.send("Announcement", file=discord.File(io.BytesIO(render_board(1)), "a.png"),
                                     view=BoardView())
            bot.board_messages.append(msg)
            await msg.edit(content="Announcement (edited)")
            fetched = await channel.fetch_message(msg.id)
            await interaction.edit_original_response(content=f"posted {fetched.content}")

        @tree.command(name="thread", description="Open a thread here and post in it")
        async def thread(interaction: discord.Interaction, name: str, from_message: bool = False,
                         private: bool = False) -> None:
            await interaction.response.send_message(f"Opening {name}")
            channel = interaction.channel
            assert isinstance(channel, discord.TextChannel)
            try:
                if from_message:
                    opened = await (await interaction.original_response()).create_thread(name=name)
                else:
                    kind = discord.ChannelType.private_thread if private else discord.ChannelType.public_thread
                    opened = await channel.create_thread(name=name, type=kind, auto_archive_duration=60)
                bot.threads.append(opened)
                await opened.send(f"Welcome to {name}")
            except discord.HTTPException as err:
                bot.errors.append(err.code)

        @tree.command(name="statusboard", description="Post a V2 status board here and pin it")
        async def statusboard(interaction: discord.Interaction, pin: bool = True) -> None:
            await interaction.response.defer(ephemeral=True, thinking=True)
            channel = interaction.channel
            assert isinstance(channel, (discord.TextChannel, discord.Thread))
            msg = await channel.send(view=StatusBoard(), file=discord.File(io.BytesIO(render_board(2)), "map.png"))
            bot.board_messages.append(msg)
            note = "posted"
            if pin:
                try:
                    await msg.pin()
                    note = "posted and pinned"
                except discord.HTTPException as err:
                    bot.errors.append(err.code)
                    note = f"posted, not pinned ({err.code})"
            await interaction.edit_original_response(content=note)

    async def _sync_demo(self) -> None:
        self.add_view(BoardView())  # type: ignore[attr-defined]
        self.add_view(SecretView())  # type: ignore[attr-defined]
        await self.tree.sync()
        for gid in self.guild_ids:
            guild = discord.Object(gid)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)


class DemoBot(DemoMixin, commands.Bot):
    def __init__(self, guild_ids: Iterable[int], intents: discord.Intents | None = None, **options: object) -> None:
        super().__init__(command_prefix=commands.when_mentioned, intents=intents or discord.Intents.default(),
                         **options)
        self._setup_demo(guild_ids)

    async def setup_hook(self) -> None:
        await self._sync_demo()


class ShardedDemoBot(DemoMixin, commands.AutoShardedBot):
    def __init__(self, guild_ids: Iterable[int], **options: object) -> None:
        super().__init__(command_prefix=commands.when_mentioned, intents=discord.Intents.default(), **options)
        self._setup_demo(guild_ids)

    async def setup_hook(self) -> None:
        await self._sync_demo()


def main() -> None:
    """Run the demo bot against the URLs in DISCORD_API_BASE / DISCORD_GATEWAY_URL."""
    from .server import patch_discord

    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sharded", action="store_true")
    parser.add_argument("--guilds", default=os.environ.get("DEMO_GUILD_IDS", ""))
    args = parser.parse_args()
    patch_discord(os.environ["DISCORD_API_BASE"], os.environ["DISCORD_GATEWAY_URL"])
    guild_ids = [int(g) for g in args.guilds.split(",") if g]
    cls = ShardedDemoBot if args.sharded else DemoBot
    bot = cls(guild_ids, guild_ready_timeout=0.05)

    async def no_wait(shard_id: int | None, *, initial: bool = False) -> None:
        return None

    bot.before_identify_hook = no_wait  # type: ignore[method-assign]
    bot.run(os.environ.get("DISCORD_TOKEN", "fake-token"), log_handler=None)


if __name__ == "__main__":
    main()
