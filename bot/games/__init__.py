"""The games: one package per game (``bot/games/<id>/``, declared by its ``SPEC``), found by ``bot.games.registry``."""
