"""Mighty end to end: two people and three computers play two hands through the fake Discord.

Hand 1 — Alice wins the auction from the bid menu, discards 3 cards with the multi-select + Confirm combo,
changes the trump (+2), calls a card Bob holds with the friend-card picker, wins trick 1 with the Mighty
and leads the Joker naming a suit in trick 2. Bob alone learns (by DM) that he is the friend; the channel
learns it exactly when the called card is played (spec §5.3.1, §6.8.1, §9).
Hand 2 — Alice (opener as last declarer, §4.1) keeps her contract and calls a card of her own hand: a
secret solo that only her DM mentions until she plays the card.

Each hand's payments are recomputed here from the played cards with the spec's formulas (§6.7 trick
winner, §7.1–§7.4 scoring), compared with the settlement summary posted in the channel and with the ledger
(zero-sum, booked exactly once). Seed ``SEED`` deals Alice both the Mighty (♠A) and the Joker (kitty
included) and leaves the three computers too weak to bid (hand value ≤ 11 for every trump, both hands),
so the scenario does not depend on how the computers play; the test asserts on what happened.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from fakediscord import FakeDiscord
from fakediscord import state as st
from fakediscord.users import FakeUser

from bot.engine.cards import FRENCH_52_JOKER
from bot.games.mighty.engine import MightyGame, sort_cards
from bot.render.cards import mighty_label

from .driver import ACTION_ID, game_over, quiesce, start_bot, stop_bot, table_message

SEED = 235
STAKE = 3
RANKS = "23456789TJQKA"
POINTS = frozenset(c for c in FRENCH_52_JOKER if c != "JK" and c[0] in "AKQJT")  # §2.2: 20 point cards


def lab(card: str) -> str:
    return mighty_label(card)


def embed_text(message: st.Message, skip: tuple[str, ...] = ()) -> str:
    """The embeds of a message (no component labels: the friend picker lists all 53 cards).

    ``skip`` drops embed fields by name. In the "Recent" field only the lines of the current deal are kept
    (the first events of a deal still show the end of the previous hand, whose cards are no secret).
    """
    parts = [message.content]
    for e in message.embeds:
        parts += [e.get("title") or "", e.get("description") or "", (e.get("footer") or {}).get("text") or ""]
        for f in e.get("fields") or []:
            name, value = f.get("name") or "", f.get("value") or ""
            if name in skip:
                continue
            if name == "Recent":
                lines = value.split("\n")
                starts = [i for i, line in enumerate(lines) if line.startswith("New deal")]
                value = "\n".join(lines[starts[-1] :] if starts else lines)
            parts += [name, value]
    return "\n".join(parts)


def cards_in(text: str) -> list[str]:
    """Card codes whose labels appear in ``text`` (labels are unambiguous: ``A♠`` is not part of ``10♠``)."""
    return [c for c in FRENCH_52_JOKER if lab(c) in text]


def field(message: st.Message, name: str) -> str:
    for e in message.embeds:
        for f in e.get("fields") or []:
            if f.get("name") == name:
                return str(f.get("value") or "")
    return ""


class Human:
    """A person at the table: reads their own DM panel and clicks what a scripted policy wants."""

    def __init__(self, fake: FakeDiscord, user: FakeUser) -> None:
        self.fake = fake
        self.user = user
        self.sent: list[dict[str, Any]] = []

    def panel(self) -> st.Message | None:
        dms = [m for m in self.user.dm_messages() if m.embeds]
        return dms[-1] if dms else None

    def hand(self) -> list[str]:
        p = self.panel()
        return cards_in(field(p, "Your hand")) if p is not None else []

    def offered(self) -> list[tuple[dict[str, Any], str | None, dict[str, Any]]]:
        """(component, select value or None, action) for every choice on the panel; combos as ``combo``."""
        p = self.panel()
        out: list[tuple[dict[str, Any], str | None, dict[str, Any]]] = []
        if p is None:
            return out
        for c in [*p.buttons(), *p.selects()]:
            m = ACTION_ID.match(c.get("custom_id", ""))
            if m is None or c.get("disabled"):
                continue
            arg = c["custom_id"][m.end() :]
            if m["op"] == "act":
                out.append((c, None, json.loads(arg)))
            elif m["op"] == "pick":
                out.extend((c, o["value"], json.loads(o["value"])) for o in c["options"])
            elif m["op"] == "field":
                out.append((c, None, {"type": "combo", "key": arg, "from": [o["value"] for o in c["options"]]}))
        return out

    def version(self) -> int:
        p = self.panel()
        for c in [*p.buttons(), *p.selects()] if p is not None else []:
            m = ACTION_ID.match(c.get("custom_id", ""))
            if m:
                return int(m["ver"])
        return -1

    def can_act(self) -> bool:
        return bool(self.offered())

    async def send(self, action: dict[str, Any]) -> None:
        """Click the button / pick the menu option carrying exactly ``action``; the panel must update."""
        panel = self.panel()
        assert panel is not None
        for comp, value, act in self.offered():
            if act != action:
                continue
            if value is None:
                h = await self.user.click(panel, custom_id=comp["custom_id"])
            else:
                h = await self.user.select(panel, [value], custom_id=comp["custom_id"])
            assert await h.ack() == 7, f"{self.user.name}'s {action} was refused: {(await h.reply()).text()}"
            self.sent.append(action)
            return
        raise AssertionError(f"{action} is not offered to {self.user.name}: {[a for _, _, a in self.offered()]}")

    async def discard(self, cards: list[str]) -> None:
        """The discard combo: pick 3 cards in the multi-select, then Confirm."""
        panel = self.panel()
        assert panel is not None
        sel = next(c for c in panel.selects() if ":field:" in c["custom_id"])
        assert sel["min_values"] == sel["max_values"] == 3 and len(sel["options"]) == 13
        h = await self.user.select(panel, cards, custom_id=sel["custom_id"])
        assert await h.ack() == 6  # deferred: nothing happens before Confirm
        ok = next(b for b in panel.buttons() if ":ok:" in b["custom_id"])
        h = await self.user.click(panel, custom_id=ok["custom_id"])
        assert await h.ack() == 7, (await h.reply()).text()
        self.sent.append({"type": "discard", "cards": sorted(cards)})


# ---------------------------------------------------------------------------------------------- the spec, again
def trick_winner(plays: list[tuple[int, str]], trump: str, number: int, joker_suit: str | None, call: bool) -> int:
    """§6.7, written independently of the engine."""
    mighty = "AD" if trump == "S" else "AS"
    for s, c in plays:
        if c == mighty:
            return s
    if number != 10 and not call:
        for s, c in plays:
            if c == "JK":
                return s
    led = joker_suit if plays[0][1] == "JK" else plays[0][1][-1]
    trumps = [(RANKS.index(c[0]), s) for s, c in plays if c != "JK" and c[-1] == trump]
    if trumps:
        return max(trumps)[1]
    follow = [(RANKS.index(c[0]), s) for s, c in plays if c != "JK" and c[-1] == led]
    if plays[0][1] == "JK":
        follow.append((-1, plays[0][0]))  # §6.5.4: a powerless led Joker is the lowest of its suit
    return max(follow)[1]


def score_hand(actions: list[tuple[int, dict[str, Any]]], stake: int) -> dict[str, Any]:
    """One hand's action log -> declarer, friend, P, S and payments by §6–§7."""
    decl = next(s for s, a in actions if a["type"] == "discard")
    discards = next(a["cards"] for _, a in actions if a["type"] == "discard")
    contract = next(a for _, a in actions if a["type"] == "contract")
    call = next(a for _, a in actions if a["type"] == "call")
    plays = [(s, a) for s, a in actions if a["type"] == "play"]
    assert len(plays) == 50
    b, trump = contract["n"], contract["trump"]
    won: list[list[str]] = [[] for _ in range(5)]
    winners = []
    for i in range(10):
        trick = plays[5 * i : 5 * i + 5]
        cards = [(s, a["card"]) for s, a in trick]
        w = trick_winner(cards, trump, i + 1, trick[0][1].get("suit"), bool(trick[0][1].get("joker_call")))
        winners.append(w)
        won[w] += [c for _, c in cards]
    friend: int | None = None
    if call["kind"] == "card":
        holder = next((s for s, a in plays if a["card"] == call["card"]), decl)  # in the discards: the declarer
        friend = None if holder == decl else holder
    elif call["kind"] == "first_trick":
        friend = None if winners[0] == decl else winners[0]
    side = {decl} if friend is None else {decl, friend}
    p = sum(1 for c in discards if c in POINTS) + sum(1 for s in side for c in won[s] if c in POINTS)
    made = p >= b
    s0 = 2 * (b - 13) + (p - b) if made else b - p
    doublings = (trump == "NT") + (call["kind"] == "none") + (made and p == 20) + (not made and p <= 9)
    score = s0 * 2**doublings
    sign = 1 if made else -1
    pay = [-sign * score] * 5
    if friend is None:
        pay[decl] = 4 * sign * score
    else:
        pay[decl], pay[friend] = 2 * sign * score, sign * score
    return {
        "declarer": decl,
        "friend": friend,
        "points": p,
        "made": made,
        "score": score,
        "winners": winners,
        "payments": [x * stake for x in pay],
        "contract": (b, trump),
        "call": call,
        "discards": discards,
    }


