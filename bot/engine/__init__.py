"""Game-independent engine core: cards, seeded RNG, seats, tricks, the game protocol.

Nothing in this package (or in ``bot.games`` / ``bot.ai``) may import discord, aiosqlite or asyncio.
"""
