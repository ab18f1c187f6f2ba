"""Discord-free rendering: views in, text and control descriptions out.

Each game has a module here with ``public_panel(view, names)`` and ``private_panel(view, names)``; the
cogs turn the resulting :class:`~bot.render.base.Panel` into embeds and components. Only views reach
these functions, so nothing private can be rendered into a channel message.
"""
