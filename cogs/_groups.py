"""Slash command groups whose subcommands live in several cogs: ``/ledger`` (the ledger, payments and the chart)
and ``/tavolo`` (the server's configuration and each player's language).

discord.py binds a group to one cog. Here each cog declares its own copy of the group (:func:`ledger_group`,
:func:`tavolo_group`: the same name, description and checks) with only its own subcommands, and in ``cog_load``
hands them to the one group the command tree holds (:func:`join_groups`, made by whichever cog loads first and
owned by none); ``cog_unload`` takes them back (:func:`leave_groups`) and drops the group once it is empty. Every
subcommand stays bound to the cog that declared it, so its callback and checks are that cog's.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from discord import app_commands
from discord.ext import commands

__all__ = ["join_groups", "leave_groups", "ledger_group", "tavolo_group"]


def ledger_group() -> app_commands.Group:
    """``/ledger``: one copy per cog that adds subcommands to it."""
    return app_commands.Group(name="ledger", description="Stakes, resti and scores kept by Tavolo", guild_only=True)


def tavolo_group() -> app_commands.Group:
    """``/tavolo``: one copy per cog that adds subcommands to it."""
    return app_commands.Group(name="tavolo", description="Tavolo settings of this server", guild_only=True)


SHARED: dict[str, Callable[[], app_commands.Group]] = {"ledger": ledger_group, "tavolo": tavolo_group}

#: the subcommands each cog handed over, by cog (so the cog takes back exactly its own)
_JOINED = "_tavolo_joined_groups"


def join_groups(cog: commands.Cog, tree: app_commands.CommandTree[Any]) -> None:
    """Move ``cog``'s subcommands of the shared groups into the tree's groups (made here if none is yet).

    Called from ``cog_load``, which discord.py runs before it adds the cog's top-level commands to the tree:
    the cog's own copy of a shared group is taken off that list, so only the tree's one group is registered."""
    own: list[Any] = cog.__cog_app_commands__
    joined: list[tuple[str, list[str]]] = []
    for group in [c for c in own if isinstance(c, app_commands.Group) and c.name in SHARED]:
        shared = tree.get_command(group.name)
        if shared is None:
            shared = SHARED[group.name]()
            tree.add_command(shared)
        assert isinstance(shared, app_commands.Group), f"/{group.name} is registered as a command, not a group"
        names = []
        for child in group.commands:
            shared.add_command(child)  # (re-parents it; its binding stays the cog)
            names.append(child.name)
        own.remove(group)
        joined.append((group.name, names))
    setattr(cog, _JOINED, joined)


def leave_groups(cog: commands.Cog, tree: app_commands.CommandTree[Any] | None) -> None:
    """Take ``cog``'s subcommands out of the shared groups again; a group left empty leaves the tree."""
    joined: list[tuple[str, list[str]]] = getattr(cog, _JOINED, [])
    setattr(cog, _JOINED, [])
    if tree is None:
        return
    for group_name, names in joined:
        shared = tree.get_command(group_name)
        if not isinstance(shared, app_commands.Group):
            continue
        for name in names:
            shared.remove_command(name)
        if not shared.commands:
            tree.remove_command(group_name)