def split_hands(log: list[tuple[int, dict[str, Any]]]) -> list[list[tuple[int, dict[str, Any]]]]:
    """The table's action log cut into hands (no misdeals: the option is off and Alice always bids)."""
    hands: list[list[tuple[int, dict[str, Any]]]] = [[]]
    for seat, action in log:
        hands[-1].append((seat, action))
        if sum(1 for _, a in hands[-1] if a["type"] == "play") == 50:
            hands.append([])
    return [h for h in hands if h]


def parse_payments(text: str) -> dict[str, int]:
    line = next(x for x in text.split("\n") if x.startswith("Payments: "))
    out = {}
    for part in line[len("Payments: ") : -1].split(", "):
        name, amount = part.rsplit(" ", 1)
        out[name] = int(amount)
    return out


# ---------------------------------------------------------------------------------------------- Alice's policy
class AlicePolicy:
    """Bids in a side suit, changes to her best suit (+2), leads the Mighty then the Joker (hand 1);
    keeps the contract and calls one of her own cards (hand 2)."""

    def __init__(self) -> None:
        self.plan: dict[int, dict[str, Any]] = {}
        self.joker_lead: tuple[int, int, str] | None = None  # (hand, trick, named suit)

    def choose(self, game: MightyGame, hand: list[str], offered: list[dict[str, Any]], bob_hand: list[str]) -> Any:
        hn = game.hand_number
        plan = self.plan.setdefault(hn, {})
        kinds = {a["type"] for a in offered}
        if "bid" in kinds or "pass" in kinds:
            if "trump" not in plan:
                suits = "DHC"
                plan["trump"] = max(
                    suits, key=lambda s: (sum(c[-1] == s for c in hand), sum(c[-1] == s and c in POINTS for c in hand))
                )
                plan["bid_suit"] = next(s for s in "DHC" if s != plan["trump"])
            bids = [a for a in offered if a["type"] == "bid" and a["trump"] == plan["bid_suit"] and 14 <= a["n"] <= 18]
            if bids:
                return min(bids, key=lambda a: a["n"])
            return {"type": "bid", "n": 20, "trump": "NT"}  # never needed with this seed
        if "combo" in kinds:
            trump = game.public_view()["bid"]["trump"] if hn else plan["trump"]
            keep_first = sorted(
                hand,
                key=lambda c: (
                    c in ("AS", "JK") or c[-1] == trump,
                    c in POINTS,
                    RANKS.index(c[0]) if c != "JK" else 99,
                ),
            )
            return ("discard", keep_first[:3])
        if "contract" in kinds:
            bid = game.public_view()["bid"]
            want = {"type": "contract", "n": bid["n"] + 2, "trump": plan["trump"]}
            keep = {"type": "contract", "n": bid["n"], "trump": bid["trump"]}
            return want if hn == 0 and want in offered else keep
        if "call" in kinds:
            if hn == 0:  # a card Bob holds (his screen is in the test's hands): Bob becomes the friend
                card = max((c for c in bob_hand if c != "JK"), key=lambda c: RANKS.index(c[0]))
            else:  # one of her own cards: a secret solo
                card = min((c for c in hand if c not in ("AS", "JK")), key=lambda c: RANKS.index(c[0]))
            plan["called"] = card
            return {"type": "call", "kind": "card", "card": card}
        # play
        if hn == 1 and {"type": "play", "card": plan["called"]} in offered and game.public_view()["trick_number"] >= 3:
            return {"type": "play", "card": plan["called"]}  # the secret solo shows itself
        if hn == 0:
            if {"type": "play", "card": "AS"} in offered and not game.public_view()["last_trick"]:
                return {"type": "play", "card": "AS"}
            trump = game.public_view()["contract"]["trump"]
            jk = {"type": "play", "card": "JK", "suit": trump}
            if jk in offered:
                self.joker_lead = (hn, game.public_view()["trick_number"], trump)
                return jk
        return offered[0]


