"""The services' refusals and notices and the replies of the ledger, tournament and records cogs come from the
catalogue, in the reader's language.

Three checks. 1) Every refusal and notice the services and these cogs can make is written as a catalogue msgid:
the source is parsed, and each ``TableError(...)``, ``TournamentError(...)``, ledger refusal and ``Notice(...)``
must take an ``N_("...")`` literal that is in the template, with exactly its placeholders as parameters — no
hard-coded sentence can reach a user. 2) The services are driven into many of those refusals and notices for
real, and each is written in the pseudo-locale (``qps``: catalogue texts come out wrapped in ``⟦…⟧``; what is
left outside the wrappers must be data) and in every language, within Discord's 2,000 characters. 3) The cogs'
commands and buttons are called with a stand-in interaction, reader and channel in ``qps``, and everything they
send — content, embed titles, fields, footers, button labels, menus — passes the same check.
"""

from __future__ import annotations

import ast
import asyncio
import importlib
import re
import string
from collections.abc import Awaitable, Callable, Iterable, Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import discord
import pytest
from tables.test_service import ALICE, BOB, CAROL, CHANNEL, GUILD, make_service
from tournaments.test_service import make as make_tournaments

from bot.errors import Refusal
from bot.games import registry
from bot.i18n import PSEUDO, SUPPORTED, using
from bot.i18n import catalog as cat
from bot.ledger import Ledger, LedgerRefusal, UnknownSeason
from bot.ratings import Ratings
from bot.records import RecordError, _games, parse_record
from bot.records.replay import replay as replay_record
from bot.render.errors import error_text
from bot.tables.service import Notice, StaleAction, TableError, TableService, TableUpdate
from bot.tournaments import GuildSettings, TournamentError
from i18n.test_panels import leftover

ROOT = Path(__file__).resolve().parents[2]
#: the cogs of the ledger's commands (balances, payments, standings, seasons, the server's settings, languages)
LEDGER_COGS = (
    "cogs/ledger/cog.py",
    "cogs/ledger/payments.py",
    "cogs/ledger/shared.py",
    "cogs/standings.py",
    "cogs/seasons.py",
    "cogs/server_config.py",
    "cogs/language.py",
)
#: where refusals and notices are made (the services) and answered (the cogs of this issue)
SOURCES = (
    "bot/tables/service.py",
    "bot/tournaments/service.py",
    "bot/ledger/service.py",
    "bot/ledger/models.py",
    *LEDGER_COGS,
    "cogs/tournament.py",
    "cogs/records.py",
)
COGS = (*LEDGER_COGS, "cogs/tournament.py", "cogs/records.py")
#: the classes whose first argument is a msgid
MSGID_TAKERS = {"TableError", "StaleAction", "TournamentError", "LedgerRefusal", "UnknownSeason", "Notice"}
MAX_MESSAGE = 2000
# Discord markup that is data, not words: timestamps (<t:123:d>) and mentions
MARKUP = re.compile(r"<t:\d+:\w>|<@&?\d+>")


# -- 1. the source: every refusal is a msgid ------------------------------------------------------------------
def _template_ids() -> set[str]:
    return {m.id[0] if isinstance(m.id, tuple) else m.id for m in cat.read(cat.TEMPLATE) if m.id}


def _name(node: ast.expr) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return ""


def _sites(path: str, tree: ast.AST | None = None) -> Iterator[tuple[int, ast.Call]]:
    tree = tree or ast.parse((ROOT / path).read_text(), filename=path)
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and _name(node.func) in MSGID_TAKERS:
            yield node.lineno, node


def test_every_refusal_and_notice_is_a_catalogue_msgid() -> None:
    ids = _template_ids()
    bad: list[str] = []
    seen = 0
    for path in SOURCES:
        for line, call in _sites(path):
            where = f"{path}:{line}"
            if not call.args:
                bad.append(f"{where}: no msgid")
                continue
            first = call.args[0]
            # N_("…") or, for a count, N_n("… {n} …", "… {n} …s") (its form chosen by the n parameter)
            arity = {"N_": 1, "N_n": 2}.get(_name(first.func), 0) if isinstance(first, ast.Call) else 0
            if not (
                isinstance(first, ast.Call)
                and arity
                and len(first.args) == arity
                and all(isinstance(a, ast.Constant) and isinstance(a.value, str) for a in first.args)
            ):
                bad.append(f'{where}: {ast.unparse(first)} is not an N_("...") or N_n("...", "...") literal')
                continue
            forms = [a.value for a in first.args if isinstance(a, ast.Constant) and isinstance(a.value, str)]
            msgid = forms[0]
            seen += 1
            if msgid not in ids:
                bad.append(f"{where}: {msgid!r} is not in the catalogue (python -m bot.i18n extract)")
            wanted = {f for form in forms for _, f, _, _ in string.Formatter().parse(form) if f is not None}
            if arity == 2:
                wanted.add("n")
            given = {k.arg for k in call.keywords if k.arg is not None}
            if wanted != given:
                bad.append(f"{where}: {msgid!r} takes {sorted(wanted)}, given {sorted(given)}")
    assert not bad, "\n".join(bad)
    assert seen >= 85, f"only {seen} refusals and notices found: did the parser miss some?"


