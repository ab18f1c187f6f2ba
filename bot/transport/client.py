"""The Discord client: owns start-up (database, ledger, table service, cogs, command sync) and shutdown."""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import multiprocessing
import os
import tempfile
import threading
import time
from collections.abc import AsyncIterator, Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from contextlib import asynccontextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.activity.server import ActivityServer
from bot.ai_runner import AgentRunner
from bot.config import Settings
from bot.engine.protocol import Action
from bot.games import registry
from bot.i18n import SOURCE, SUPPORTED, _, _p, normalize, using
from bot.images import ImageCache, sprites, warmup
from bot.images import prepare as prepare_images
from bot.ledger import Ledger
from bot.preferences import Preferences
from bot.ratings import Ratings
from bot.render.errors import error_text
from bot.services import Services
from bot.storage.db import Database
from bot.tables.service import TableError, TableService
from bot.tournaments import GuildSettings, TournamentError, TournamentService
from bot.transport import interaction_log
from bot.transport.forwarding import InteractionForwarder
from bot.transport.gateway import IdentifyPacer, ResumingShard
from bot.transport.requests import RequestScheduler
from cogs import _scheduling
from cogs._locale import reader_locale
from cogs._translator import TavoloTranslator

if TYPE_CHECKING:
    import yarl

log = logging.getLogger(__name__)


#: Discord's refusal of a bulk overwrite that would remove the app's Entry Point command
_ENTRY_POINT_KEPT = 50240
#: the Activity port an offline bot claims to have (never bound: :func:`offline_bot` starts no server)
OFFLINE_ACTIVITY_PORT = 9


def entry_point() -> dict[str, Any]:
    """The Activity's primary Entry Point command (type 4), registered with the commands when the Activity is on:
    handler 2 (DISCORD_LAUNCH_ACTIVITY) lets Discord open the Activity itself, no interaction reaches the bot."""
    localized: dict[str, str] = {}
    english = ""
    for code in SUPPORTED:
        with using(code):
            text = _p("command-description", "Open Tavolo's card table in this channel")
        if code == SOURCE:
            english = text
        elif text and len(text) <= 100:
            localized[code] = text
    return {
        "name": "launch",
        "description": english,
        "description_localizations": {k: v for k, v in localized.items() if v != english},
        "type": 4,
        "handler": 2,
        "integration_types": [0],
        "contexts": [0],
    }


COGS = (
    "cogs.tables",
    "cogs.records",
    "cogs.games",
    "cogs.ledger",
    "cogs.standings",
    "cogs.seasons",
    "cogs.server_config",
    "cogs.language",
    "cogs.tournament",
    "cogs.help",
)


class TavoloTree(app_commands.CommandTree["TavoloBot"]):
    """Turns refusals of the table service into a short private reply instead of a logged traceback."""

    async def on_error(self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError) -> None:
        if interaction_log.is_expired(error):  # too late to answer anything: one line, no traceback
            log.info(
                "interaction %s before it was answered: %s",
                interaction_log.reason(error),
                interaction_log.describe(interaction),
            )
            return
        original = getattr(error, "original", error)
        with using(await reader_locale(self.client, interaction)):  # a refusal in the reader's language
            if isinstance(original, (TableError, TournamentError)):
                text = error_text(original)
            elif isinstance(error, app_commands.CheckFailure):
                text = _("You can't use that command here.")
            else:
                log.error("command %r failed", getattr(interaction.command, "qualified_name", "?"), exc_info=error)
                text = _("Something went wrong; nothing was changed.")
        try:
            if interaction.response.is_done():
                await interaction.followup.send(text, ephemeral=True)
            else:
                await interaction.response.send_message(text, ephemeral=True)
        except (discord.HTTPException, discord.InteractionResponded) as e:
            if not interaction_log.is_expired(e):
                raise
            reason = interaction_log.reason(e)
            log.info("could not answer %s: the interaction %s", interaction_log.describe(interaction), reason)


