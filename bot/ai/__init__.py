"""Computer players. Pure code: no discord, no sqlite, no asyncio."""
