"""Virtual players: tests act like people at the table (slash a command, click a labelled button,
pick from a select, fill a modal) and read only what that person can see.

Impossible actions (a disabled button, a button not on the message, an unknown option, a modal
that was never opened) raise PlayerError in the test instead of sending a request, because a
real Discord client would not let the player do them either.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .limits import SELECT_TYPES, modal_inputs_of
from .models import Channel, Guild, Message, Role, Thread, User, snowflake

if TYPE_CHECKING:
    from .server import FakeDiscord, Interaction

SETTLE_TIMEOUT = 60.0
"""How long a virtual player waits for something the bot should do. Waits end as soon as it
happens, so this only bounds a failure; it is generous so a busy machine does not fail a test
(Discord itself lets a bot answer an acknowledged interaction for 15 minutes)."""


def modal_text_inputs(modal: dict[str, Any]) -> list[dict[str, Any]]:
    """The text inputs of a modal in order, each with the label the player sees (a Label
    component carries it outside the input; a legacy action row inside)."""
    out = []
    for top in modal.get("components") or []:
        for inp in modal_inputs_of(top):
            if inp.get("type") == 4:
                out.append({**inp, "label": inp.get("label") or top.get("label") or ""})
    return out


class PlayerError(AssertionError):
    """The test asked a player to do something a Discord client would not allow."""


class Response:
    """What one interaction produced, as the acting player sees it: the original response
    (possibly ephemeral, possibly edited in place later), follow-ups, a modal or autocomplete choices."""

    def __init__(self, fake: FakeDiscord, rec: Interaction) -> None:
        self.fake = fake
        self.interaction = rec

    @property
    def type(self) -> int | None:
        """The callback type the bot answered with (4, 5, 6, 7, 8, 9), None if it never did."""
        return self.interaction.ack_type

    @property
    def error(self) -> dict | None:
        """Discord's error for the bot's failed acknowledgement (e.g. code 10062 when late)."""
        return self.interaction.error

    @property
    def ok(self) -> bool:
        return self.interaction.ack_type is not None and self.interaction.error is None

    @property
    def shard_id(self) -> int | None:
        return self.interaction.shard_id

    @property
    def message(self) -> Message | None:
        """The original response message (for type 6/7: the message the component is on)."""
        msg = self.interaction.original
        return None if msg is None or msg.deleted else msg

    @property
    def followups(self) -> list[Message]:
        return [m for m in self.interaction.followups if not m.deleted]

    @property
    def messages(self) -> list[Message]:
        """Original response plus follow-ups, all visible to the acting player."""
        return ([self.message] if self.message else []) + self.followups

    @property
    def content(self) -> str:
        return self.message.content if self.message else ""

    @property
    def ephemeral(self) -> bool:
        return bool(self.message and self.message.ephemeral)

    @property
    def modal(self) -> dict | None:
        return self.interaction.modal

    @property
    def choices(self) -> list[dict] | None:
        return self.interaction.choices

    def sees(self, text: str) -> bool:
        return any(m.sees(text) for m in self.messages)

    async def wait_followup(self, count: int = 1, timeout: float = SETTLE_TIMEOUT) -> Message:
        """Wait until `count` follow-ups exist; returns the newest."""
        await self.fake.wait_until(lambda: len(self.followups) >= count, timeout)
        return self.followups[-1]

    async def settle(self, timeout: float = SETTLE_TIMEOUT) -> Response:
        """After a "thinking" defer (type 5), wait until the bot replaced the loading message."""
        if self.type == 5:
            try:
                await self.fake.wait_until(lambda: self.message is None or not self.message.loading, timeout)
            except TimeoutError:
                raise PlayerError(f"deferred response still 'thinking' after {timeout} s") from None
        return self

    def __repr__(self) -> str:
        return f"<Response type={self.type} error={self.error} messages={self.messages}>"


def _convert(spec: dict, value: Any, resolved: dict[str, dict], guild: Guild | None) -> Any:
    """A Python value as Discord sends it for an option of `spec["type"]`."""
    otype, name = spec["type"], spec["name"]
    if otype == 3:
        if not isinstance(value, str):
            raise PlayerError(f"option {name!r} takes a string, got {value!r}")
        if not spec.get("min_length", 0) <= len(value) <= spec.get("max_length", 6000):
            raise PlayerError(f"option {name!r}: length {len(value)} outside the allowed range")
        return value
    if otype == 4:
        if isinstance(value, bool) or not isinstance(value, int):
            raise PlayerError(f"option {name!r} takes an integer, got {value!r}")
    elif otype == 10:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise PlayerError(f"option {name!r} takes a number, got {value!r}")
    elif otype == 5:
        if not isinstance(value, bool):
            raise PlayerError(f"option {name!r} takes a boolean, got {value!r}")
        return value
    elif otype in (6, 9) and isinstance(value, (Player, User)):
        user = value.user if isinstance(value, Player) else value
        resolved.setdefault("users", {})[str(user.id)] = user.payload()
        if guild is not None and user.id in guild.members:
            member = guild.member_payload(guild.members[user.id], with_user=False)
            resolved.setdefault("members", {})[str(user.id)] = {**member,
                                                                "permissions": str(guild.permissions_of(user))}
        return str(user.id)
    elif otype == 7 and isinstance(value, Channel):
        resolved.setdefault("channels", {})[str(value.id)] = {**value.payload(), "permissions": "0"}
        return str(value.id)
    elif otype in (8, 9) and isinstance(value, Role):
        resolved.setdefault("roles", {})[str(value.id)] = value.payload()
        return str(value.id)
    else:
        raise PlayerError(f"option {name!r} (type {otype}) cannot take {value!r}")
    lo, hi = spec.get("min_value"), spec.get("max_value")
    if (lo is not None and value < lo) or (hi is not None and value > hi):
        raise PlayerError(f"option {name!r}: {value} outside [{lo}, {hi}]")
    return value


class Place:
    """A player at one channel (a guild channel or their DM with the bot)."""

    def __init__(self, player: Player, channel: Callable[[], Channel]) -> None:
        self.player = player
        self.fake = player.fake
        self._channel = channel

    @property
    def channel(self) -> Channel:
        return self._channel()

    @property
    def user(self) -> User:
        return self.player.user

    # ---------------------------------------------------------------- reading
    @property
    def messages(self) -> list[Message]:
        """The messages in this channel that this player can see, oldest first."""
        return [m for m in self.fake.channel_messages(self.channel) if m.visible_to(self.user)]

    @property
    def last(self) -> Message | None:
        msgs = self.messages
        return msgs[-1] if msgs else None

    def sees(self, text: str) -> bool:
        """Whether any message this player can see here contains `text` (content or embeds)."""
        return any(m.sees(text) for m in self.messages)

    async def wait_for(self, predicate: Callable[[Message], Any] | str, timeout: float = SETTLE_TIMEOUT, *,
                       after: Message | None = None) -> Message:
        """The newest visible message here matching `predicate` (or containing the text), waiting for
        it; `after` restricts the search to messages created after that one."""
        check = (lambda m: m.sees(predicate)) if isinstance(predicate, str) else predicate
        floor = after.id if after is not None else 0

        def find() -> Message | None:
            return next((m for m in reversed(self.messages) if m.id > floor and check(m)), None)

        try:
            return await self.fake.wait_until(find, timeout)
        except TimeoutError:
            raise PlayerError(f"{self.user.name} saw no matching message in {self.channel.name} "
                              f"within {timeout} s; visible: {self.messages}") from None

    @property
    def threads(self) -> list[Thread]:
        """The threads started in this channel that this player can see, archived ones included, oldest first."""
        guild = self.channel.guild
        if guild is None:
            return []
        return [t for t in guild.threads if t.parent is self.channel and t.viewable_by(self.user)]

    async def wait_for_thread(self, name: str | Callable[[Thread], Any] | None = None,
                              timeout: float = SETTLE_TIMEOUT) -> Place:
        """This player at the newest thread of this channel they can see whose name is `name`
        (or matching the predicate; None: any), waiting for the bot to open it."""
        check = (lambda t: True) if name is None else (lambda t: t.name == name) if isinstance(name, str) else name

        def find() -> Thread | None:
            return next((t for t in reversed(self.threads) if check(t)), None)

        try:
            found = await self.fake.wait_until(find, timeout)
        except TimeoutError:
            raise PlayerError(f"{self.user.name} saw no matching thread in {self.channel.name} within {timeout} s; "
                              f"visible: {[t.name for t in self.threads]}") from None
        return self.player.at(found)

    # ---------------------------------------------------------------- acting
    async def _run(self, rec: Interaction, settle: bool) -> Response:
        await self.fake.send_interaction(rec)
        resp = Response(self.fake, rec)
        return await resp.settle() if settle else resp

    def _command(self, command: str) -> tuple[dict, list[str], list[dict]]:
        path = command.split()
        cmd = self.fake.find_command(path[0], self.channel.guild)
        if cmd is None:
            where = "DMs" if self.channel.guild is None else self.channel.guild.name
            raise PlayerError(f"no slash command /{path[0]} is available in {where}")
        specs = cmd.get("options") or []
        for token in path[1:]:
            sub = next((o for o in specs if o["name"] == token and o["type"] in (1, 2)), None)
            if sub is None:
                raise PlayerError(f"/{command}: no subcommand {token!r}")
            specs = sub.get("options") or []
        if any(o["type"] in (1, 2) for o in specs):
            raise PlayerError(f"/{command} needs a subcommand: {[o['name'] for o in specs]}")
        return cmd, path, specs

    def _build_options(self, command: str, specs: list[dict], options: dict[str, Any],
                       resolved: dict[str, dict], focused: str | None = None) -> list[dict]:
        by_name = {o["name"]: o for o in specs}
        out: list[dict] = []
        for key, value in options.items():
            spec = by_name.get(key) or by_name.get(key.replace("_", "-"))
            if spec is None:
                raise PlayerError(f"/{command} has no option {key!r}; options: {list(by_name)}")
            if spec["name"] == focused:
                out.append({"name": spec["name"], "type": spec["type"], "value": str(value), "focused": True})
                continue
            converted = _convert(spec, value, resolved, self.channel.guild)
            choices = spec.get("choices")
            if choices and converted not in [c["value"] for c in choices]:
                raise PlayerError(f"/{command} {spec['name']}: {value!r} is not one of "
                                  f"{[c['value'] for c in choices]}")
            out.append({"name": spec["name"], "type": spec["type"], "value": converted})
        given = {o["name"] for o in out}
        missing = [o["name"] for o in specs if o.get("required") and o["name"] not in given]
        if missing and focused is None:
            raise PlayerError(f"/{command}: missing required option(s) {missing}")
        return out

    def _command_data(self, cmd: dict, path: list[str], leaf: list[dict], resolved: dict) -> dict:
        nested = leaf
        for depth in range(len(path) - 1, 0, -1):
            nested = [{"name": path[depth], "type": 1 if depth == len(path) - 1 else 2, "options": nested}]
        data: dict[str, Any] = {"id": cmd["id"], "name": cmd["name"], "type": 1, "options": nested}
        if "guild_id" in cmd:
            data["guild_id"] = cmd["guild_id"]
        if resolved:
            data["resolved"] = resolved
        return data

    async def slash(self, command: str, *, settle: bool = True, **options: Any) -> Response:
        """Run `/command` ("game new" for subcommands) with typed options, checked against the synced
        command like Discord's client does. Waits for a deferred response unless settle=False."""
        cmd, path, specs = self._command(command)
        resolved: dict[str, dict] = {}
        leaf = self._build_options(command, specs, options, resolved)
        rec = self.fake.new_interaction(2, self.user, self.channel, self._command_data(cmd, path, leaf, resolved))
        return await self._run(rec, settle)

    async def autocomplete(self, command: str, option: str, typed: str = "", **options: Any) -> list[dict]:
        """Type `typed` into an autocomplete option; returns the bot's choices ({"name","value"})."""
        cmd, path, specs = self._command(command)
        spec = next((o for o in specs if o["name"] == option), None)
        if spec is None or not spec.get("autocomplete"):
            raise PlayerError(f"/{command} option {option!r} has no autocomplete")
        resolved: dict[str, dict] = {}
        leaf = self._build_options(command, specs, {**options, option: typed}, resolved, focused=option)
        rec = self.fake.new_interaction(4, self.user, self.channel, self._command_data(cmd, path, leaf, resolved))
        await self.fake.send_interaction(rec)
        if rec.ack_type != 8:
            raise PlayerError(f"autocomplete for /{command} {option} got no choices (error {rec.error})")
        return list(rec.choices or [])

    def _target(self, message: Message | None, has: Callable[[Message], bool], what: str) -> Message:
        if message is not None:
            if not message.visible_to(self.user):
                raise PlayerError(f"{self.user.name} cannot see {message!r}")
            if not has(message):
                raise PlayerError(f"{what} is not on {message!r}")
            return message
        found = next((m for m in reversed(self.messages) if has(m)), None)
        if found is None:
            raise PlayerError(f"{self.user.name} sees no message with {what} in {self.channel.name}; "
                              f"visible: {self.messages}")
        return found

    async def click(self, label: str | None = None, *, message: Message | None = None,
                    custom_id: str | None = None, settle: bool = True) -> Response:
        """Click the button labelled `label` (or with `custom_id`) on `message`, or on the newest
        visible message here that has one."""
        if label is None and custom_id is None:
            raise PlayerError("click() needs a label or a custom_id")

        def match(m: Message) -> bool:
            return any((label is None or b.label == label) and (custom_id is None or b.custom_id == custom_id)
                       for b in m.buttons)

        what = f"a button {label or custom_id!r}"
        msg = self._target(message, match, what)
        button = next(b for b in msg.buttons if (label is None or b.label == label)
                      and (custom_id is None or b.custom_id == custom_id))
        if button.disabled:
            raise PlayerError(f"{what} on {msg!r} is disabled")
        if button.style == 5 or not button.custom_id:
            raise PlayerError(f"{what} is a link button; clicking it opens {button.url}, not an interaction")
        rec = self.fake.new_interaction(3, self.user, msg.channel,
                                        {"custom_id": button.custom_id, "component_type": 2}, message=msg)
        return await self._run(rec, settle)

    async def select(self, name: str | None, values: list[Any], *, message: Message | None = None,
                     settle: bool = True) -> Response:
        """Pick `values` (option values or labels; players/users for user selects) in the select whose
        placeholder or custom_id is `name` (None: the only select on the message)."""

        def match(m: Message) -> bool:
            sel = m.selects
            return any(name in (s.placeholder, s.custom_id) for s in sel) if name else len(sel) == 1

        what = f"a select {name!r}" if name else "a select"
        msg = self._target(message, match, what)
        sel = next(s for s in msg.selects if name is None or name in (s.placeholder, s.custom_id))
        if sel.disabled:
            raise PlayerError(f"{what} on {msg!r} is disabled")
        if not sel.min_values <= len(values) <= sel.max_values:
            raise PlayerError(f"{what} takes {sel.min_values}-{sel.max_values} values, got {len(values)}")
        data: dict[str, Any] = {"custom_id": sel.custom_id, "component_type": sel.type}
        if sel.type == 3:
            by_label = {o["label"]: o["value"] for o in sel.options}
            known = {o["value"] for o in sel.options}
            picked = []
            for v in values:
                if v in known:
                    picked.append(v)
                elif v in by_label:
                    picked.append(by_label[v])
                else:
                    raise PlayerError(f"{what} has no option {v!r}; options: {sorted(known)}")
            data["values"] = picked
        else:
            resolved: dict[str, dict] = {}
            spec = {"type": {5: 6, 6: 8, 7: 9, 8: 7}[sel.type], "name": sel.custom_id}
            data["values"] = [_convert(spec, v, resolved, msg.channel.guild) for v in values]
            data["resolved"] = resolved
        rec = self.fake.new_interaction(3, self.user, msg.channel, data, message=msg)
        return await self._run(rec, settle)

    async def submit_modal(self, values: dict[str, Any], *, custom_id: str | None = None,
                           settle: bool = True) -> Response:
        """Fill and submit the modal the bot last opened for this player, mirroring its layout
        (action rows or labels) the way Discord's client does."""
        entry = self.fake.modals.get(self.user.id)
        if entry is None:
            raise PlayerError(f"the bot has not opened a modal for {self.user.name}")
        modal, origin = entry
        if custom_id is not None and modal.get("custom_id") != custom_id:
            raise PlayerError(f"open modal is {modal.get('custom_id')!r}, not {custom_id!r}")
        remaining = dict(values)
        components: list[dict] = []
        for top in modal.get("components") or []:
            filled_inputs = []
            for inp in modal_inputs_of(top):
                cid = inp.get("custom_id")
                if inp.get("type") == 4:
                    value = str(remaining.pop(cid, "") if cid in remaining else "")
                    if not value and inp.get("required", True):
                        raise PlayerError(f"modal input {cid!r} is required")
                    if value and not inp.get("min_length", 0) <= len(value) <= inp.get("max_length", 4000):
                        raise PlayerError(f"modal input {cid!r}: length {len(value)} outside the allowed range")
                    filled_inputs.append({"type": 4, "custom_id": cid, "value": value})
                elif inp.get("type") in SELECT_TYPES:
                    picked = remaining.pop(cid, [])
                    filled_inputs.append({"type": inp["type"], "custom_id": cid,
                                          "values": list(picked) if isinstance(picked, list) else [picked]})
            for filled in filled_inputs:
                components.append({"type": 1, "components": [filled]} if top.get("type") == 1
                                  else {"type": 18, "component": filled})
        if remaining:
            raise PlayerError(f"modal {modal.get('custom_id')!r} has no input(s) {sorted(remaining)}")
        del self.fake.modals[self.user.id]
        rec = self.fake.new_interaction(5, self.user, origin.channel,
                                        {"custom_id": modal["custom_id"], "components": components},
                                        message=origin.message)
        return await self._run(rec, settle)


    def say(self, text: str) -> Message:
        """Post a chat message here as this player (the bot gets it as MESSAGE_CREATE if it asked
        for the intent; a channel the player cannot see refuses them)."""
        if not self.channel.viewable_by(self.user):
            raise PlayerError(f"{self.user.name} cannot see #{self.channel.name}")
        msg = Message(snowflake(), self.channel, self.user, content=text)
        msg.snapshot()
        self.fake.messages[msg.id] = msg
        self.channel.log.append(msg)
        self.fake.message_events.created(msg)
        return msg


