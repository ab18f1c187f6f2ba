"""``python -m bot`` / ``tavolo``: read settings, then run the bot until stopped.

Operator mistakes (missing or rejected token, bad setting) end with one clear line and exit code 2,
never a traceback. ``tavolo replay FILE`` and ``tavolo play GAME`` (hand records, a game in the terminal)
need no token and never import discord, so discord is imported only on the way to running the bot.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import sys
from collections.abc import Sequence

from bot.config import ConfigError, Settings

#: subcommands handled by bot.records.cli; anything else (or nothing) runs the bot as before
RECORD_COMMANDS = ("replay", "play")


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if args and args[0] in RECORD_COMMANDS:
        from bot.records.cli import main as records_main

        return records_main(args)
    if args and args[0] == "db":  # tavolo db copy --from … --to …
        from bot.storage.dbtool import main as db_main

        return db_main(args)
    return run_bot()


def run_bot() -> int:
    import discord

    from bot.transport.endpoints import apply_endpoints

    try:
        settings = Settings.from_env()
    except ConfigError as e:
        print(f"tavolo: {e}", file=sys.stderr)
        return 2
    logging.basicConfig(
        level=settings.log_level, format="%(asctime)s %(levelname)-7s %(name)s: %(message)s", stream=sys.stderr
    )
    logging.getLogger("discord.http").setLevel(max(logging.WARNING, logging.getLogger().level))
    apply_endpoints(settings.api_base, settings.gateway_url)
    try:
        asyncio.run(_run(settings))
    except discord.LoginFailure:
        print("tavolo: Discord rejected DISCORD_TOKEN (reset the token in the Developer Portal).", file=sys.stderr)
        return 2
    except discord.PrivilegedIntentsRequired:
        print("tavolo: Discord refused the intents; Tavolo needs no privileged intents.", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        pass
    return 0


async def _run(settings: Settings) -> None:
    from bot.transport.client import TavoloBot

    bot = TavoloBot(settings)
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        with contextlib.suppress(NotImplementedError):
            loop.add_signal_handler(sig, stop.set)
    async with bot:
        runner = asyncio.create_task(bot.start(settings.token))
        stopper = asyncio.create_task(stop.wait())
        done, _ = await asyncio.wait({runner, stopper}, return_when=asyncio.FIRST_COMPLETED)
        if runner in done:
            stopper.cancel()
            runner.result()  # re-raise LoginFailure & co
        else:
            await bot.close()
            with contextlib.suppress(asyncio.CancelledError):
                await runner


if __name__ == "__main__":
    sys.exit(main())