class TavoloBot(commands.AutoShardedBot):
    """Tavolo's bot. Slash commands only: it needs no privileged intents and no message content.

    Sharded (Discord's own sharding): one process runs every shard by default; with ``TAVOLO_SHARD_COUNT`` and
    ``TAVOLO_SHARD_IDS`` several processes share the shards, and each owns the tables, timers and tournaments
    of the guilds on its shards (``(guild_id >> 22) % shard_count``), so no two processes act on one table."""

    def __init__(self, settings: Settings, *, edit_interval: float = 1.0, cogs: tuple[str, ...] = COGS) -> None:
        intents = discord.Intents.none()
        intents.guilds = True  # channel/thread metadata; everything else arrives as interactions
        shards: dict[str, Any] = {}
        if settings.shard_count is not None:
            shards["shard_count"] = settings.shard_count
            if settings.shard_ids is not None:
                shards["shard_ids"] = list(settings.shard_ids)
        super().__init__(
            command_prefix=commands.when_mentioned, intents=intents, help_command=None, tree_cls=TavoloTree, **shards
        )
        self.settings = settings
        self.edit_interval = edit_interval
        #: plans every REST request within Discord's global and per-route limits (bot/transport/requests.py)
        self.requests = RequestScheduler()
        _scheduling.install(self.http, self.requests)
        self.cog_modules = cogs
        self.db: Database | None = None
        self.ledger: Ledger | None = None
        self.tables: TableService | None = None
        self.services: Services | None = None
        self.tournaments: TournamentService | None = None
        self.agent_runner: AgentRunner | None = None
        self.forwarder: InteractionForwarder | None = None
        #: the Activity's HTTP server (TAVOLO_ACTIVITY_PORT), None when not configured
        self.activity_server: ActivityServer | None = None
        self._identify_pacer = IdentifyPacer()
        self._sprite_pool: ProcessPoolExecutor | None = None
        # an interaction that can no longer be answered is logged as one INFO line (bot/transport/interaction_log.py)
        interaction_log.install(self._connection.parsers)

    async def launch_shard(self, gateway: yarl.URL, shard_id: int, *, initial: bool = False) -> None:
        await super().launch_shard(gateway, shard_id, initial=initial)
        # A failed reconnect retries RESUME instead of starting a new session (bot/transport/gateway.py). The library
        # builds its Shard objects itself, so the policy is given to each one as it is launched.
        shard = self._AutoShardedClient__shards.get(shard_id)  # type: ignore[attr-defined]
        if shard is not None and type(shard) is not ResumingShard:
            shard.__class__ = ResumingShard

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        # (not discord.py's fixed 5 s before every IDENTIFY but the first: bot/transport/gateway.py IdentifyPacer)
        await self._identify_pacer.wait()

    async def setup_hook(self) -> None:
        self.db = await Database.open(self.settings.database)
        if self.settings.shard_count is not None and self.settings.shard_ids is not None:
            self.db.shards = (self.settings.shard_count, self.settings.shard_ids)
        self.ledger = Ledger(self.db)
        self.agent_runner = AgentRunner(self.settings.ai_workers)
        self.tables = TableService(
            self.db,
            self.ledger,
            default_timeout=self.settings.turn_timeout,
            agent_runner=self._run_agent,
        )
        # every service is built here, once; the cogs receive them (bot.services) and only adapt Discord to them
        self.services = Services(
            db=self.db,
            ledger=self.ledger,
            ratings=Ratings(self.db),
            guild_settings=GuildSettings(self.db),
            tables=self.tables,
            tournaments=TournamentService(self.db, self.tables),
            edit_interval=self.edit_interval,
            preferences=Preferences(self.db),
            pictures=ImageCache(),
            images_default=self.settings.images,
        )
        self.tournaments = self.services.tournaments
        for name in self.cog_modules:
            await self.load_extension(name)
        await self.tree.set_translator(TavoloTranslator())  # names and descriptions in it, ko, pl, ru
        await self._sync_commands()
        restored = await self.tables.load()
        if self.services.images_default:
            # the decks of the tables that are open first: their pictures are the first ones wanted
            self._prepare_sprites(first=[t.game_id for t in restored])
        tables_cog: Any = self.get_cog("Tables")
        if tables_cog is not None:
            await tables_cog.restore()
        # The ids name what this process took over: with several processes, each must list only its shards' tables.
        shards = "" if self.db.shards is None else f" of shards {','.join(map(str, self.db.shards[1]))}"
        log.info("restored %d open table(s)%s: %s", len(restored), shards, " ".join(str(t.id) for t in restored) or "-")
        # one scheduler fires every table's turn timer (a timed-out human is played by the computer); started
        # after load() so a deadline that passed while the bot was down fires at once
        self.tables.start_timers()
        if self.db.shards is not None and self.db.dialect == "postgres":
            # Several processes: DM clicks all reach shard 0's process; the one holding the table must get them.
            tables = self.tables
            self.forwarder = InteractionForwarder(
                self._connection.parsers,
                holds=lambda table_id: table_id in tables.tables,
                status=tables.table_status,
                listen=self.db.listen,  # type: ignore[attr-defined]  # PostgresDatabase's
                notify=self.db.notify,  # type: ignore[attr-defined]
            )
            await self.forwarder.start()
        if self.settings.activity_port is not None:
            await self._start_activity()

    async def _start_activity(self) -> None:
        """The Activity's server (bot/activity): only with ``TAVOLO_ACTIVITY_PORT`` (and the client secret)."""
        assert self.tables is not None and self.application_id is not None and self.db is not None
        assert self.settings.activity_port is not None and self.settings.client_secret is not None
        prefs = self.services.preferences if self.services is not None else None
        shards = self.db.shards

        async def locale_of(user_id: int, discord_locale: str | None) -> str:
            # the reader's /tavolo language choice, else their Discord client's language (as for their DMs)
            if prefs is None:
                return normalize(discord_locale) if discord_locale else SOURCE
            if discord_locale:
                await prefs.saw_user_locale(user_id, normalize(discord_locale))
            return normalize((await prefs.user_languages(user_id)).effective)

        self.activity_server = ActivityServer(
            self.tables,
            application_id=self.application_id,
            client_secret=self.settings.client_secret,
            bot_token=self.settings.token,
            api_base=self.settings.api_base,
            port=self.settings.activity_port,
            origin=self.settings.activity_origin,
            client_address=self.settings.activity_client_address,
            locale_of=locale_of,
            shards=(shards[0], tuple(shards[1])) if shards is not None else None,
        )
        await self.activity_server.start()

    def _prepare_sprites(self, first: Sequence[str] = ()) -> None:
        """Card sprites and palettes take seconds of CPU to draw. With a sprite cache (TAVOLO_SPRITE_CACHE) they
        are loaded from disk, per deck and size, when first used, and what is missing is drawn in a low-priority
        worker process, so the event loop keeps answering clicks meanwhile (a picture of a deck not ready yet
        waits for that deck only). Without one they are drawn in a thread, as before."""
        directory = self.settings.sprite_cache
        if directory is None:
            self._prepare_task = asyncio.create_task(asyncio.to_thread(prepare_images), name="prepare-images")
            return
        store = sprites.use_disk_cache(directory)
        assert store is not None
        store.prune()  # sprites of art code that no longer runs
        decks = [d for d in (_deck_of(g) for g in first) if d is not None]
        todo = warmup.missing(dict.fromkeys([*decks, *sprites.DECKS]))
        if not todo:
            log.info("card sprites: every deck loads from %s", store.dir)
            return
        ctx = multiprocessing.get_context("spawn")  # (forking a process that runs an event loop is unsafe)
        pool = self._sprite_pool = ProcessPoolExecutor(
            1, mp_context=ctx, initializer=_sprite_worker, initargs=(os.getpid(),)
        )
        jobs = warmup.prepare_in(pool, todo)
        started = time.monotonic()

        async def report() -> None:
            results = await asyncio.gather(*(asyncio.wrap_future(j) for j in jobs.values()), return_exceptions=True)
            failed = [d for d, r in zip(jobs, results, strict=True) if isinstance(r, Exception)]
            log.info(
                "card sprites: %s prepared into %s in %.1f s%s",
                ", ".join(jobs),
                store.dir,
                time.monotonic() - started,
                f" ({', '.join(failed)} drawn in this process instead)" if failed else "",
            )
            pool.shutdown(wait=False)

        self._prepare_task = asyncio.create_task(report(), name="prepare-sprites")

    async def _run_agent(self, fn: Callable[..., Action], *args: Any) -> Action:
        """Searching (strong) computer players run in worker processes so they never hold the event loop's
        GIL; the heuristic levels take milliseconds and run in a thread."""
        agent = getattr(fn, "__self__", None)
        if self.agent_runner is not None and getattr(agent, "level", "") == "strong":
            return await self.agent_runner(fn, *args)
        return await asyncio.to_thread(fn, *args)

    async def _sync_commands(self) -> None:
        """Sync the command tree only when it changed since the last sync (Discord rate-limits syncs)."""
        guild = discord.Object(self.settings.dev_guild) if self.settings.dev_guild else None
        if guild is not None:
            self.tree.copy_global_to(guild=guild)
        translator = self.tree.translator
        commands_ = self.tree.get_commands(guild=guild)
        # the digest covers the localisations too: a new or corrected translation must reach Discord
        if translator is not None:
            payload = [await c.get_translated_payload(self.tree, translator) for c in commands_]
        else:
            payload = [c.to_dict(self.tree) for c in commands_]
        entry = entry_point() if self.settings.activity_port is not None else None
        digest = hashlib.sha256(json.dumps([*payload, entry], sort_keys=True).encode()).hexdigest()
        key = f"commands:{self.settings.dev_guild or 'global'}:{self.settings.api_base or 'discord'}"
        assert self.db is not None
        row = await self.db.fetchone("SELECT value FROM bot_meta WHERE key = ?", (key,))
        if row is not None and row[0] == digest:
            log.info("slash commands unchanged; not syncing")
            return
        if entry is not None and guild is None and self.application_id is not None:
            # discord.py's tree knows no Entry Point commands (type 4), and Discord refuses a bulk overwrite that
            # would drop an app's Entry Point: the global overwrite carries it along
            synced = await self.http.bulk_upsert_global_commands(self.application_id, payload=[*payload, entry])
        else:
            try:
                synced = await self.tree.sync(guild=guild)
            except discord.HTTPException as e:
                if e.code != _ENTRY_POINT_KEPT or guild is not None or self.application_id is None:
                    raise
                # Activities are enabled in the Developer Portal (Discord then adds an Entry Point) but not here:
                # the overwrite keeps the app's Entry Point as it is
                kept = [c for c in await self.http.get_global_commands(self.application_id) if c.get("type") == 4]
                synced = await self.http.bulk_upsert_global_commands(self.application_id, payload=[*payload, *kept])
            if entry is not None and self.application_id is not None:  # (Entry Points are global only)
                await self.http.upsert_global_command(self.application_id, payload=entry)
        async with self.db.transaction() as conn:
            await conn.execute(
                "INSERT INTO bot_meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                (key, digest),
            )
        log.info("synced %d slash command(s) %s", len(synced), f"to guild {guild.id}" if guild else "globally")

    async def on_ready(self) -> None:
        log.info("logged in as %s (%s) in %d server(s)", self.user, getattr(self.user, "id", "?"), len(self.guilds))

    async def close(self) -> None:
        if self.tables is not None:
            await self.tables.stop_timers()
        # unloads the cogs first: their background tasks (edits, rating syncs) end there, before the database closes
        await super().close()
        await self.close_services()

    async def close_services(self) -> None:
        """Stop what setup_hook started (also for a bot that never connected, e.g. the offline command tree). The
        database is closed whatever failed before it: its connection's thread would keep the process alive."""
        try:
            if self.activity_server is not None:
                server, self.activity_server = self.activity_server, None
                await server.stop()
            if self.forwarder is not None:
                await self.forwarder.stop()
                self.forwarder = None
            if self.tables is not None:
                await self.tables.stop_timers()
                await self.tables.idle()
            if self.agent_runner is not None:
                self.agent_runner.shutdown()
            if self._sprite_pool is not None:
                self._sprite_pool.shutdown(wait=False, cancel_futures=True)
                self._sprite_pool = None
        finally:
            if self.db is not None:
                await self.db.close()