class Player(Place):
    """A virtual player. Acts in their current guild channel by default; `.dm` is their DM with the bot."""

    def __init__(self, fake: FakeDiscord, user: User) -> None:
        self.user_obj = user
        self.fake = fake
        self._current: Channel | None = None
        super().__init__(self, lambda: self._current or fake.channel)

    @property
    def user(self) -> User:
        return self.user_obj

    @property
    def id(self) -> int:
        return self.user_obj.id

    @property
    def name(self) -> str:
        return self.user_obj.name

    @property
    def mention(self) -> str:
        return f"<@{self.user_obj.id}>"

    @property
    def dms_closed(self) -> bool:
        return self.user_obj.dms_closed

    @dms_closed.setter
    def dms_closed(self, value: bool) -> None:
        self.user_obj.dms_closed = value

    @property
    def dm(self) -> Place:
        """This player's DM channel with the bot (DM interactions go to shard 0, as on Discord)."""
        return Place(self, lambda: self.fake.dm_channel(self.user_obj))

    def at(self, where: Channel | Guild) -> Place:
        """This player acting in another channel (or a guild's first channel)."""
        channel = where.channel if isinstance(where, Guild) else where
        return Place(self, lambda: channel)

    def go(self, where: Channel | Guild) -> None:
        """Move this player's default channel."""
        self._current = where.channel if isinstance(where, Guild) else where

    @property
    def seen(self) -> list[Message]:
        """Every message this player can see anywhere (guild channels, DM, their ephemerals)."""
        return self.fake.visible_messages(self.user_obj)

    def ever_saw(self, text: str) -> bool:
        """Whether `text` was in any version of any message this player could ever see
        (edited-away and deleted messages included): the basis of leak checks."""
        return any(text in t for m in self.fake.seen_by(self.user_obj) for t in m.texts)

    def __repr__(self) -> str:
        return f"<Player {self.name}>"
