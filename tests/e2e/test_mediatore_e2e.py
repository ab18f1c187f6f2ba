"""Mediatore end to end: the real bot against the fake Discord, three clicking users and one computer.

The humans follow a policy that makes the wanted contracts happen whatever the computer does: in each
hand the first human to speak bids the contract still missing from the scenario (the others pass), calls
a card held by another human (or, for "alone", a card of the monte), exchanges through the select menus +
Confirm, and plays legal cards, adding a signal when one is offered. Hands are played until every wanted
contract has been played (with a cap). At quiescent points the test checks what each channel message and
each DM shows against the engine state (hidden cards, the secret Chiamo partnership); at the end it
recomputes every hand's payment from the spec (§7-§8 of docs/rules/mediatore.md) using only the trick log
and the monte of the settlement summary, and compares the ledger rows and the posted settlement texts.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from fakediscord import FakeDiscord
from fakediscord import state as st
from fakediscord.users import FakeUser

from bot.games.mediatore.engine import MediatoreGame
from bot.render.cards import italian_label

from .driver import Player, quiesce, start_bot, stop_bot, table_message

SEED = 20261129
MAX_HANDS = 9
# spec §2.3/§2.5: card values in thirds; §2.2 order for "high card"
THIRDS = {"A": 3, "3": 1, "2": 1, "K": 1, "N": 1, "J": 1, "7": 0, "6": 0, "5": 0, "4": 0}
ORDER = "32AKNJ7654"
# spec §8: what each defender pays (1 v 3); the Mediatore giver pays 6
DEFENDER_BASE = {"chiamo": 4, "mediatore": 8, "solo": 12, "solissimo": 16, "arcisolissimo": 18}


def lab(card: str) -> str:
    return italian_label(card)


def strength(card: str) -> tuple[int, int]:
    return THIRDS[card[0]], -ORDER.index(card[0])


def action_of(custom_id_or_value: str, game: MediatoreGame, seat: int) -> dict[str, Any]:
    """The action a button's custom_id (or a select option's value) stands for."""
    arg = custom_id_or_value.split(":", 4)[4] if custom_id_or_value.startswith(("tb:", "ts:")) else custom_id_or_value
    if arg.startswith("#"):
        return dict(game.legal_actions(seat)[int(arg[1:])])
    out: dict[str, Any] = json.loads(arg)
    return out


# The test reads the engine (in-process) only to know what is hidden and to steer the humans' policy.
def monte_of(game: MediatoreGame) -> list[str]:
    return list(game._monte)


def partner_of(game: MediatoreGame) -> int | None:
    return game._partner


@dataclass
class Plan:
    """What the humans aim for in the current hand."""

    contract: str | None = None  # the contract the first human bids
    variant: str | None = None  # chiamo: "partner" | "alone"; mediatore: "giver"
    bidder: int | None = None  # the human seat that bids
    partner: int | None = None  # the human seat holding the card to call
    signals: list[str] = field(default_factory=list)  # signals the humans gave
    exchanges: list[tuple[str, list[str], str | None]] = field(default_factory=list)


class MediatorePlayer(Player):
    """A human with a purpose: bids and calls per the plan, exchanges via the menus, signals when offered."""

    def __init__(self, fake: FakeDiscord, user: FakeUser, rng: random.Random, table: Any, plan: Plan) -> None:
        super().__init__(fake, user, rng)
        self.table = table
        self.plan = plan

    async def act(self) -> Any:
        panel = self.panel()
        assert panel is not None
        game: MediatoreGame = self.table.game
        seat = self.table.seat_of(self.user.id)
        comps = self.choices()
        self.clicks += 1
        fields = {c["custom_id"].rsplit(":", 1)[1]: c for c in comps if ":field:" in c["custom_id"]}
        if fields:  # the exchange: 4 discards (+1 card back to the Mediatore giver), then Confirm
            offered = [o["value"] for o in fields["discard"]["options"]]
            assert sorted(offered) == sorted(game.view(seat)["hand"]) and len(offered) in (13, 14)
            low = sorted(offered, key=strength)
            discard, give = low[:4], (low[4] if "give" in fields else None)
            assert fields["discard"]["min_values"] == fields["discard"]["max_values"] == 4
            await (await self.user.select(panel, discard, custom_id=fields["discard"]["custom_id"])).ack()
            if give is not None:
                assert fields["give"]["min_values"] == fields["give"]["max_values"] == 1
                await (await self.user.select(panel, [give], custom_id=fields["give"]["custom_id"])).ack()
            self.plan.exchanges.append((game.public_view()["contract"], discard, give))
            ok = next(c for c in comps if ":ok:" in c["custom_id"])
            return await self.user.click(panel, custom_id=ok["custom_id"])
        options: list[tuple[dict[str, Any], dict[str, Any], str | None]] = []  # (action, component, value)
        for c in comps:
            if c["type"] == 2:
                options.append((action_of(c["custom_id"], game, seat), c, None))
            else:
                options += [(action_of(o["value"], game, seat), c, o["value"]) for o in c["options"]]
        kinds = {a["type"] for a, _, _ in options}
        want: dict[str, Any] | None = None
        if "pass" in kinds:
            target = {"type": "bid", "contract": self.plan.contract}
            mine = self.plan.bidder in (None, seat)
            want = target if mine and any(a == target for a, _, _ in options) else {"type": "pass"}
        elif "call" in kinds:
            if self.plan.variant == "alone":
                card = max(monte_of(game), key=strength)
            elif self.plan.partner is not None:
                card = max(game.view(self.plan.partner)["hand"], key=strength)
            else:
                calls = [a["card"] for a, _, _ in options]
                card = next((c for c in calls if c.startswith("3")), calls[0])
            want = {"type": "call", "card": card}
        else:
            pv = game.public_view()
            called = pv["called_card"]
            early = self.plan.variant == "partner" and seat == self.plan.partner and pv["trick_number"] >= 2
            if early and called and {"type": "play", "card": called} in [a for a, _, _ in options]:
                want = {"type": "play", "card": called}  # the partner shows up mid-hand: the reveal is public
            else:
                want = None
        if want is None:
            signalled = [a for a, _, _ in options if a.get("signal")]
            if signalled and self.rng.random() < 0.6:
                want = self.rng.choice(signalled)
                self.plan.signals.append(want["signal"])
            else:
                want = self.rng.choice([a for a, _, _ in options if not a.get("signal")])
        _, comp, value = next(o for o in options if o[0] == want)
        if value is None:
            return await self.user.click(panel, custom_id=comp["custom_id"])
        return await self.user.select(panel, [value], custom_id=comp["custom_id"])


# ------------------------------------------------------------------------------------------ spec payments
def spec_payments(summary: dict[str, Any], giver: int | None) -> tuple[list[int], int | None, bool, bool]:
    """§7-§8 from the trick log and the monte only: (per-seat deltas × stake, partner, made, capotto)."""
    contract, bidder, called = summary["contract"], summary["bidder"], summary["called_card"]
    tricks = summary["tricks"]
    assert len(tricks) == 9
    partner = None
    if contract == "chiamo":  # §5.2.4: the partner is whoever played the called card (not the bidder)
        for leader, cards, _w, _sig in tricks:
            for i, c in enumerate(cards):
                if c == called and (leader + i) % 4 != bidder:
                    partner = (leader + i) % 4
    side = {bidder} | ({partner} if partner is not None else set())
    for leader, cards, winner, _sig in tricks:  # §6.3: highest card of the led suit wins
        led = cards[0][1]
        best = max((c for c in cards if c[1] == led), key=lambda c: -ORDER.index(c[0]))
        assert winner == (leader + cards.index(best)) % 4
    side_thirds = sum(sum(THIRDS[c[0]] for c in cards) for _l, cards, w, _s in tricks if w in side)
    last_to_side = tricks[-1][2] in side
    monte = summary["final_monte"]
    assert len(monte) == 4
    if last_to_side:  # §5.7 + §7.2: the monte and 1 point go with the last trick
        side_thirds += sum(THIRDS[c[0]] for c in monte) + 3
    side_tricks = sum(1 for _l, _c, w, _s in tricks if w in side)
    capotto = side_tricks in (0, 9)
    score = 11 if side_tricks == 9 else 0 if side_tricks == 0 else side_thirds // 3
    made = score >= 6
    sign = 1 if made else -1
    bonus = 2 if capotto else 0
    deltas = [0, 0, 0, 0]
    if contract == "chiamo" and partner is not None:
        for s in range(4):
            if s == bidder:
                deltas[s] = sign * (5 + bonus)
            else:
                deltas[s] = sign * (3 + bonus) if s == partner else -sign * (4 + bonus)
    else:
        for s in range(4):
            if s != bidder:
                base = 6 if contract == "mediatore" and s == giver else DEFENDER_BASE[contract]
                deltas[s] = -sign * (base + bonus)
        deltas[bidder] = -sum(deltas)
    unit = summary["stake_unit"]
    return [d * unit for d in deltas], partner, made, capotto


# ------------------------------------------------------------------------------------------ the checker
class Watch:
    """Privacy checks at quiescent points, plus what happened in each hand."""

    def __init__(self, fake: FakeDiscord, bot: Any, channel: st.Channel, table: Any, users: list[FakeUser]) -> None:
        self.fake, self.bot, self.channel, self.table, self.users = fake, bot, channel, table, users
        self.hand = -1
        self.mark = 0
        self.checks = 0
        self.secret_checks = 0  # checks made while a Chiamo partnership was still secret
        self.alone_secret_checks = 0
        self.giveback_checks = 0
        self.reveals_seen: list[str] = []
        self.holders: dict[int, int | None] = {}  # hand -> holder of the called card when it was called

    def names(self) -> list[str]:
        return list(self.table.names)

    def dm_text(self, user: FakeUser, menus: bool = True) -> str:
        """What the user's DM shows; ``menus=False`` leaves out the component labels (the call menu lists
        every card the bidder lacks, by design)."""
        out = []
        for m in user.dm_messages():
            if not m.embeds:
                continue
            if menus:
                out.append(m.text())
            else:
                for e in m.embeds:
                    out += [e.get("title") or "", e.get("description") or "", (e.get("footer") or {}).get("text", "")]
                    out += [f"{f.get('name')}\n{f.get('value')}" for f in e.get("fields") or []]
        return "\n".join(out)

    async def check(self) -> None:
        await quiesce(self.bot)
        game: MediatoreGame = self.table.game
        if self.table.status != "running" or game is None:
            return
        self.checks += 1
        msgs = self.fake.channel_messages(self.channel)
        if game.hand_number != self.hand:
            self.hand, self.mark = game.hand_number, len(msgs)
        tm = table_message(self.fake, self.channel)
        assert tm is not None
        public_now = tm.text() + "\n" + "\n".join(m.text() for m in msgs[self.mark :] if m.id != tm.id)
        pv = game.public_view()
        hands = [game.view(s)["hand"] for s in range(4)]
        monte = set(monte_of(game))
        public_cards = set(pv.get("monte_exposed") or []) | ({pv["called_card"]} if pv["called_card"] else set())
        hidden = ({c for h in hands for c in h} | monte) - public_cards
        for c in hidden:
            assert lab(c) not in public_now, f"hidden card {c} shown in the channel (phase {game.phase})"
        contract, bidder = pv["contract"], pv["bidder"]
        names = self.names()
        for user in self.users:
            seat = self.table.seat_of(user.id)
            view = game.view(seat)
            known = set(hands[seat])
            if seat == bidder and contract in ("chiamo", "mediatore", "solo", "solissimo"):
                known |= monte | set(view["private"].get("monte_seen", []))
            if view["private"].get("given_back"):
                known.add(view["private"]["given_back"])
            dm = self.dm_text(user, menus=not (game.phase == "call" and seat == bidder))
            for c in hidden - known:
                assert lab(c) not in dm, f"{c} (not {user.name}'s) shown in {user.name}'s DM"
        # §5.3 / §11: the card the Mediatore bidder gives back is known to the bidder and the giver only.
        returned = game.view(bidder)["private"].get("given_back") if bidder is not None else None
        if contract == "mediatore" and returned:
            giver = pv["giver"]
            assert f"{names[giver]} handed the called card over" in tm.text()
            for user in self.users:
                seat = self.table.seat_of(user.id)
                dm = self.dm_text(user)
                has = f"Card you received\n{lab(returned)}" in dm
                assert has == (seat == giver), f"{user.name}: received-card line {has}"
            self.giveback_checks += 1
        # §5.2 / §11: the Chiamo partnership is secret until the called card is played.
        if contract == "chiamo" and pv["called_card"]:
            hn = game.hand_number
            holder = self.holders[hn] if hn in self.holders else partner_of(game)
            status = pv["partner_status"]
            if status == "hidden":
                self.secret_checks += 1
                assert "Partner: secret until the called card is played" in tm.text()
                for bad in ("'s partner", "no partner", "plays alone", "play alone", "hold the called card"):
                    assert bad not in public_now, f"partner secret leaked in the channel: {bad!r}"
                for user in self.users:
                    seat = self.table.seat_of(user.id)
                    dm = self.dm_text(user)
                    if seat == holder:
                        assert f"you are **{names[bidder]}'s partner**" in dm, f"{user.name} not told privately"
                    else:
                        assert "hold the called card" not in dm and "'s partner**" not in dm
                    if seat == bidder and holder is None:
                        self.alone_secret_checks += 1
                        assert "**you play alone** (nobody else knows)" in dm
                    elif seat != bidder:
                        assert "play alone" not in dm and "plays alone" not in dm, f"{user.name} told 'alone'"
            elif game.phase == "play":
                if holder is not None:
                    text = f"{names[holder]} played the called card and is {names[bidder]}'s partner!"
                    assert text in tm.text() or f"Partner: {names[holder]}" in tm.text()
                else:
                    assert f"{names[bidder]} plays alone" in tm.text()
                self.reveals_seen.append(status)


def bad_requests(fake: FakeDiscord) -> list[Any]:
    """Requests the fake refused as malformed (400), e.g. a panel with duplicated custom_ids."""
    return [r for r in fake.rejected if r[2] == 400]


async def new_table(
    fake: FakeDiscord, bot: Any, channel: st.Channel, host: FakeUser, others: list[FakeUser], **options: Any
) -> Any:
    bot.tables.seed_factory = lambda: SEED
    h = await host.slash(channel, "mediatore new", **options)
    assert "table is open" in (await h.reply()).text()
    lobby = await fake.wait_for_message(channel, lambda m: any(b["label"] == "Join" for b in m.buttons()))
    for user in others:
        await (await user.click(lobby, label="Join")).ack()
    await (await host.click(lobby, label="Add computer")).ack()
    await fake.wait_for(lambda: "Computer 1" in fake.message(lobby.id).text())
    await (await host.click(lobby, label="Start")).ack()
    await fake.wait_for(lambda: table_message(fake, channel))
    return next(iter(bot.tables.tables.values()))


async def play_scenario(
    fake: FakeDiscord,
    bot: Any,
    channel: st.Channel,
    table: Any,
    users: list[FakeUser],
    wanted: list[tuple[str, str | None]],
    plan: Plan,
) -> tuple[Watch, list[MediatorePlayer], list[tuple[str, str | None]]]:
    """Play whole hands until every wanted (contract, variant) was played with a human bidder."""
    watch = Watch(fake, bot, channel, table, users)
    players = [MediatorePlayer(fake, u, random.Random(i), table, plan) for i, u in enumerate(users)]
    human_seats = [table.seat_of(u.id) for u in users]
    done: list[tuple[str, str | None]] = []
    for _ in range(MAX_HANDS):
        missing = [w for w in wanted if w not in done]
        if not missing:
            break
        game: MediatoreGame = table.game
        order = [(game.view(0)["dealer"] + 1 + i) % 4 for i in range(4)]
        plan.contract, plan.variant = missing[0]
        plan.bidder = next(s for s in order if s in human_seats)
        plan.partner = None
        if plan.variant in ("partner", "giver"):
            plan.partner = next(s for s in order if s in human_seats and s != plan.bidder)
        n = len(game.settlements())
        hand_no = game.hand_number

        def settled_or_actor(game: MediatoreGame = game, n: int = n) -> Any:
            if bad_requests(fake):  # fail at once, not after a 30 s wait for a panel that never came
                return True
            return len(game.settlements()) > n or next((p for p in players if p.can_act()), None)

        while len(game.settlements()) == n:
            actor = await fake.wait_for(
                settled_or_actor,
                timeout=30,
                description="a human with choices, or the end of the hand",
            )
            assert not bad_requests(fake), f"Discord rejected the bot's request: {bad_requests(fake)[-1]}"
            if actor is True:
                break
            await watch.check()
            if not actor.can_act():
                continue
            if game.phase == "call" and plan.variant is not None:  # who holds the card the human will call
                watch.holders[hand_no] = plan.partner if plan.variant != "alone" else None
            handle = await actor.act()
            await handle.ack()
        s = game.settlements()[n].summary
        if s["bidder"] == plan.bidder and s["contract"] == plan.contract:
            variant = plan.variant
            if plan.variant == "alone":
                assert s["called_in_monte"] and s["partner"] is None
            elif plan.variant == "partner":
                assert s["partner"] == plan.partner
            elif plan.variant == "giver":
                assert s["giver"] == plan.partner
            done.append((plan.contract, variant))
    return watch, players, done


async def check_ledger(fake: FakeDiscord, bot: Any, channel: st.Channel, table: Any) -> list[dict[str, Any]]:
    """Every settled hand: one zero-sum ledger settlement with the spec's payments, exactly once."""
    await quiesce(bot)  # the engine settles inside apply(); the booking transaction may still be running
    game: MediatoreGame = table.game
    settled = game.settlements()
    rows = await bot.db.fetchall(
        "SELECT s.hand_index, s.summary_json, e.seat, e.amount, e.currency, e.kind FROM entries e"
        " JOIN settlements s ON s.id = e.settlement_id WHERE s.table_id = ? ORDER BY s.hand_index, e.seat",
        (table.id,),
    )
    assert len(rows) == 4 * len(settled)
    names = table.names
    posted = [m.text() for m in fake.channel_messages(channel) if "Payments" in m.text()]
    assert len(posted) == len(settled), "one settlement message per hand"
    summaries = []
    for i in range(len(settled)):
        mine = [r for r in rows if r[0] == i]
        assert [r[2] for r in mine] == [0, 1, 2, 3] and {r[4] for r in mine} == {"stake"}
        assert {r[5] for r in mine} == {"hand"}
        summary = json.loads(mine[0][1])
        giver = summary["giver"]
        expected, partner, made, capotto = spec_payments(summary, giver)
        amounts = [r[3] for r in mine]
        assert amounts == expected, f"hand {i}: ledger {amounts} != spec {expected} ({summary['contract']})"
        assert sum(amounts) == 0
        assert summary["made"] == made and summary["capotto"] == capotto
        if summary["contract"] == "chiamo":
            assert summary["partner"] == partner
        text = posted[i]
        if summary["contract"] == "chiamo":  # §11 end of hand: the partnership is public now
            who = f"Partner: {names[partner]}" if partner is not None else "The called card was in the monte"
            assert who in text
        if summary["contract"] == "mediatore" and summary["returned_card"]:
            assert f"Card given back: {lab(summary['returned_card'])}" in text
        for seat, x in enumerate(expected):
            assert f"• {names[seat]}: {'+' if x > 0 else ''}{x}\n" in text + "\n", f"hand {i}: {names[seat]} {x}"
        summaries.append(summary)
    return summaries