def _sprite_worker(parent: int) -> None:
    """(In the sprite worker, at its start.) Yield the CPU to the bot's event loop — on one core, clicks come
    first — and end with the bot: a worker of a killed bot would otherwise wait for work forever."""
    if hasattr(os, "nice"):
        os.nice(10)
    threading.Thread(target=_exit_with, args=(parent,), name="exit-with-bot", daemon=True).start()


def _exit_with(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(0.5)
    os._exit(0)


def _deck_of(game_id: str) -> str | None:
    """The card art a game is drawn with (None for a game without pictures or no longer registered)."""
    try:
        return registry.get(game_id).deck
    except KeyError:
        return None


@asynccontextmanager
async def offline_bot() -> AsyncIterator[TavoloBot]:
    """Tavolo's bot with every cog loaded and its command tree built, never connected (a throwaway database).

    Built with every optional feature configured (the Activity too), whatever this machine's environment says: the
    command tree and the texts depend on the settings, and the catalogue's extraction and the payload tests must see
    all of them. Nothing is served: the Activity's server is never started."""
    with tempfile.TemporaryDirectory() as tmp:
        settings = Settings(
            token="offline",
            database=Path(tmp) / "tavolo.db",
            dev_guild=None,
            api_base=None,
            gateway_url=None,
            log_level="WARNING",
            turn_timeout=90,
            ai_workers=1,
            images=False,
            activity_port=OFFLINE_ACTIVITY_PORT,
            client_secret="offline",
        )
        bot = TavoloBot(settings)

        async def no_sync() -> None:  # offline: nothing to sync with
            return None

        async def no_activity() -> None:  # configured, so every command and button exists; never listening
            return None

        bot._sync_commands = no_sync  # type: ignore[method-assign]
        bot._start_activity = no_activity  # type: ignore[method-assign]
        # cogs that wait for the gateway's READY (tournaments resume then) wait on this, not fail: never logged in
        bot._ready = asyncio.Event()
        await bot.setup_hook()
        try:
            yield bot
        finally:
            for name in list(bot.cogs):  # their unload stops what they started
                await bot.remove_cog(name)
            await bot.close_services()  # never connected: no gateway to close