def test_the_refusals_are_refusals() -> None:
    for cls in (TableError, StaleAction, TournamentError, LedgerRefusal, UnknownSeason):
        assert issubclass(cls, Refusal), cls
    # the ledger's refusals are still the ValueError / LookupError callers caught before
    assert issubclass(LedgerRefusal, ValueError) and issubclass(UnknownSeason, LookupError)


def test_the_cogs_never_show_an_exception_as_it_is() -> None:
    """``str(e)`` is English: a refusal reaches a user through ``error_text`` only (an exception's words may be
    a parameter of a refusal: a record parser's reason, which names a line of the file)."""
    for path in COGS:
        tree = ast.parse((ROOT / path).read_text(), filename=path)
        params = {id(k.value) for _, call in _sites(path, tree) for k in call.keywords}
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and _name(node.func) == "str" and node.args and id(node) not in params:
                arg = node.args[0]
                assert not (isinstance(arg, ast.Name) and arg.id in {"e", "err", "error"}), f"{path}:{node.lineno}"


def test_str_of_a_refusal_stays_english() -> None:
    err = TableError("{game} needs {lo} to {hi} players; {seated}. Add computers or wait.", game=lambda: "Wizard",
                     lo=3, hi=6, seated=lambda: "2 seated")  # fmt: skip
    with using(PSEUDO):
        assert str(err) == "Wizard needs 3 to 6 players; 2 seated. Add computers or wait."
        assert error_text(err).startswith("⟦")


# -- 2. the services, for real ---------------------------------------------------------------------------------
Collected = list[Refusal | Notice]


async def _refused(out: Collected, call: Awaitable[Any]) -> None:
    try:
        await call
    except Refusal as e:
        out.append(e)
    else:
        raise AssertionError("the call was not refused")


