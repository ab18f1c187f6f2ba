"""The Activity's tests: a fake Discord, a real table service on SQLite, the real server on a free port."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import pytest_asyncio
from fakediscord import FakeDiscord
from fakediscord import state as st
from fakediscord.activity import Instance
from fakediscord.users import FakeUser

from bot.activity.server import ActivityServer
from bot.tables.service import TableService

from .rig import Page, make_server, make_service


@dataclass
class Rig:
    fake: FakeDiscord
    service: TableService
    server: ActivityServer
    guild: st.Guild
    channel: st.Channel
    users: list[FakeUser]
    pages: list[Page] = field(default_factory=list)

    def page(self, user: FakeUser, instance: Instance) -> Page:
        p = Page(self.server, self.fake, user, instance)
        self.pages.append(p)
        return p

    async def open_pages(self, users: list[FakeUser], instance: Instance | None = None) -> list[Page]:
        instance = instance or self.fake.activities.launch(self.channel, *users)
        pages = []
        for u in users:
            p = self.page(u, instance)
            await p.login()
            await p.connect()
            await p.wait(lambda p=p: any(f["t"] == "welcome" for f in p.frames), "welcome")
            pages.append(p)
        return pages

    async def table(self, game: str, host: FakeUser, **kw: Any) -> int:
        t = await self.service.create(
            guild_id=self.guild.id,
            channel_id=self.channel.id,
            game_id=game,
            host_id=host.id,
            host_name=host.name,
            **kw,
        )
        return t.id


RigFactory = Callable[..., Awaitable[Rig]]


@pytest_asyncio.fixture
async def make_rig(fake_discord: FakeDiscord) -> AsyncIterator[RigFactory]:
    made: list[Rig] = []

    async def make(n_users: int = 5, db: str = ":memory:", **kw: Any) -> Rig:
        fake = fake_discord
        guild = fake.add_guild("Activity test")
        channel = fake.add_channel(guild, "cards")
        users = [fake.add_user(f"player{i}") for i in range(n_users)]
        service = await make_service(db)
        server = await make_server(fake, service, **kw)
        rig = Rig(fake, service, server, guild, channel, users)
        made.append(rig)
        return rig

    yield make
    for rig in made:
        for p in rig.pages:
            await p.close()
        await rig.server.stop()
        await rig.service.stop_timers()
        await rig.service.idle()
        await rig.service.db.close()
