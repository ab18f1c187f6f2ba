"""The four game engines. ``bot.games.registry`` maps a game id to its engine, AI and renderer."""