async def _table_refusals(out: Collected) -> TableService:
    svc = await make_service()

    async def notices(u: TableUpdate) -> None:
        out.extend(u.notices)

    svc.listeners.append(notices)
    new = dict(guild_id=GUILD, host_id=ALICE, host_name="Alice")
    await _refused(out, svc.create(channel_id=CHANNEL, game_id="skat", **new))  # type: ignore[arg-type]
    await _refused(out, svc.create(channel_id=CHANNEL, game_id="wizard", turn_timeout=1, **new))  # type: ignore[arg-type]
    await _refused(out, svc.create(channel_id=CHANNEL, game_id="wizard", options={"bid_restriction": True,
                                   "bid_mode": "secret"}, **new))  # type: ignore[arg-type]  # fmt: skip
    t = await svc.create(channel_id=CHANNEL, game_id="wizard", **new)  # type: ignore[arg-type]
    await _refused(out, svc.create(channel_id=CHANNEL, game_id="wizard", **new))  # type: ignore[arg-type]
    await _refused(out, svc.join(t.id, ALICE, "Alice"))
    await _refused(out, svc.start(t.id, ALICE))
    await svc.join(t.id, BOB, "Bob")
    await _refused(out, svc.add_computer(t.id, BOB))
    await _refused(out, svc.remove_computer(t.id, ALICE))
    await _refused(out, svc.swap_seats(t.id, ALICE, 0, 9))
    await _refused(out, svc.leave(t.id, CAROL))
    await _refused(out, svc.end(t.id, ALICE))
    await _refused(out, svc.vote_stop(t.id, ALICE))
    await _refused(out, svc.act(t.id, ALICE, {"type": "bid", "n": 0}))
    await _refused(out, svc.set_timeout(t.id, 99_999))
    await _refused(out, svc.rematch(t.id, ALICE, "Alice"))
    await svc.add_computer(t.id, ALICE)
    await svc.start(t.id, ALICE)
    await svc.idle()
    await _refused(out, svc.start(t.id, ALICE))
    await _refused(out, svc.join(t.id, CAROL, "Carol"))
    await _refused(out, svc.act(t.id, CAROL, {"type": "bid", "n": 0}))
    await _refused(out, svc.reclaim(t.id, ALICE))
    assert t.game is not None
    seat = t.game.to_move()[0]
    mover = t.seats[seat].user_id
    assert mover is not None
    waiting = [u for u in (ALICE, BOB) if t.seat_of(u) not in t.game.to_move()]
    if waiting:
        await _refused(out, svc.act(t.id, waiting[0], {"type": "bid", "n": 0}))  # not their turn
    await _refused(out, svc.act(t.id, mover, {"type": "bid", "n": 99}))  # the engine's refusal
    before = t.version
    await svc.act(t.id, mover, t.game.legal_actions(seat)[0], before)
    await _refused(out, svc.act(t.id, mover, {"type": "bid", "n": 0}, version=before))  # stale
    await svc.idle()
    await svc.vote_stop(t.id, ALICE)
    await _refused(out, svc.vote_stop(t.id, ALICE))
    await svc.vote_stop(t.id, BOB)  # everyone agreed
    await svc.leave(t.id, BOB)  # the computer takes the seat
    await svc.reclaim(t.id, BOB)
    await svc.end(t.id, ALICE)
    await _refused(out, svc.cancel(t.id, ALICE))
    await _refused(out, svc.rematch(t.id, CAROL, "Carol"))
    # a lobby whose host leaves, then an empty one
    t2 = await svc.create(channel_id=CHANNEL + 1, game_id="mighty", **new)  # type: ignore[arg-type]
    await svc.join(t2.id, BOB, "Bob")
    await _refused(out, svc.start(t2.id, ALICE))  # exactly 5
    await svc.leave(t2.id, ALICE)
    await svc.leave(t2.id, BOB)
    t3 = await svc.create(channel_id=CHANNEL + 2, game_id="mediatore", **new)  # type: ignore[arg-type]
    await svc.cancel(t3.id, ALICE)
    await _refused(out, svc.act(t3.id, ALICE, {"type": "pass"}))
    await svc.db.close()
    return svc


async def _tournament_refusals(out: Collected) -> None:
    svc, _tables, _threads = await make_tournaments()
    new: dict[str, Any] = dict(guild_id=GUILD, channel_id=CHANNEL, host_id=1, host_name="P1")
    await _refused(out, svc.create(game="skat", rounds=1, **new))
    await _refused(out, svc.create(game="wizard", rounds=0, **new))
    await _refused(out, svc.create(game="wizard", rounds=1, fill="nobody", **new))
    await _refused(out, svc.create(game="minchiate", rounds=1, hands_per_round=2, **new))
    await _refused(out, svc.create(game="mighty", rounds=1, hands_per_round=0, **new))
    t = await svc.create(game="wizard", rounds=2, hands_per_round=1, **new)
    await _refused(out, svc.create(game="wizard", rounds=1, **new))
    await _refused(out, svc.join(t.id, 1, "P1"))
    await _refused(out, svc.leave(t.id, 9))
    await _refused(out, svc.withdraw(t.id, 1))
    await _refused(out, svc.start(t.id, 1))  # one player
    await _refused(out, svc.start(t.id, 9))
    await _refused(out, svc.cancel(t.id, 9))
    await _refused(out, svc.standings(999))
    await _refused(out, svc.join(999, 1, "P1"))
    for uid in range(2, 5):
        await svc.join(t.id, uid, f"P{uid}")
    await svc.start(t.id, 1)
    await svc.idle()
    await _refused(out, svc.join(t.id, 7, "P7"))
    await _refused(out, svc.start(t.id, 1))
    await _refused(out, svc.withdraw(t.id, 9))
    await svc.withdraw(t.id, 4)
    await svc.cancel(t.id, 1)
    t2 = await svc.create(game="mighty", rounds=1, fill="bye", **{**new, "channel_id": CHANNEL + 1})
    for uid in range(2, 8):
        await svc.join(t2.id, uid, f"P{uid}")
    await svc.start(t2.id, 1)  # 7 players, tables of 5: two sit the round out
    await svc.idle()
    # the channel's notices are owed rows (written with the change): the round, the byes, a withdrawal, a cancellation
    for tour in (t, t2):
        for row in await svc.outbox.pending(tournament_id=tour.id):
            notice = await svc.owed_notice(tour, row.kind, row.payload)
            if notice is not None:
                out.append(notice)
    assert {n.msgid for n in out if isinstance(n, Notice)} >= {
        "{name} withdrew from {title}.", "{title} was cancelled.", "Bye this round: {names}.",
        "**{title} — round {round} of {rounds}** ({tables}).",
    }  # fmt: skip
    await svc.db.close()


