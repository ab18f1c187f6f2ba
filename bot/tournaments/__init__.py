"""Group tournaments: the seating draw (:mod:`.schedule`, pure), the service (:mod:`.service`, Discord-free)
and the per-guild role settings (:mod:`.settings`)."""

from .schedule import Draw, History, draw_round, repeat_count, table_sizes
from .service import (
    RULES_TEXT,
    RoundTable,
    Standing,
    Tournament,
    TournamentError,
    TournamentService,
    TournamentUpdate,
    table_options,
)
from .settings import GuildConfig, GuildSettings

__all__ = [
    "RULES_TEXT",
    "Draw",
    "GuildConfig",
    "GuildSettings",
    "History",
    "RoundTable",
    "Standing",
    "Tournament",
    "TournamentError",
    "TournamentService",
    "TournamentUpdate",
    "draw_round",
    "repeat_count",
    "table_options",
    "table_sizes",
]
