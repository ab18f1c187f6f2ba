"""Simulated human users: slash commands, button clicks, selects, modals, chat and reading.

Interactions are built the way Discord builds them: slash commands from the *registered*
command definitions (so a test cannot invoke an option the bot never declared), component
interactions from the components actually present on the message (a disabled button or a value
that is not among a select's options cannot be used), each with the ``message``, ``channel``,
``guild_id``/``member`` or ``user`` fields discord.py needs to route it to the right view.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from . import state as st

if TYPE_CHECKING:
    from .server import FakeDiscord

JSON = dict[str, Any]

# Application command option types.
OPT_SUBCOMMAND = 1
OPT_GROUP = 2
OPT_STRING = 3
OPT_INTEGER = 4
OPT_BOOLEAN = 5
OPT_USER = 6
OPT_CHANNEL = 7
OPT_ROLE = 8
OPT_MENTIONABLE = 9
OPT_NUMBER = 10
OPT_ATTACHMENT = 11


class InteractionHandle:
    """A dispatched interaction; await its acknowledgement or its visible response."""

    def __init__(self, fake: FakeDiscord, record: st.InteractionRecord) -> None:
        self._fake = fake
        self.record = record

    def __repr__(self) -> str:
        return f"<InteractionHandle {self.record.describe()} response={self.record.response_type}>"

    @property
    def id(self) -> int:
        return self.record.id

    @property
    def response_type(self) -> int | None:
        """The first callback type (4 message, 5 defer, 6 deferred update, 7 update, 9 modal)."""
        return self.record.response_type

    @property
    def latency(self) -> float | None:
        return self.record.latency

    @property
    def original(self) -> st.Message | None:
        return self._fake.world.messages.get(self.record.original_message_id or 0)

    @property
    def ephemeral(self) -> bool:
        """Whether the response (original message or, for deferred updates, first followup) is ephemeral."""
        message = self.original
        if self.record.response_type == 6 and self.followups:
            message = self.followups[0]
        return bool(message is not None and message.ephemeral)

    @property
    def followups(self) -> list[st.Message]:
        return [self._fake.world.messages[i] for i in self.record.followup_ids]

    @property
    def modal(self) -> JSON | None:
        """The modal the bot opened in response (callback type 9), if any."""
        return self.record.modal

    async def ack(self, timeout: float | None = None) -> int:
        """Waits for the first callback and returns its type."""
        await self._fake.wait_for(
            lambda: self.record.response_type is not None,
            timeout,
            description=f"an acknowledgement of {self.record.describe()}",
        )
        assert self.record.response_type is not None
        return self.record.response_type

    async def reply(self, timeout: float | None = None) -> st.Message:
        """The visible response: the message (4), the filled-in deferred message (5), the updated
        component message (7) or, after a deferred update (6), the edited message or first followup.
        """
        kind = await self.ack(timeout)
        if kind in (8, 9):
            raise RuntimeError(f"{self.record.describe()} was answered with callback type {kind}, not a message")
        if kind == 5:
            await self._fake.wait_for(
                lambda: self.original is not None and not self.original.loading,
                timeout,
                description=f"the deferred response of {self.record.describe()}",
            )
        elif kind == 6:

            def updated() -> st.Message | None:
                if self.followups:
                    return self.followups[0]
                source = self.original
                if source is not None and len(source.edits) > self.record.source_edits_before:
                    return source
                return None

            return await self._fake.wait_for(
                updated, timeout, description=f"an edit or followup after {self.record.describe()}"
            )
        message = self.original
        assert message is not None
        return message

    async def wait_followups(self, count: int = 1, timeout: float | None = None) -> list[st.Message]:
        await self._fake.wait_for(
            lambda: len(self.record.followup_ids) >= count,
            timeout,
            description=f"{count} followup(s) to {self.record.describe()}",
        )
        return self.followups


class FakeUser:
    """A guild member the test drives. Create with ``fake.add_user(name)``."""

    def __init__(self, fake: FakeDiscord, user: st.User, permissions: int) -> None:
        self._fake = fake
        self.user = user
        self.permissions = permissions

    def __repr__(self) -> str:
        return f"<FakeUser {self.name} id={self.id}>"

    @property
    def id(self) -> int:
        return self.user.id

    @property
    def name(self) -> str:
        return self.user.name

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"

    @property
    def dms_closed(self) -> bool:
        return self.user.dms_closed

    @dms_closed.setter
    def dms_closed(self, value: bool) -> None:
        self.user.dms_closed = value

    @property
    def locale(self) -> str:
        """Their Discord client's language (a Discord locale code: ``ko``, ``en-US``…), sent with each interaction."""
        return self.user.locale

    @locale.setter
    def locale(self, value: str) -> None:
        self.user.locale = value

    # -- reading ----------------------------------------------------------------------

    @property
    def dm_channel(self) -> st.Channel:
        """The DM channel with the bot (created on first access, as opening a DM is free)."""
        return self._fake.world.dm_channel_for(self.user)

    def dm_messages(self) -> list[st.Message]:
        """Messages in this user's DM with the bot, oldest first."""
        channel_id = self._fake.world.dm_channels.get(self.id)
        return [] if channel_id is None else list(self._fake.world.messages_in(channel_id))

    def ephemerals(self) -> list[st.Message]:
        """Ephemeral messages only this user can see, oldest first."""
        return self._fake.world.ephemerals_for(self.id)

    async def wait_for_dm(
        self, predicate: Callable[[st.Message], object] | None = None, timeout: float | None = None
    ) -> st.Message:
        return await self._fake.wait_for(
            lambda: _first(self.dm_messages(), predicate), timeout, description=f"a DM to {self.name}"
        )

    async def wait_for_ephemeral(
        self, predicate: Callable[[st.Message], object] | None = None, timeout: float | None = None
    ) -> st.Message:
        return await self._fake.wait_for(
            lambda: _first(self.ephemerals(), predicate), timeout, description=f"an ephemeral for {self.name}"
        )

    # -- acting -------------------------------------------------------------------------

    async def say(self, channel: st.Channel, content: str) -> st.Message:
        """Posts a plain chat message (dispatched as MESSAGE_CREATE)."""
        return self._fake._new_message(channel, self.user, {"content": content})

    async def slash(self, where: st.Channel | None, command: str, /, **options: Any) -> InteractionHandle:
        """Runs ``/command`` (e.g. ``"wizard new"``) in a channel, or in the DM with the bot if None."""
        channel = self.dm_channel if where is None else where
        guild_id = channel.guild_id
        name = command.split()[0]
        await self._fake.wait_for(
            lambda: self._find_command(name, guild_id),
            description=f"command /{name} to be registered",
        )
        found = self._find_command(name, guild_id)
        assert found is not None
        self._check_can_use(found, channel)
        data = self._command_data(channel, command, options)
        record = self._fake._dispatch_interaction(self, channel, 2, data)
        return InteractionHandle(self._fake, record)

    async def autocomplete(self, where: st.Channel | None, command: str, focused: str, /, **options: Any) -> list[JSON]:
        """Types ``options[focused]`` into an autocomplete option; returns the bot's choices."""
        channel = self.dm_channel if where is None else where
        name = command.split()[0]
        await self._fake.wait_for(
            lambda: self._find_command(name, channel.guild_id),
            description=f"command /{name} to be registered",
        )
        options.setdefault(focused, "")
        data = self._command_data(channel, command, options, focused=focused)
        record = self._fake._dispatch_interaction(self, channel, 4, data)
        handle = InteractionHandle(self._fake, record)
        if await handle.ack() != 8:
            raise RuntimeError(f"autocomplete answered with callback type {handle.response_type}")
        return list(record.autocomplete_choices or [])

    async def click(
        self, message: st.Message, custom_id: str | None = None, label: str | None = None
    ) -> InteractionHandle:
        """Clicks a button found by ``custom_id`` or ``label`` on ``message`` (latest version)."""
        message = self._visible(message)
        buttons = [
            b
            for b in message.buttons()
            if (custom_id is None or b.get("custom_id") == custom_id) and (label is None or b.get("label") == label)
        ]
        if len(buttons) != 1:
            available = [(b.get("label"), b.get("custom_id")) for b in message.buttons()]
            raise LookupError(
                f"expected one button (custom_id={custom_id!r}, label={label!r}), found {len(buttons)}; "
                f"buttons on message: {available}"
            )
        button = buttons[0]
        if button.get("disabled"):
            raise PermissionError(f"button {button.get('label')!r} is disabled")
        if button.get("style") == 5 or not button.get("custom_id"):
            raise ValueError("link and premium buttons do not send interactions")
        data = {"custom_id": button["custom_id"], "component_type": 2}
        return self._component(message, data)

    async def select(
        self,
        message: st.Message,
        values: Iterable[str | int | FakeUser | st.Channel] | str | int,
        custom_id: str | None = None,
        placeholder: str | None = None,
    ) -> InteractionHandle:
        """Picks ``values`` in a select menu found by ``custom_id`` or ``placeholder``."""
        message = self._visible(message)
        selects = [
            s
            for s in message.selects()
            if (custom_id is None or s.get("custom_id") == custom_id)
            and (placeholder is None or s.get("placeholder") == placeholder)
        ]
        if len(selects) != 1:
            available = [(s.get("placeholder"), s.get("custom_id")) for s in message.selects()]
            raise LookupError(f"expected one select, found {len(selects)}; selects on message: {available}")
        menu = selects[0]
        if menu.get("disabled"):
            raise PermissionError(f"select {menu.get('custom_id')!r} is disabled")
        if isinstance(values, (str, int, FakeUser, st.Channel)):
            values = [values]  # a lone value, not an iterable of characters
        chosen = [_raw_id(v) for v in values]
        low, high = int(menu.get("min_values", 1)), int(menu.get("max_values", 1))
        if not low <= len(chosen) <= high:
            raise ValueError(f"select {menu['custom_id']!r} takes {low}..{high} values, got {len(chosen)}")
        data: JSON = {"custom_id": menu["custom_id"], "component_type": menu["type"], "values": chosen}
        if menu["type"] == 3:
            allowed = [o["value"] for o in menu.get("options") or []]
            unknown = [v for v in chosen if v not in allowed]
            if unknown:
                raise ValueError(f"values {unknown} are not options of {menu['custom_id']!r}: {allowed}")
        else:
            data["resolved"] = self._resolve(message.guild_id, chosen, menu["type"])
        return self._component(message, data)

    async def submit_modal(self, handle: InteractionHandle, values: dict[str, str]) -> InteractionHandle:
        """Submits the modal the bot opened on ``handle``, filling text inputs by custom_id."""
        modal = handle.modal
        if modal is None:
            raise RuntimeError(f"{handle.record.describe()} did not open a modal")

        def fill(component: JSON) -> JSON:
            if component.get("type") == 4:
                return {
                    "type": 4,
                    "id": component.get("id"),
                    "custom_id": component["custom_id"],
                    "value": values.get(component["custom_id"], component.get("value") or ""),
                }
            out: JSON = {"type": component.get("type"), "id": component.get("id")}
            if "component" in component:
                out["component"] = fill(component["component"])
            if "components" in component:
                out["components"] = [fill(c) for c in component["components"]]
            return out

        data = {"custom_id": modal["custom_id"], "components": [fill(c) for c in modal["components"]]}
        channel = self._fake.world.channels[handle.record.channel_id]
        source = self._fake.world.messages.get(handle.record.source_message_id or 0)
        record = self._fake._dispatch_interaction(self, channel, 5, data, message=source)
        return InteractionHandle(self._fake, record)

    # -- helpers --------------------------------------------------------------------------

    def _visible(self, message: st.Message) -> st.Message:
        current = self._fake.world.messages.get(message.id)
        if current is None or current.deleted:
            raise LookupError(f"message {message.id} no longer exists")
        if current.ephemeral_for is not None and current.ephemeral_for != self.id:
            raise PermissionError(f"{self.name} cannot see ephemeral message {message.id}")
        channel = self._fake.world.channels[current.channel_id]
        if channel.is_dm and channel.recipient is not None and channel.recipient.id != self.id:
            raise PermissionError(f"{self.name} cannot see another user's DM")
        return current

    def _component(self, message: st.Message, data: JSON) -> InteractionHandle:
        channel = self._fake.world.channels[message.channel_id]
        record = self._fake._dispatch_interaction(self, channel, 3, data, message=message)
        return InteractionHandle(self._fake, record)

    def _find_command(self, name: str, guild_id: int | None) -> st.Command | None:
        world = self._fake.world
        scopes = [guild_id, None] if guild_id is not None else [None]
        for scope in scopes:
            for command in world.commands_for(scope):
                if command.name == name and command.type == 1:
                    return command
        return None

    def _check_can_use(self, command: st.Command, channel: st.Channel) -> None:
        """Discord does not even offer a command the user may not run here; neither do we."""
        contexts = command.data.get("contexts")
        wanted = 1 if channel.is_dm else 0  # BOT_DM / GUILD
        if contexts is not None and wanted not in contexts:
            raise PermissionError(f"/{command.name} cannot be used in {'DMs' if channel.is_dm else 'guilds'}")
        if channel.is_dm:
            if command.data.get("dm_permission") is False:
                raise PermissionError(f"/{command.name} cannot be used in DMs")
            return
        required = command.data.get("default_member_permissions")
        if required is None or self.permissions & st.PERM_ADMINISTRATOR:
            return
        if self.permissions & int(required) != int(required) or int(required) == 0:
            raise PermissionError(f"{self.name} lacks the permissions ({required}) that /{command.name} requires")

    def _command_data(
        self, channel: st.Channel, command: str, options: dict[str, Any], *, focused: str | None = None
    ) -> JSON:
        parts = command.split()
        found = self._find_command(parts[0], channel.guild_id)
        assert found is not None
        data: JSON = {"id": str(found.id), "name": found.name, "type": 1, "options": []}
        if found.guild_id is not None:
            data["guild_id"] = str(found.guild_id)
        container: list[JSON] = data["options"]
        declared: list[JSON] = list(found.data.get("options") or [])
        for part in parts[1:]:
            sub = next((o for o in declared if o.get("name") == part and o.get("type") in (1, 2)), None)
            if sub is None:
                names = [o.get("name") for o in declared if o.get("type") in (1, 2)]
                raise LookupError(f"/{command}: no subcommand {part!r}; available: {names}")
            entry: JSON = {"name": part, "type": sub["type"], "options": []}
            container.append(entry)
            container = entry["options"]
            declared = list(sub.get("options") or [])
        if any(o.get("type") in (1, 2) for o in declared):
            names = [o.get("name") for o in declared]
            raise LookupError(f"/{command} is a group; pick one of {names}")
        by_name = {o["name"]: o for o in declared}
        unknown = set(options) - set(by_name)
        if unknown:
            raise LookupError(f"/{command} has no option(s) {sorted(unknown)}; declared: {sorted(by_name)}")
        missing = [n for n, o in by_name.items() if o.get("required") and n not in options]
        if missing and focused is None:
            raise ValueError(f"/{command} is missing required option(s) {missing}")
        resolved: JSON = {}
        for option_name, value in options.items():
            spec = by_name[option_name]
            if option_name == focused:
                # While typing, the focused value is raw text whatever the option's type.
                container.append({"name": option_name, "type": spec["type"], "value": str(value), "focused": True})
                continue
            container.append(
                {"name": option_name, "type": spec["type"], "value": self._option_value(spec, value, resolved, channel)}
            )
        if resolved:
            data["resolved"] = resolved
        return data

    def _option_value(self, spec: JSON, value: Any, resolved: JSON, channel: st.Channel) -> Any:
        kind = spec["type"]
        name = spec["name"]
        if kind == OPT_STRING:
            value = str(value)
        elif kind == OPT_INTEGER:
            if isinstance(value, bool) or not isinstance(value, int):
                raise TypeError(f"option {name!r} takes an integer, got {value!r}")
        elif kind == OPT_NUMBER:
            value = float(value)
        elif kind == OPT_BOOLEAN:
            if not isinstance(value, bool):
                raise TypeError(f"option {name!r} takes a bool, got {value!r}")
        elif kind in (OPT_USER, OPT_MENTIONABLE):
            value = _raw_id(value)
            self._merge(resolved, self._resolve(channel.guild_id, [value], 5))
        elif kind == OPT_CHANNEL:
            value = _raw_id(value)
            self._merge(resolved, self._resolve(channel.guild_id, [value], 8))
        elif kind == OPT_ATTACHMENT:
            # ``(filename, bytes)``: uploaded first, as a client does, then referenced by its id
            filename, data = value
            aid = str(self._fake.world.ids.next())
            self._fake.files[aid] = bytes(data)
            url = f"{self._fake.api_base}/attachments/{aid}/{filename}"
            meta = {"id": aid, "filename": filename, "size": len(data), "url": url, "proxy_url": url}
            self._merge(resolved, {"attachments": {aid: meta}})
            value = aid
        else:
            raise TypeError(f"option type {kind} of {name!r} is not supported by the fake")
        choices = spec.get("choices")
        if choices and value not in [c["value"] for c in choices]:
            raise ValueError(f"{value!r} is not a choice of option {name!r}: {[c['value'] for c in choices]}")
        for bound, check in (("min_value", lambda lo: value >= lo), ("max_value", lambda hi: value <= hi)):
            if spec.get(bound) is not None and not check(spec[bound]):
                raise ValueError(f"option {name!r}={value!r} violates {bound}={spec[bound]}")
        for bound, check in (("min_length", lambda lo: len(value) >= lo), ("max_length", lambda hi: len(value) <= hi)):
            if kind == OPT_STRING and spec.get(bound) is not None and not check(spec[bound]):
                raise ValueError(f"option {name!r} violates {bound}={spec[bound]}")
        return value

    @staticmethod
    def _merge(into: JSON, extra: JSON) -> None:
        for key, values in extra.items():
            into.setdefault(key, {}).update(values)

    def _resolve(self, guild_id: int | None, ids: list[str], component_type: int) -> JSON:
        """The ``resolved`` block for user (5) or channel (8) values."""
        world = self._fake.world
        resolved: JSON = {}
        for raw in ids:
            if component_type == 8:
                target = world.channels.get(int(raw))
                if target is None:
                    raise LookupError(f"unknown channel {raw}")
                data = target.payload(world)
                data["permissions"] = str(self.permissions)
                resolved.setdefault("channels", {})[raw] = data
                continue
            user = world.users.get(int(raw))
            if user is None:
                raise LookupError(f"unknown user {raw}")
            resolved.setdefault("users", {})[raw] = user.payload()
            member = None if guild_id is None else world.guilds[guild_id].members.get(user.id)
            if member is not None:
                member_data = member.payload(with_permissions=True)
                del member_data["user"]
                resolved.setdefault("members", {})[raw] = member_data
        return resolved


def _raw_id(value: Any) -> str:
    if isinstance(value, (FakeUser, st.User, st.Channel)):
        return str(value.id)
    return str(value)


def _first(items: list[st.Message], predicate: Callable[[st.Message], object] | None) -> st.Message | None:
    for item in items:
        if predicate is None or predicate(item):
            return item
    return None