async def _ledger_refusals(out: Collected) -> None:
    svc = await make_service()
    ledger = svc.ledger
    await _refused(out, ledger.adjust(GUILD, ALICE, "stake", 0, BOB, "typo"))
    await _refused(out, ledger.adjust(GUILD, ALICE, "stake", 5, BOB, "   "))
    await _refused(out, ledger.adjust(GUILD, ALICE, "stake", 5, BOB, "x" * 600))
    await _refused(out, ledger.adjust(GUILD, ALICE, "gold", 5, BOB, "typo"))
    await _refused(out, ledger.balance(GUILD, ALICE, season=7))
    await _refused(out, ledger.balance(GUILD, ALICE, season="last"))  # type: ignore[arg-type]
    await _refused(out, ledger.leaderboard(GUILD, game="wizard", currency="point", by="luck"))  # type: ignore[arg-type]
    await svc.db.close()


@pytest.fixture(scope="module")
def collected() -> Collected:

    out: Collected = []

    async def run() -> None:
        await _table_refusals(out)
        await _tournament_refusals(out)
        await _ledger_refusals(out)

    asyncio.run(run())
    return out


def _text(x: Refusal | Notice) -> str:
    return error_text(x) if isinstance(x, Refusal) else x.text()


NAMES = {"Alice", "Bob", "Carol"} | {f"P{i}" for i in range(1, 10)}


def _service_data() -> set[str]:
    # game ids a user typed, option and currency keys quoted back, the engines' own (English) refusals
    typed = {"`skat`", "`gold`", "`last`", "`total`", "`wins`", "`games`"}
    # the currencies' keys, listed as the values an admin may type
    return NAMES | typed | {"stake", "resto", "point"}


def test_the_services_refusals_and_notices_are_many(collected: Collected) -> None:
    msgids = {x.msgid for x in collected}
    assert len(msgids) >= 55, sorted(msgids)
    assert any(isinstance(x, Notice) for x in collected) and any(isinstance(x, LedgerRefusal) for x in collected)


def test_the_services_texts_come_from_the_catalogue(collected: Collected) -> None:
    data = _service_data()
    with using(PSEUDO):
        for x in collected:
            if x.msgid == "{reason}":
                continue  # the engines' own words (their catalogue is the game renderers')
            text = _text(x)
            assert text.startswith("⟦"), (x.msgid, text)
            assert not leftover(text, data), f"hard-coded text in {text!r} ({x.msgid!r})"


@pytest.mark.parametrize("locale", SUPPORTED)
def test_the_services_texts_in_every_language(collected: Collected, locale: str) -> None:
    with using(locale):
        for x in collected:
            text = _text(x)
            assert text and len(text) <= MAX_MESSAGE, x.msgid
            assert "{" not in text and "}" not in text, f"{locale}: unfilled placeholder in {text!r}"
            if locale != "en" and x.msgid != "{reason}":
                assert text != str(x), f"{locale}: {text!r} is not translated"


def test_lazy_parameters_follow_the_reader() -> None:
    """A game title in a refusal is evaluated when the text is made, in the reader's language."""
    err = TableError("{game} needs exactly {players}; {seated}. Add computers or wait.",
                     game=lambda: registry.title("mighty"), players=lambda: "5", seated=lambda: "2")  # fmt: skip
    with using("ru"):
        ru = error_text(err)
    with using("ko"):
        ko = error_text(err)
    assert ru != ko and "Mighty" in str(err)