# ---------------------------------------------------------------------------------------------- the test
async def test_two_mighty_hands_friend_secrecy_joker_lead_and_ledger(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    fake = fake_discord
    guild = fake.add_guild("Friends")
    channel = fake.add_channel(guild, "cards")
    alice_u, bob_u = fake.add_user("alice"), fake.add_user("bob")
    bot, task = await start_bot(fake, tmp_path / "t.db", dev_guild=guild.id)
    try:
        assert bot.tables is not None
        bot.tables.seed_factory = lambda: SEED
        h = await alice_u.slash(channel, "mighty new", stake=STAKE, hands=2, weak_hand_misdeal=False)
        assert "table is open" in (await h.reply()).text()
        lobby = await fake.wait_for_message(channel, lambda m: any(b["label"] == "Join" for b in m.buttons()))
        await (await bob_u.click(lobby, label="Join")).ack()
        for n in (1, 2, 3):
            await (await alice_u.click(lobby, label="Add computer")).ack()
            await fake.wait_for(lambda n=n: f"Computer {n}" in fake.message(lobby.id).text())
        await (await alice_u.click(lobby, label="Start")).ack()
        await fake.wait_for(lambda: table_message(fake, channel))
        table = next(iter(bot.tables.tables.values()))
        game = table.game
        assert isinstance(game, MightyGame) and table.seed == SEED
        assert [s.user_id for s in table.seats[:2]] == [alice_u.id, bob_u.id]
        names = table.names
        alice, bob = Human(fake, alice_u), Human(fake, bob_u)
        policy = AlicePolicy()
        rng = random.Random(7)

        seen_hand = -1
        old_ids: set[int] = set()  # channel messages of earlier hands (their cards are no secret any more)
        observed = {
            "bob_friend_dm": 0,
            "friend_hidden": 0,
            "friend_public": 0,
            "solo_dm": 0,
            "solo_hidden": 0,
            "solo_public": 0,
            "kitty": 0,
            "discarded": 0,
            "contract": 0,
        }

        def public_text() -> str:
            texts = []
            tm = table_message(fake, channel)
            for m in fake.channel_messages(channel):
                if m.id in old_ids and (tm is None or m.id != tm.id):
                    continue
                texts.append(embed_text(m, skip=("Previous hand", "Standings")))
            return "\n".join(texts)

        async def check_privacy() -> None:
            nonlocal seen_hand
            await quiesce(bot)
            if table.status != "running" or game.phase == "over":
                return
            if game.hand_number != seen_hand:
                seen_hand = game.hand_number
                old_ids.update(m.id for m in fake.channel_messages(channel))
            pub = game.public_view()
            public = public_text()
            in_hand = game.phase in ("discard", "change", "call", "play")
            shown = set(pub.get("kitty") or []) | {pub.get("mighty"), pub.get("ripper"), game._call_card}
            hidden = {c for s in range(5) for c in game.view(s)["hand"]} - shown
            for c in hidden:
                assert lab(c) not in public, f"{c} (in a hand) shown in the channel during {game.phase}"
            discards = set(game._discards) - shown if in_hand else set()
            for c in discards:
                assert lab(c) not in public, f"discard {c} shown in the channel before the end of the hand"
            for seat, human in ((0, alice), (1, bob)):
                panel = human.panel()
                assert panel is not None
                dm = embed_text(panel)
                mine = set(game.view(seat)["hand"]) | (set(game._discards) if seat == game._declarer else set())
                for c in (hidden | discards) - mine:
                    assert lab(c) not in dm, f"{c} of another seat in {human.user.name}'s DM"
            tm = table_message(fake, channel)
            assert tm is not None
            desc = tm.embeds[0]["description"]
            alice_dm, bob_dm = embed_text(alice.panel()), embed_text(bob.panel())  # type: ignore[arg-type]
            assert "You are the friend" not in alice_dm
            # what the channel learns between the auction and the first trick (§5.1, §5.2.2, §9)
            if game.phase == "discard":
                assert field(tm, "Kitty (face up)") == " ".join(lab(c) for c in sort_cards(game._kitty))
                observed["kitty"] += 1
            if game.phase in ("change", "call"):
                assert f"{names[0]} discarded 3 cards." in public
                observed["discarded"] += 1
            if game.phase == "call":
                n, trump = pub["contract"]["n"], pub["contract"]["trump"]
                mighty, ripper = ("AD" if trump == "S" else "AS"), ("3S" if trump == "C" else "3C")  # §2.3
                assert f"by {names[0]} — Mighty {lab(mighty)}, Ripper {lab(ripper)}." in desc
                assert f"**{n} " in desc
                observed["contract"] += 1
            if game.phase != "play":
                assert "You are the friend" not in bob_dm and "secret solo" not in alice_dm
                return
            # friend secrecy (§5.3.1, §6.8, §9)
            called = game._call_card
            played = called in game._played
            if game.hand_number == 0:
                assert game._declarer == 0 and game._friend == 1
                assert "You are the friend" in bob_dm and "secret solo" not in alice_dm
                observed["bob_friend_dm"] += 1
                if played:
                    assert f"— {names[1]}." in desc
                    observed["friend_public"] += 1
                else:
                    assert "— unknown." in desc and "is the friend" not in public
                    observed["friend_hidden"] += 1
            else:
                assert game._declarer == 0 and game._friend is None
                assert "secret solo" in alice_dm and "You are the friend" not in bob_dm
                assert "secret solo" not in bob_dm
                observed["solo_dm"] += 1
                if played:
                    assert "— none." in desc  # "the declarer played the called card: no friend"
                    observed["solo_public"] += 1
                else:
                    assert "— unknown." in desc and "no friend" not in public and "secret solo" not in public
                    observed["solo_hidden"] += 1

        joker_checked = False
        for _ in range(400):
            await fake.wait_for(
                lambda: game_over(fake, channel) or alice.can_act() or bob.can_act() or fake.rejected,
                timeout=30,
                description="a human with choices, or the end of the game",
            )
            assert not fake.rejected, f"Discord rejected a request of the bot: {fake.rejected[-1]}"
            await check_privacy()
            if game_over(fake, channel):
                break
            actor = next((x for x in (alice, bob) if x.can_act()), None)
            if actor is None:
                continue
            assert actor.version() == table.version, "a panel shows choices of an older state"
            offered = [a for _, _, a in actor.offered()]
            if actor is bob:
                if policy.joker_lead is not None and not joker_checked:
                    _, number, suit = policy.joker_lead
                    if game.public_view()["trick_number"] == number:
                        # Bob plays right after Alice: the channel shows the Joker and the named suit,
                        # and Bob may only follow that suit if he can (§6.5.3).
                        assert f"{names[0]}: {lab('JK')} (calls " in public_text()
                        has = [c for c in bob.hand() if c[-1] == suit]
                        if has:
                            assert {a["card"] for a in offered} <= set(has) | {"AS"}
                        joker_checked = True
                if any(a["type"] == "pass" for a in offered):
                    await bob.send({"type": "pass"})
                else:  # random cards; the friend keeps the called card until trick 6, then plays it
                    called = {"type": "play", "card": (game.public_view()["friend_call"] or {}).get("card")}
                    if called in offered and game.public_view()["trick_number"] >= 4:
                        await bob.send(called)
                    else:
                        await bob.send(rng.choice([a for a in offered if a != called] or offered))
                continue
            choice = policy.choose(game, alice.hand(), offered, bob.hand())
            if isinstance(choice, tuple):
                await alice.discard(choice[1])
            else:
                await alice.send(choice)
        assert game_over(fake, channel), "the two hands did not finish"
        await quiesce(bot)

        # -- what happened: the scenario really occurred
        hands = split_hands(table.log)
        assert len(hands) == 2
        h1, h2 = (score_hand(x, STAKE) for x in hands)
        assert h1["declarer"] == 0 and h1["friend"] == 1 and h1["call"]["card"] == policy.plan[0]["called"]
        bid1 = next(a for s, a in hands[0] if a["type"] == "bid" and s == 0)
        assert h1["contract"][1] != bid1["trump"] and h1["contract"][0] >= bid1["n"] + 2  # a trump change
        assert {"type": "bid", "n": bid1["n"], "trump": bid1["trump"]} in alice.sent
        assert hands[0][-50][1]["card"] == "AS" and hands[0][-50][0] == 0 and h1["winners"][0] == 0
        assert hands[0][-45] == (0, {"type": "play", "card": "JK", "suit": h1["contract"][1]})
        assert h1["winners"][1] == 0 and joker_checked
        assert h2["declarer"] == 0 and h2["friend"] is None and h2["call"]["card"] == policy.plan[1]["called"]
        # every secrecy check ran (a called card played only in the last trick leaves no point to look after)
        late = [
            x
            for x, card in ((0, h1["call"]["card"]), (1, h2["call"]["card"]))
            if [a.get("card") for _, a in hands[x] if a["type"] == "play"].index(card) >= 45
        ]
        for key, n in observed.items():
            assert n or (key == "friend_public" and 0 in late) or (key == "solo_public" and 1 in late), observed
        assert all(a["type"] == "pass" for a in bob.sent if a["type"] in ("bid", "pass"))

        # -- settlement summaries in the channel and the ledger against the recomputation
        summaries = [m.text() for m in fake.channel_messages(channel) if m.content.startswith("**Mighty — hand")]
        assert len(summaries) == 2
        rows = await bot.db.fetchall(  # type: ignore[union-attr]
            "SELECT s.key, s.hand_index, e.seat, e.amount, e.currency FROM entries e"
            " JOIN settlements s ON s.id = e.settlement_id WHERE s.table_id = ? ORDER BY s.hand_index, e.seat",
            (table.id,),
        )
        keys = await bot.db.fetchall("SELECT key FROM settlements WHERE table_id = ?", (table.id,))  # type: ignore[union-attr]
        assert sorted(k[0] for k in keys) == [f"table:{table.id}:unit:0", f"table:{table.id}:unit:1"]
        for i, (mine, text) in enumerate(zip((h1, h2), summaries, strict=True)):
            assert f"Points {mine['points']} vs {20 - mine['points']}: {'made' if mine['made'] else 'failed'}" in text
            posted = parse_payments(text)
            assert posted == {names[s]: mine["payments"][s] for s in range(5)}, (i, text, mine)
            booked = [(r[2], r[3]) for r in rows if r[1] == i]
            assert booked == list(enumerate(mine["payments"])), (i, booked, mine)
            assert all(r[4] == "stake" for r in rows if r[1] == i)
            assert sum(mine["payments"]) == 0
            assert f"Discards: {' '.join(lab(c) for c in sort_cards(mine['discards']))}" in text  # §8.1 reveal
        assert len(rows) == 10
        if h1["friend"] is not None:
            assert f"Friend: {names[1]} (called {lab(h1['call']['card'])})." in summaries[0]
        assert f"No friend: secret solo (called {lab(h2['call']['card'])})." in summaries[1]
        totals = [h1["payments"][s] + h2["payments"][s] for s in range(5)]
        final = next(m.text() for m in fake.channel_messages(channel) if "game over" in m.text())
        for s in range(5):
            assert f"{names[s]}: {totals[s]:+d} stake" in final
        fake.assert_clean()
        assert not fake.late_acks
    finally:
        await stop_bot(bot, task)
