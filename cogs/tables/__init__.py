"""The tables in Discord: the cog (commands and clicks, :mod:`.cog`) and the Discord-messages front-end (what a
table sends, :mod:`.frontend`). Loaded as the extension ``cogs.tables``."""

from .cog import TablesCog, setup
from .frontend import DiscordFrontend

__all__ = ["DiscordFrontend", "TablesCog", "setup"]