# -- 3. the cogs' replies ----------------------------------------------------------------------------------------
class Sent:
    """Everything a cog sent: message contents, embeds and the items of views."""

    def __init__(self) -> None:
        self.texts: list[str] = []

    def record(self, content: Any = None, *, embed: Any = None, view: Any = None, **_: Any) -> None:
        if content:
            self.texts.append(str(content))
        if embed is not None:
            self.texts += [t for t in (embed.title, embed.description, embed.footer.text) if t]
            for f in embed.fields:
                self.texts += [str(f.name), str(f.value)]
        if isinstance(view, discord.ui.LayoutView):  # a Components V2 message: its text displays
            self.texts += [item.content for item in view.walk_children() if isinstance(item, discord.ui.TextDisplay)]
        elif view is not None:
            for child in view.children:
                item = getattr(child, "item", child)  # a DynamicItem wraps its button
                for attr in ("label", "placeholder"):
                    value = getattr(item, attr, None)
                    if value and value not in ("◀", "▶"):
                        self.texts.append(str(value))
                for option in getattr(item, "options", ()):
                    self.texts.append(option.label)


class Response:
    def __init__(self, sent: Sent) -> None:
        self.sent, self.done = sent, False

    def is_done(self) -> bool:
        return self.done

    async def send_message(self, content: Any = None, **kw: Any) -> None:
        assert not self.done, "answered twice"
        self.done = True
        self.sent.record(content, **kw)

    async def defer(self, **_: Any) -> None:
        self.done = True

    async def edit_message(self, content: Any = None, **kw: Any) -> None:
        self.done = True
        self.sent.record(content, **kw)


class Followup:
    def __init__(self, sent: Sent) -> None:
        self.sent = sent

    async def send(self, content: Any = None, **kw: Any) -> None:
        self.sent.record(content, **kw)


class Channel:
    def __init__(self, sent: Sent) -> None:
        self.sent = sent
        self.ids = iter(range(10_000, 20_000))

    async def send(self, content: Any = None, **kw: Any) -> Any:
        self.sent.record(content, **kw)
        return SimpleNamespace(id=next(self.ids))

    def get_partial_message(self, mid: int) -> Any:
        async def edit(**kw: Any) -> None:
            self.sent.record(None, **kw)

        return SimpleNamespace(edit=edit)


class Bot:
    def __init__(self, sent: Sent) -> None:
        self.channel = Channel(sent)
        self.cogs: dict[str, Any] = {}

    def get_partial_messageable(self, channel_id: int) -> Channel:
        return self.channel

    def get_cog(self, name: str) -> Any:
        return self.cogs.get(name)


def interaction(sent: Sent, bot: Bot, user: int = ALICE, *, manage: bool = True, channel: int = CHANNEL) -> Any:
    return SimpleNamespace(
        user=SimpleNamespace(id=user, display_name={ALICE: "Alice", BOB: "Bob"}.get(user, f"P{user}"), roles=[]),
        guild_id=GUILD,
        guild=None,
        channel_id=channel,
        channel=SimpleNamespace(parent_id=None),
        permissions=SimpleNamespace(manage_guild=manage),
        locale=discord.Locale.american_english,
        guild_locale=discord.Locale.american_english,
        response=Response(sent),
        followup=Followup(sent),
        client=bot,
    )