async def test_chiamo_and_solo_to_the_end_by_vote(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    fake = fake_discord
    guild = fake.add_guild("Friends")
    channel = fake.add_channel(guild, "carte")
    alice, bob, carol = fake.add_user("alice"), fake.add_user("bob"), fake.add_user("carol")
    bot, task = await start_bot(fake, tmp_path / "t.db", dev_guild=guild.id)
    try:
        table = await new_table(fake, bot, channel, alice, [bob, carol], hands=0, stake=2)
        users = [alice, bob, carol]
        plan = Plan()
        wanted = [("chiamo", "partner"), ("chiamo", "alone"), ("solo", None)]
        watch, players, done = await play_scenario(fake, bot, channel, table, users, wanted, plan)
        assert sorted(done, key=str) == sorted(wanted, key=str), f"scenario not reached: {done}"
        assert watch.secret_checks > 0 and watch.alone_secret_checks > 0
        assert "revealed" in watch.reveals_seen  # the partner played the called card mid-hand
        assert plan.signals, "no human signal was offered/used"
        assert any(e[0] == "chiamo" for e in plan.exchanges) and any(e[0] == "solo" for e in plan.exchanges)
        # hands=0: everybody votes to stop, the hand in progress is still played and scored
        tm = table_message(fake, channel)
        assert tm is not None
        n_before = len(table.game.settlements())
        for user in users:
            reply = await (await user.click(tm, label="Vote to stop")).reply()
            assert reply.flags & 64 and "vote is counted" in reply.text()
        await fake.wait_for_message(channel, lambda m: "Everyone agreed" in m.text())

        async def finish() -> None:
            while table.status == "running":
                actor = await fake.wait_for(
                    lambda: table.status != "running" or next((p for p in players if p.can_act()), None),
                    timeout=30,
                )
                if actor is True:
                    break
                await watch.check()
                if actor.can_act():
                    await (await actor.act()).ack()

        plan.contract, plan.variant, plan.bidder, plan.partner = "chiamo", None, None, None
        await finish()
        await quiesce(bot)
        await fake.wait_for_message(channel, lambda m: "game over" in m.text())
        assert len(table.game.settlements()) == n_before + 1  # the hand in progress, then the end
        await check_ledger(fake, bot, channel, table)
        assert table.status == "finished"
        fake.assert_clean()
        assert not fake.late_acks and not bad_requests(fake)
    finally:
        await stop_bot(bot, task)


async def test_mediatore_with_give_back_then_host_ends(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    fake = fake_discord
    guild = fake.add_guild("Friends")
    channel = fake.add_channel(guild, "carte")
    alice, bob, carol = fake.add_user("alice"), fake.add_user("bob"), fake.add_user("carol")
    bot, task = await start_bot(fake, tmp_path / "t.db", dev_guild=guild.id)
    try:
        table = await new_table(fake, bot, channel, alice, [bob, carol], hands=0)
        users = [alice, bob, carol]
        plan = Plan()
        wanted = [("mediatore", "giver")]
        watch, _, done = await play_scenario(fake, bot, channel, table, users, wanted, plan)
        assert done == wanted and watch.giveback_checks > 0
        ex = [e for e in plan.exchanges if e[0] == "mediatore"]
        assert ex and ex[0][2] is not None  # the +1 give-back field was offered and used
        summaries = await check_ledger(fake, bot, channel, table)
        med = next(s for s in summaries if s["contract"] == "mediatore")
        assert med["returned_card"] == ex[0][2] and sorted(med["discards"]) == sorted(ex[0][1])
        # the host ends the session mid-hand: the unfinished hand is not scored
        await quiesce(bot)
        n = len(table.game.settlements())
        tm = table_message(fake, channel)
        assert tm is not None
        refused = await (await bob.click(tm, label="End Mediatore table")).reply()
        assert "Only the host" in refused.text()
        confirm = await (await alice.click(tm, label="End Mediatore table")).reply()
        assert confirm.flags & 64
        await (await alice.click(confirm, label="Yes")).ack()
        await fake.wait_for_message(channel, lambda m: "game over" in m.text())
        await quiesce(bot)
        assert table.status == "finished" and len(table.game.settlements()) == n
        await check_ledger(fake, bot, channel, table)
        fake.assert_clean()
        assert not fake.late_acks and not bad_requests(fake)
    finally:
        await stop_bot(bot, task)
