"""One table message or hand as Discord sends it: today's embed + view, or a Components V2 layout with a picture.

A V2 layout (``discord.ui.LayoutView``) is one container holding the panel's text in ``TextDisplay`` parts and the
picture in a ``MediaGallery`` that points at the message's attachment (``attachment://<name>``), followed by the
same action rows of persistent ``tb:``/``ts:`` buttons and selects as the embed form. The text is the panel's whole
text, so the message says everything its picture shows (screen readers, pictures turned off).

Discord's V2 limits: 40 components counting nested ones, 4000 characters of text across the text displays.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import discord

from bot.render.base import Panel

MAX_COMPONENTS = 40
MAX_TEXT = 4000


@dataclass(slots=True)
class Message:
    """What to send: either an embed (``layout`` is a legacy view or ``None``) or a V2 layout; ``picture`` is the
    attachment's file name the layout shows (``None``: no picture)."""

    embed: discord.Embed | None
    view: discord.ui.View | discord.ui.LayoutView | None
    picture: str | None
    digest: str

    @property
    def v2(self) -> bool:
        return isinstance(self.view, discord.ui.LayoutView)


def embed_message(embed: discord.Embed, view: discord.ui.View | None) -> Message:
    payload = repr(embed.to_dict()) + repr(view.to_components() if view is not None else None)
    return Message(embed, view, None, _hash(payload))


def layout_message(
    panel: Panel,
    colour: int,
    rows: Sequence[Sequence[discord.ui.Item[Any]]],
    *,
    picture: str | None,
    author: str | None = None,
    alt: str = "",
) -> Message:
    """The V2 form of ``panel``: header (author line, title, description), picture, sections, footer, then ``rows``.

    ``picture``: the attachment's file name (``None``: text only); ``alt``: the picture's description.
    """
    header = "\n".join(p for p in (f"-# {author}" if author else "", f"### {panel.title}", panel.description) if p)
    body = "\n\n".join(f"**{s.name}**\n{s.value}" if s.name.strip() else s.value for s in panel.sections)
    footer = f"-# {panel.footer}" if panel.footer else ""
    header, body, footer = _fit((header, body, footer), MAX_TEXT)
    container = discord.ui.Container(accent_colour=colour)
    container.add_item(discord.ui.TextDisplay(header))
    if picture is not None:
        item = discord.MediaGalleryItem(f"attachment://{picture}", description=(alt or panel.title)[:1024])
        container.add_item(discord.ui.MediaGallery(item))
    if body:
        container.add_item(discord.ui.Separator())
        container.add_item(discord.ui.TextDisplay(body))
    if footer:
        container.add_item(discord.ui.TextDisplay(footer))
    view = discord.ui.LayoutView(timeout=None)
    view.add_item(container)
    for items in rows:
        if not items:
            continue
        for it in items:
            it.row = None  # rows are explicit here; a legacy row number means nothing in a layout
        view.add_item(discord.ui.ActionRow(*items))
    payload = repr(view.to_components()) + repr(picture)
    return Message(None, view, picture, _hash(payload))


def count_components(components: Sequence[dict[str, Any]]) -> int:
    """Components in a V2 payload, nested ones and section accessories included (Discord's count)."""
    total = 0
    for c in components:
        total += 1 + count_components(c.get("components") or [])
        if isinstance(c.get("accessory"), dict):
            total += 1
    return total


def _fit(parts: tuple[str, str, str], limit: int) -> tuple[str, str, str]:
    """Cut the longest parts (the sections first) so that the texts together stay within ``limit``."""
    header, body, footer = parts
    over = len(header) + len(body) + len(footer) - limit
    if over > 0 and body:
        keep = max(0, len(body) - over - 1)
        body = body[:keep] + "…"
        over = len(header) + len(body) + len(footer) - limit
    if over > 0:
        header = header[: max(0, len(header) - over - 1)] + "…"
        over = len(header) + len(body) + len(footer) - limit
    if over > 0:
        footer = footer[: max(0, len(footer) - over)]
    return header, body, footer


def _hash(payload: str) -> str:
    return hashlib.blake2b(payload.encode(), digest_size=16).hexdigest()