@pytest.fixture
def pseudo_readers(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every reader and every channel reads the pseudo-locale."""

    async def qps(*_: Any, **__: Any) -> str:
        return PSEUDO

    # by name, not as attributes of the package: an offline bot built earlier in the run (the catalogue tests) loaded
    # them as extensions, which puts them in sys.modules without setting them on the package
    names = ("cogs.ledger.cog", "cogs.ledger.payments", "cogs.ledger.shared", "cogs.standings", "cogs.seasons",
             "cogs.server_config", "cogs.language", "cogs.tournament", "cogs.records")  # fmt: skip
    for module in map(importlib.import_module, names):
        for name in ("reader_locale", "channel_locale"):
            if hasattr(module, name):
                monkeypatch.setattr(module, name, qps)


def _cog_data(extra: Iterable[str] = ()) -> set[str]:
    labels: set[str] = set()
    for game in _games.game_ids():
        for locale in ("en", PSEUDO):
            with using(locale):
                labels |= {_games.renderer(game).card_label(c) for c in _games.deck(game)}
    typed = {"`wizard`", "`mighty`", "`mediatore`", "`minchiate`", "`skat`", "T1", "—"}
    return NAMES | labels | typed | {"μ", "σ", "OpenSkill", "README"} | set(extra)


def _check(sent: Sent, data: set[str], where: str) -> None:
    assert sent.texts, f"{where}: nothing was sent"
    for text in sent.texts:
        assert len(text) <= MAX_MESSAGE * 3, where
        # the whole text, not line by line: a catalogue text may span lines (the tournament rules)
        left = leftover(MARKUP.sub("", text), data)
        assert not left, f"{where}: hard-coded text {left!r} in {text!r}"


async def _play_out(tables: TableService, table_id: int) -> None:
    """Humans pick the first legal action until the table is over."""
    for _ in range(5000):
        await tables.idle()
        t = tables.tables.get(table_id)
        if t is None or t.status != "running" or t.game is None:
            return
        movers = [s for s in t.game.to_move() if not t.seats[s].computer_plays]
        if movers:
            user = t.seats[movers[0]].user_id
            assert user is not None
            await tables.act(table_id, user, t.game.legal_actions(movers[0])[0], t.version)
    raise AssertionError("the table did not finish")


Step = Callable[[Sent, Bot], Awaitable[None]]


async def test_the_ledger_cogs_reply_in_the_readers_language(pseudo_readers: None) -> None:
    from cogs.language import LanguageCog
    from cogs.ledger import LedgerCog, PaymentsCog
    from cogs.seasons import SeasonCloseButton, SeasonsCog
    from cogs.server_config import ServerConfigCog
    from cogs.standings import StandingsCog

    tables = await make_service()
    ledger: Ledger = tables.ledger
    t = await tables.create(guild_id=GUILD, channel_id=CHANNEL, game_id="wizard", host_id=ALICE, host_name="Alice",
                            options={"rounds": "1-2"})  # fmt: skip
    await tables.join(t.id, BOB, "Bob")
    await tables.add_computer(t.id, ALICE)
    await tables.start(t.id, ALICE)
    await _play_out(tables, t.id)
    await ledger.adjust(GUILD, ALICE, "stake", 5, BOB, "a correction", name="Alice")
    ratings = Ratings(ledger.db, ledger=ledger)
    settings = GuildSettings(ledger.db)
    #: each command's cog, made for one step
    make: dict[type, Callable[[Bot], Any]] = {
        LedgerCog: lambda bot: LedgerCog(bot, ledger, settings),  # type: ignore[arg-type]
        PaymentsCog: lambda bot: PaymentsCog(bot, ledger, settings),  # type: ignore[arg-type]
        StandingsCog: lambda bot: StandingsCog(bot, ledger, ratings, settings),  # type: ignore[arg-type]
        SeasonsCog: lambda bot: SeasonsCog(bot, ledger, settings),  # type: ignore[arg-type]
        ServerConfigCog: lambda bot: ServerConfigCog(bot, ledger.db, settings),  # type: ignore[arg-type]
        LanguageCog: lambda bot: LanguageCog(bot),  # type: ignore[arg-type]
    }
    L, P, S, Z, C = LedgerCog, PaymentsCog, StandingsCog, SeasonsCog, ServerConfigCog
    nobody = SimpleNamespace(id=999, display_name="P9")
    steps: list[tuple[str, type, Callable[[Any, Any], Awaitable[Any]]]] = [
        ("balance", L, lambda c, i: L.balance.callback(c, i)),
        ("balance all", L, lambda c, i: L.balance.callback(c, i, None, "all")),
        ("history", L, lambda c, i: L.history.callback(c, i)),
        ("history empty", L, lambda c, i: L.history.callback(c, i, nobody)),
        ("export", L, lambda c, i: L.export.callback(c, i)),
        ("settle", P, lambda c, i: P.settle_up.callback(c, i)),
        ("leaderboard", S, lambda c, i: S.leaderboard.callback(c, i, "wizard")),
        ("leaderboard rating", S, lambda c, i: S.leaderboard.callback(c, i, "wizard", "rating")),
        ("leaderboard wins", S, lambda c, i: S.leaderboard.callback(c, i, "mighty", "wins", "all")),
        ("leaderboard unknown", S, lambda c, i: S.leaderboard.callback(c, i, "skat")),
        ("profile", S, lambda c, i: S.profile.callback(c, i)),
        ("profile empty", S, lambda c, i: S.profile.callback(c, i, nobody)),
        (
            "adjust",
            L,
            lambda c, i: L.adjust.callback(
                c, i, SimpleNamespace(id=BOB, display_name="Bob"), "point", -3, "a correction"
            ),
        ),
        (
            "adjust refused",
            L,
            lambda c, i: L.adjust.callback(c, i, SimpleNamespace(id=BOB, display_name="Bob"), "stake", 5, "   "),
        ),
        ("season close", Z, lambda c, i: Z.season_close.callback(c, i)),
        ("season confirm", Z, lambda c, i: c.confirm_season_close(i, GUILD)),
        ("season info", Z, lambda c, i: Z.season_info.callback(c, i)),
        ("season recap", Z, lambda c, i: Z.season_recap.callback(c, i)),
        ("chart", S, lambda c, i: S.chart.callback(c, i)),
        ("chart wizard all", S, lambda c, i: S.chart.callback(c, i, None, "wizard", "all")),
        ("chart nobody", S, lambda c, i: S.chart.callback(c, i, nobody)),
        ("config", C, lambda c, i: C.config.callback(c, i, None, None, False, "off")),
    ]
    for where, kind, step in steps:
        sent = Sent()
        bot = Bot(sent)
        await step(make[kind](bot), interaction(sent, bot))
        _check(sent, _cog_data({"a correction"}), where)
    for where, kind, step in steps:
        if where in ("export", "adjust", "season close", "season confirm", "config"):
            sent = Sent()
            bot = Bot(sent)
            await step(make[kind](bot), interaction(sent, bot, BOB, manage=False))  # refused: not an admin
            _check(sent, _cog_data(), where + " (not an admin)")
    sent = Sent()
    with using(PSEUDO):
        sent.record(view=discord.ui.View().add_item(SeasonCloseButton.make(GUILD, 1)))
    _check(sent, _cog_data(), "season button")
    await ledger.db.close()


async def test_the_tournament_cog_replies_in_the_readers_language(pseudo_readers: None) -> None:
    from cogs.tournament import TournamentCog

    svc, _tables, _threads = await make_tournaments()
    settings = GuildSettings(svc.db)
    data = _cog_data()

    def make_cog(sent: Sent) -> TournamentCog:
        cog = TournamentCog(Bot(sent), svc, settings)  # type: ignore[arg-type]
        svc.channel_factory = _threads  # (the cog takes it over for Discord threads)
        cog.outbox = SimpleNamespace(schedule=lambda *a, **k: None)  # type: ignore[assignment]  # no edits here
        return cog

    async def run(where: str, step: Callable[[TournamentCog, Any], Awaitable[Any]], user: int = 1) -> None:
        sent = Sent()
        cog = make_cog(sent)
        await step(cog, interaction(sent, cog.bot, user, manage=user == 1))  # type: ignore[arg-type]
        _check(sent, data, where)

    T = TournamentCog
    await run("standings, none yet", lambda c, i: T.standings.callback(c, i))
    await run("join, none here", lambda c, i: T.join.callback(c, i))
    await run("rules", lambda c, i: T.rules.callback(c, i))
    await run("create, bad rounds list", lambda c, i: T.create.callback(c, i, "wizard", 2, wizard_rounds="many"))
    await run("create, refused", lambda c, i: T.create.callback(c, i, "minchiate", 2, hands_per_round=2))
    await run("create", lambda c, i: T.create.callback(c, i, "wizard", 2, hands_per_round=1, stake=1))
    for uid in (2, 3):
        await run(f"join {uid}", lambda c, i: T.join.callback(c, i), uid)
    await run("join twice", lambda c, i: T.join.callback(c, i), 2)
    await run("withdraw before the start", lambda c, i: T.withdraw.callback(c, i), 2)
    await run("leave", lambda c, i: T.leave.callback(c, i), 3)
    await run("join again", lambda c, i: T.join.callback(c, i), 3)
    await run("start, not the host", lambda c, i: T.start.callback(c, i), 3)
    t = svc.in_channel(CHANNEL)
    assert t is not None
    sent = Sent()
    cog = make_cog(sent)
    with using(PSEUDO):
        embed, view = await cog._signup_embed(t)
    sent.record(embed=embed, view=view)
    _check(sent, data | {"stake=1"}, "sign-up message")
    await run("start", lambda c, i: T.start.callback(c, i))
    await svc.idle()
    await run("standings", lambda c, i: T.standings.callback(c, i))
    await run("button, unknown", lambda c, i: c.on_button(i, t.id, "nope"))
    await run("withdraw", lambda c, i: T.withdraw.callback(c, i), 3)
    # the channel's posts: the round's notice, the table threads' greeting, the withdrawal — owed rows, each written
    # in the reader's language when it is delivered (what the cog's delivery sends)
    sent = Sent()
    owed = await svc.outbox.pending(tournament_id=t.id)
    assert {r.kind for r in owed} >= {"round", "seats", "withdrew"}
    with using(PSEUDO):
        for row in owed:
            where = await svc.owed_text(t, row.kind, row.payload)
            if where is not None:
                sent.record(where[1])
    _check(sent, data, "round posts")
    await run("cancel, not the host", lambda c, i: T.cancel.callback(c, i), 3)
    await run("cancel", lambda c, i: T.cancel.callback(c, i))
    sent = Sent()
    cog = make_cog(sent)
    with using(PSEUDO):
        sent.record(embed=await cog._standings_embed(t))
        cancelled, _view = await cog._signup_embed(t)
        sent.record(embed=cancelled)
    _check(sent, data, "cancelled")
    await svc.db.close()


async def test_the_records_cog_replies_in_the_readers_language(pseudo_readers: None) -> None:
    from cogs.records import RecordsCog

    tables = await make_service()
    data = _cog_data({"Computer"})

    async def run(where: str, step: Callable[[RecordsCog, Any], Awaitable[Any]], user: int = ALICE, **kw: Any) -> None:
        sent = Sent()
        bot = Bot(sent)
        cog = RecordsCog(bot, tables)  # type: ignore[arg-type]
        bot.cogs["Records"] = cog
        await step(cog, interaction(sent, bot, user, **kw))
        _check(sent, data, where)

    def replay(hand: int | None = None, file: Any = None) -> Callable[[RecordsCog, Any], Awaitable[Any]]:
        return lambda c, i: c._commands[0].callback(i, hand, file)

    def export(hand: int | None = None) -> Callable[[RecordsCog, Any], Awaitable[Any]]:
        return lambda c, i: c._commands[1].callback(i, hand)

    await run("replay, no table", replay())
    t = await tables.create(guild_id=GUILD, channel_id=CHANNEL, game_id="wizard", host_id=ALICE, host_name="Alice",
                            options={"rounds": "1-2"})  # fmt: skip
    await tables.join(t.id, BOB, "Bob")
    await tables.add_computer(t.id, ALICE)
    await tables.start(t.id, ALICE)
    await tables.idle()
    await run("replay, nothing finished", replay())
    await run("export, still open", export())
    await _play_out(tables, t.id)
    await run("replay", replay())
    await run("replay, no such hand", replay(9))
    await run("export, not a player", export(), CAROL, manage=False)
    await run("export, no such hand", export(9))
    await run("export hand", export(1))
    sent = Sent()
    bot = Bot(sent)
    cog = RecordsCog(bot, tables)  # type: ignore[arg-type]
    files: list[bytes] = []

    async def keep(content: Any = None, **kw: Any) -> None:
        files.append(kw["file"].fp.read())

    i = interaction(sent, bot)
    i.response.send_message = keep
    await export()(cog, i)
    record = files[0]

    def attachment(raw: bytes) -> Any:
        async def read() -> bytes:
            return raw

        return SimpleNamespace(size=len(raw), read=read)

    await run("replay a file", replay(None, attachment(record)))
    await run("replay a file, no such hand", replay(9, attachment(record)))
    await run("replay, not a text file", replay(None, attachment(b"\xff\xfe\x00")))
    await run("replay, too big", replay(None, SimpleNamespace(size=10**7)))
    broken = b"this is not a hand record\n"
    with pytest.raises(RecordError) as parsed:
        replay_record(parse_record(broken.decode()))
    data.add(str(parsed.value))  # the parser's own words (a line of the file): data here
    await run("replay, invalid record", replay(None, attachment(broken)))
    await run("page of a forgotten file", lambda c, i: c.turn_page(i, "fdeadbeef", 0, 0))
    await run("page of a gone table", lambda c, i: c.turn_page(i, "t999", 0, 0))
    await run("next page", lambda c, i: c.turn_page(i, f"t{t.id}", 0, 1))
    await tables.db.close()


async def test_the_csv_export_stays_machine_readable() -> None:
    """``/ledger export`` keeps its English column keys in every language (programs read them)."""
    svc = await make_service()
    await svc.ledger.adjust(GUILD, ALICE, "stake", 5, BOB, "a correction", name="Alice")
    with using(PSEUDO):
        header = (await svc.ledger.export_csv(GUILD)).splitlines()[0]
    assert header == ",".join(Ledger.EXPORT_COLUMNS)
    await svc.db.close()
