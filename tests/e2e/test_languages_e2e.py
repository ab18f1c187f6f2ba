"""Every player in their own language, end to end: the real bot against the fake Discord.

An Italian server; Kim's Discord client is Korean, Ivan's Russian, Alice's English. They play a Mighty hand (two
computers fill the table) and a Wizard game of two rounds. The channel (table message, summaries) is Italian, each
DM is in its reader's language; ``/tavolo language`` changes Kim's next DM, ``/tavolo config language:`` the
channel's next update. The registered commands carry their it, ko, pl and ru localisations.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

from fakediscord import FakeDiscord
from fakediscord import state as st
from fakediscord.users import FakeUser

from bot.i18n import _, using

from .driver import Player, play_until, quiesce, start_bot, stop_bot

SEED = 11
LOCALES = ("it", "ko", "pl", "ru")


def tr(locale: str, msgid: str, **params: object) -> str:
    with using(locale):
        return _(msgid, **params)


def button(message: st.Message, op: str) -> dict[str, object] | None:
    """The table control ``op`` (``join``, ``hand``, …) on a message, found by its custom id, not its label."""
    pattern = re.compile(rf"tb:\d+:{op}:")
    return next((b for b in message.buttons() if pattern.match(str(b.get("custom_id", "")))), None)


def with_button(fake: FakeDiscord, channel: st.Channel, op: str) -> st.Message | None:
    return next((m for m in reversed(fake.channel_messages(channel)) if button(m, op) is not None), None)


async def click_op(user: FakeUser, message: st.Message, op: str) -> None:
    b = button(message, op)
    assert b is not None, f"no {op} button"
    await (await user.click(message, custom_id=str(b["custom_id"]))).ack()


def hand_dm(user: FakeUser) -> str:
    dms = [m for m in user.dm_messages() if m.embeds or m.is_v2]
    return dms[-1].text() if dms else ""


async def test_every_message_in_its_readers_language(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    fake = fake_discord
    guild = fake.add_guild("Amici", preferred_locale="it")
    channel = fake.add_channel(guild, "carte")
    alice = fake.add_user("alice", admin=True)
    kim = fake.add_user("kim", locale="ko")
    ivan = fake.add_user("ivan", locale="ru")
    bot, task = await start_bot(fake, tmp_path / "t.db", dev_guild=guild.id)
    try:
        assert bot.tables is not None
        bot.tables.seed_factory = lambda: SEED

        # -- the commands Discord registered carry every localisation, /tavolo language included
        data = {c.data["name"]: c.data for c in fake.world.commands.values()}
        subs = {o["name"]: o for o in data["tavolo"]["options"]}
        for loc in LOCALES:
            for name in ("table", "mighty", "wizard", "tavolo"):
                assert data[name]["description_localizations"][loc], (name, loc)
            assert data["table"]["name_localizations"][loc]
            assert subs["language"]["name_localizations"][loc]
            assert subs["language"]["description_localizations"][loc]
        assert subs["language"]["name_localizations"]["ko"] == "언어"
        config_options = {o["name"]: o for o in subs["config"]["options"]}
        assert {c["value"] for c in config_options["language"]["choices"]} == {"auto", "en", "it", "ko", "pl", "ru"}

        # -- Mighty: Alice hosts (her reply is English), the lobby is Italian
        opened = await (await alice.slash(channel, "mighty new", hands=1, weak_hand_misdeal=False)).reply()
        assert "table is open" in opened.text()
        lobby = await fake.wait_for(lambda: with_button(fake, channel, "join"))
        assert button(lobby, "join")["label"] == tr("it", "Join") == "Partecipa"  # type: ignore[index]
        for user in (kim, ivan):
            await click_op(user, lobby, "join")
        for n in (1, 2):
            await click_op(alice, lobby, "bot")
            await fake.wait_for(lambda n=n: f"Computer {n}" in fake.message(lobby.id).text())
        await click_op(alice, lobby, "start")
        mighty = next(t for t in bot.tables.tables.values() if t.game_id == "mighty")
        await fake.wait_for(lambda: all(hand_dm(u) for u in (alice, kim, ivan)))
        await quiesce(bot)
        assert_dm(alice, "en")
        assert_dm(kim, "ko")
        assert_dm(ivan, "ru")
        tm = with_button(fake, channel, "hand")
        assert tm is not None and button(tm, "hand")["label"] == "La mia mano"  # type: ignore[index]
        assert "Mighty — mano 1 di 1" in tm.text() and "Asta" in tm.text()
        # the Italian table's "My hand" answers Ivan privately, in Russian
        b = button(tm, "hand")
        assert b is not None
        private = await (await ivan.click(tm, custom_id=str(b["custom_id"]))).reply()
        assert private.flags & 64 and HEADING["ru"] in private.text() and HEADING["it"] not in private.text()

        players = [Player(fake, u, random.Random(i)) for i, u in enumerate((alice, kim, ivan))]
        await play_until(fake, players, lambda: mighty.status == "finished", timeout=20)
        await quiesce(bot)
        posts = [m.text() for m in fake.channel_messages(channel) if not m.buttons()]
        summary = next(p for p in posts if p.startswith("**Mighty — mano 1**"))
        assert "Pagamenti:" in summary and "Payments" not in summary
        assert any(p.startswith("🏁 **Mighty — partita finita**") for p in posts)
        assert "finito" in fake.message(tm.id).text()

        # -- Wizard, two rounds: Kim switches to Polish, then the server's managers to Korean
        before = {u.id: len(u.dm_messages()) for u in (alice, kim, ivan)}
        await (await alice.slash(channel, "wizard new", rounds="1-2")).reply()
        lobby = await fake.wait_for(lambda: with_button(fake, channel, "join"))
        for user in (kim, ivan):
            await click_op(user, lobby, "join")
        await click_op(alice, lobby, "start")
        wizard = next(t for t in bot.tables.tables.values() if t.game_id == "wizard")
        await fake.wait_for(lambda: all(len(u.dm_messages()) > before[u.id] for u in (alice, kim, ivan)))
        await quiesce(bot)
        assert_dm(kim, "ko")
        assert_dm(ivan, "ru")
        tm = with_button(fake, channel, "hand")
        assert tm is not None and button(tm, "hand")["label"] == "La mia mano"  # type: ignore[index]

        reply = await (await kim.slash(channel, "tavolo language", language="pl")).reply()
        assert reply.text() == tr("pl", "Your messages are now in {language}.", language="Polski")
        await fake.wait_for(lambda: tr("pl", "Your hand") in hand_dm(kim), description="Kim's DM in Polish")
        assert_dm(kim, "pl")
        assert_dm(ivan, "ru")  # nobody else changed

        handle = await alice.slash(channel, "tavolo config", language="ko")
        await handle.reply()
        (note,) = await handle.wait_followups(1)
        assert note.text() == tr("en", "This server's channel messages are now in {language}.", language="한국어")
        await fake.wait_for(
            lambda: button(fake.message(tm.id), "hand")["label"] == "내 패",  # type: ignore[index]
            description="the table message in Korean",
        )
        await play_until(fake, players, lambda: wizard.status == "finished", timeout=20)
        await quiesce(bot)
        final = [m.text() for m in fake.channel_messages(channel) if not m.buttons()][-1]
        assert final.startswith("🏁") and HANGUL.search(final) and "game over" not in final
        assert_dm(kim, "pl")
        assert_dm(ivan, "ru")
        fake.assert_clean()
        assert not fake.late_acks
    finally:
        await stop_bot(bot, task)


HANGUL = re.compile("[\uac00-\ud7a3]")
CYRILLIC = re.compile("[\u0400-\u04ff]")
#: what only a reader's own language shows in a hand DM (the hand's heading, from the catalogue)
HEADING = {loc: tr(loc, "Your hand") for loc in ("en", *LOCALES)}


def assert_dm(user: FakeUser, locale: str) -> None:
    """The user's hand DM is in ``locale``: its heading in that language, no other language's heading, and no
    English catalogue text when it is not English."""
    text = hand_dm(user)
    assert HEADING[locale] in text, f"{user.name}'s DM is not in {locale}:\n{text}"
    for other, heading in HEADING.items():
        if other != locale and heading not in HEADING[locale]:
            assert heading not in text, f"{user.name}'s DM has {other} text:\n{text}"
    if locale != "en":
        for english in ("Your hand", "Waiting for", "table #", "seat "):
            assert english not in text, f"English {english!r} in {user.name}'s {locale} DM:\n{text}"
    if locale == "ko":
        assert HANGUL.search(text)
    if locale == "ru":
        assert CYRILLIC.search(text)
