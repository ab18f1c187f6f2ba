"""Minchiate end to end: the real bot in-process against the fake Discord, two users and two computers.

One full deal, every decision a real slash command, click or select: the lobby and ``/minchiate swap``
(partners sit opposite: seats 1+3 v 2+4), the dealer's exact-count discard menu, the per-combination
declarations ("declare all" is the default), then 21 tricks. At every quiescent point the channel and each
DM are checked against the §10 privacy table of ``docs/rules/minchiate.md``, and the public
running difference / resti are checked against a recomputation made here from the public facts of the
deal and the table's action log (spec §2.3, §4, §7, §8), written independently of the engine. At the end
the same recomputation must match the settlement message in the channel and the ledger rows.
"""

from __future__ import annotations

import math
import random
import re
from pathlib import Path
from typing import Any

from fakediscord import FakeDiscord
from fakediscord import state as st

from bot.games.minchiate.engine import MinchiateGame
from bot.games.minchiate.rules import combo_name

from .driver import Player, action_components, game_over, play_until, quiesce, start_bot, stop_bot, table_message

#: A deal (found offline with the engine alone: nothing before the play depends on a computer's choice)
#: where, once seats 2 and 3 are swapped (alice, Computer 1, bob, Computer 2), bob (seat 3) deals and must
#: discard 3 of his 12 discardable cards (one exact-count menu); alice holds one run (T3-T5, 9 points),
#: bob three combinations (T36-T38 35, T1+T40+Matto 20, three Kings 20) and the exposed Matto; the
#: computers hold no combination, so bob declaring two of his three converts a resto before the play.
SEED = 464
STAKE = 2
MATTO = "MATTO"
SUITS = ("Co", "Cu", "Sw", "Ba")
SUIT_SYMBOL = {"Co": "🪙", "Cu": "🏆", "Sw": "⚔️", "Ba": "🪵"}


# ============================================================================ an independent scorer (spec)


def _resti(n: int) -> str:
    """A team's resti as the English catalogue writes them (one resto, any other number resti)."""
    return f"{n} resto" if n == 1 else f"{n} resti"


def points(card: str) -> int:
    """§2.3 card points."""
    if card == MATTO:
        return 5
    if card[0] == "T":
        n = int(card[1:])
        if n >= 36:
            return 10
        if 30 <= n <= 35 or n in (1, 10, 13, 20, 28):
            return 5
        return 3 if 2 <= n <= 5 else 0
    return 5 if card.endswith("K") else 0


def suit(card: str) -> str:
    return "M" if card == MATTO else "T" if card[0] == "T" else card[:2]


def strength(card: str) -> int:
    """§2.2: trumps by number above everything; K Q C F over pips; Coins/Cups pips reversed."""
    if card[0] == "T":
        return 100 + int(card[1:])
    rank = card[2:]
    courts = {"F": 11, "C": 12, "Q": 13, "K": 14}
    if rank in courts:
        return courts[rank]
    return 11 - int(rank) if card[:2] in ("Co", "Cu") else int(rank)


def trick_winner(plays: list[tuple[int, str]]) -> int:
    """§7.5: highest trump, else the highest card of the suit of the first non-Matto card."""
    cards = [(s, c) for s, c in plays if c != MATTO]
    trumps = [(s, c) for s, c in cards if suit(c) == "T"]
    if trumps:
        return max(trumps, key=lambda p: strength(p[1]))[0]
    led = suit(cards[0][1])
    return max(((s, c) for s, c in cards if suit(c) == led), key=lambda p: strength(p[1]))[0]


def combinations(cards: list[str]) -> list[list[str]]:
    """§4.7: maximal runs in 1-5 and 28-40, T1+T40+Matto, T1+T13+T28, the tens, three or four Kings."""
    held = set(cards)
    out: list[list[str]] = []
    for lo, hi in ((1, 5), (28, 40)):
        run: list[str] = []
        for n in range(lo, hi + 2):
            if n <= hi and f"T{n}" in held:
                run.append(f"T{n}")
            else:
                if len(run) >= 3:
                    out.append(run)
                run = []
    if {"T1", "T40", MATTO} <= held:
        out.append(["T1", "T40", MATTO])
    if {"T1", "T13", "T28"} <= held:
        out.append(["T1", "T13", "T28"])
    if {"T10", "T20", "T30", "T40"} <= held:
        out.append(["T10", "T20", "T30", "T40"])
    elif {"T10", "T20", "T30"} <= held:
        out.append(["T10", "T20", "T30"])
    elif {"T20", "T30", "T40"} <= held:
        out.append(["T20", "T30", "T40"])
    kings = [s + "K" for s in SUITS if s + "K" in held]
    if len(kings) >= 3:
        out.append(kings)
    return out


def combo_value(members: list[str], matto_in_set: bool) -> int:
    """§4.3 (T29 counts 5 inside a combination) plus the §4.5 Matto bonus (never on T1+T40+Matto)."""
    base = sum(5 if c == "T29" else points(c) for c in members)
    return base + (5 if matto_in_set and MATTO not in members else 0)


def matto_payment(pile: list[str]) -> str:
    """M-15: the cheapest captured card other than the Matto (the Matto itself if there is none)."""
    others = [c for c in pile if c != MATTO]
    if not others:
        return MATTO

    def key(c: str) -> tuple[int, int, int, int]:
        if suit(c) == "T":
            return (points(c), 2 if c == "T29" else 1, 0, strength(c))
        return (points(c), 0, SUITS.index(suit(c)), strength(c))

    return min(others, key=key)


class Recount:
    """The deal's scoring events and §8 conversions, rebuilt from the public facts and the action log."""

    def __init__(self, view: dict[str, Any], log: list[tuple[int, dict[str, Any]]], matto_holder: int | None) -> None:
        self.events: list[tuple[str, int, str]] = []  # (team, points, reason)
        self.resti_after: list[tuple[int, int] | None] = []  # the resti when the event converted some
        self.diff = 0
        self.resti = [0, 0]
        self.end: dict[str, dict[str, int]] = {}
        self.final_diff: int | None = None
        d = view["dealer"]
        order = [(d + i) % 4 for i in range(1, 5)]
        team = "AB"
        self._score(team[(d + 3) % 2], sum(points(c) for c in view["robbed_by_cutter"]), "robbing")
        for s in order:
            self._score(team[s % 2], points(view["exposed"][s]), "exposed card")
        self._score(team[d % 2], sum(points(c) for c in view["robbed_by_dealer"]), "robbing")
        for s in order:
            total = 0
            for combo in view["declared"][s]:
                members = list(combo["cards"])
                assert members in combinations(members), f"{members} is not a combination"
                if matto_holder is None:  # mid-deal: who holds the Matto may still be unknown
                    assert combo["value"] in (combo_value(members, False), combo_value(members, True))
                    total += int(combo["value"])
                else:
                    total += combo_value(members, matto_holder == s)
            self._score(team[s % 2], total, "declaration")
        # §7: replay the tricks from the log
        piles: list[list[str]] = [[], []]
        debtor: int | None = None
        leader = (d + 1) % 4
        trick: list[tuple[int, str]] = []
        tricks = 0
        last_winner = -1
        for seat, action in log:
            if action.get("type") != "play":
                continue
            assert seat == (leader + len(trick)) % 4, "a card was played out of turn"
            trick.append((seat, action["card"]))
            if len(trick) < 4:
                continue
            w = trick_winner(trick)
            wt = w % 2
            for s, c in trick:
                if c == MATTO:
                    piles[s % 2].append(c)
                    if s % 2 != wt:
                        debtor = s % 2
                else:
                    piles[wt].append(c)
            tricks += 1
            self._score(team[wt], sum(points(c) for s, c in trick if s % 2 != wt and c != MATTO), f"trick {tricks}")
            leader, last_winner, trick = w, w, []
        self.tricks = tricks
        if tricks < 21:
            return
        assert not trick
        # §8.3 Matto settlement, §8.4 end-of-deal scores, §8.5 final conversion
        if debtor is not None:
            given = matto_payment(piles[debtor])
            piles[debtor].remove(given)
            piles[1 - debtor].append(given)
        assert len(piles[0]) + len(piles[1]) == 84
        assert sum(points(c) for p in piles for c in p) == 142
        for t in (0, 1):
            pile = piles[t]
            parts = {
                "cards": sum(points(c) for c in pile),
                "combinations": sum(combo_value(m, MATTO in pile) for m in combinations(pile)),
                "card_count": max(0, len(pile) - 42),
                "last_trick": 10 if last_winner % 2 == t else 0,
            }
            parts["total"] = sum(parts.values())
            self.end[team[t]] = parts
        self.diff += self.end["A"]["total"] - self.end["B"]["total"]
        self.final_diff = self.diff
        if self.diff > 0:
            self.resti[0] += math.ceil(self.diff / 60)
        elif self.diff < 0:
            self.resti[1] += math.ceil(-self.diff / 60)

    def _score(self, team: str, pts: int, reason: str) -> None:
        if pts == 0:
            return  # a worthless event changes nothing (the engine does not list it)
        self.diff += pts if team == "A" else -pts
        converted = False
        while self.diff >= 60:
            self.resti[0] += 1
            self.diff -= 60
            converted = True
        while self.diff <= -60:
            self.resti[1] += 1
            self.diff += 60
            converted = True
        assert -60 < self.diff < 60
        self.events.append((team, pts, reason))
        self.resti_after.append((self.resti[0], self.resti[1]) if converted else None)

    @property
    def net_a(self) -> int:
        return self.resti[0] - self.resti[1]


# ============================================================================ reading Discord
EVENT_LINE = re.compile(r"^(A|B) \+(\d+) (robbing|exposed card|declaration|trick \d+)\b(.*)$")
RESTI_NOTE = re.compile(r"→ resti A (\d+) / B (\d+)$")


def card_label(card: str) -> str:
    if card == MATTO:
        return "🤡 Matto"
    return card if card[0] == "T" else card[2:] + SUIT_SYMBOL[card[:2]]


def shows(text: str, card: str) -> bool:
    """Whether ``card``'s label stands in ``text`` (``T1`` is not found inside ``T13``)."""
    return re.search(r"(?<![0-9A-Za-z])" + re.escape(card_label(card)) + r"(?!\d)", text) is not None


def field(message: st.Message, prefix: str) -> str | None:
    for embed in message.embeds:
        for f in embed.get("fields") or []:
            if (f.get("name") or "").startswith(prefix):
                return str(f.get("value") or "")
    return None


def diff_text(diff: int) -> str:
    return f"A leads by {diff}" if diff > 0 else f"B leads by {-diff}" if diff < 0 else "level"


def parse_events(lines: list[str]) -> list[tuple[str, int, str, tuple[int, int] | None]]:
    out = []
    for line in lines:
        m = EVENT_LINE.match(line)
        if m:
            r = RESTI_NOTE.search(line)
            out.append((m[1], int(m[2]), m[3], (int(r[1]), int(r[2])) if r else None))
    return out


def dm_text(user: Any) -> str:
    return "\n".join(m.text() for m in user.dm_messages())


# ============================================================================ privacy (§10)
def public_cards(view: dict[str, Any]) -> set[str]:
    """Cards §10 lets everybody see: robbed, exposed, the dealer's stop card, taken, declared, the Fola."""
    seen = set(view["robbed_by_cutter"]) | set(view["robbed_by_dealer"]) | set(view["taken_by_dealer"])
    seen |= {c for c in view["exposed"] if c}
    if view["robbing_stop"]:
        seen.add(view["robbing_stop"])
    for combos in view["declared"]:
        for combo in combos:
            seen |= set(combo["cards"])
            if MATTO not in combo["cards"] and combo["value"] > combo_value(list(combo["cards"]), False):
                seen.add(MATTO)  # the Matto bonus shows who holds the Matto (§5.3)
    seen |= set(view["fola"] or ())
    return seen


def check_privacy(fake: FakeDiscord, channel: st.Channel, table: Any, users: dict[int, Any]) -> None:
    """No channel message and no other player's DM shows a card before §10 allows it."""
    game = table.game
    assert isinstance(game, MinchiateGame)
    view = game.public_view()
    public = public_cards(view)
    hidden_hand = {s: set(game.view(s)["hand"]) - public for s in range(4)}
    discards: dict[int, set[str]] = {}
    fola: set[str] = set()
    if view["fola"] is None:  # before the reveal: discards are their owner's, the Fola the dealer's
        discards = {s: set(game.view(s).get("my_discards") or ()) for s in range(4)}
        fola = set(game.view(view["dealer"]).get("fola_seen") or ()) - public
    channel_text = "\n".join(m.text() for m in fake.channel_messages(channel))
    secret = set().union(*hidden_hand.values(), *discards.values(), fola)
    leaked = sorted(c for c in secret if shows(channel_text, c))
    assert not leaked, f"hidden cards shown in the channel: {leaked}"
    for seat, user in users.items():
        text = dm_text(user)
        mine = game.view(seat)["hand"]
        assert all(shows(text, c) for c in mine), "the matcher must find the player's own cards"
        others = set().union(*(hidden_hand[s] | discards.get(s, set()) for s in range(4) if s != seat))
        if seat != view["dealer"]:
            others |= fola
        leaked = sorted(c for c in others if shows(text, c))
        assert not leaked, f"{user.name}'s DM shows cards of other seats, discards or the Fola: {leaked}"
    # undeclared combinations stay with their owner (§10): never listed with the declarations
    msg = table_message(fake, channel)
    declared_lines = ((field(msg, "Declarations") or "") if msg is not None else "").splitlines()
    for s in range(4):
        line = next((x for x in declared_lines if x.startswith(f"{table.names[s]}: ")), "")
        for combo in game.view(s)["combos"]:
            if combo["cards"] not in [c["cards"] for c in view["declared"][s]]:
                assert combo_name(combo) not in line, f"undeclared {combo['cards']} of seat {s} listed"


# ============================================================================ the test
async def test_full_minchiate_deal_two_users_two_computers(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    fake = fake_discord
    guild = fake.add_guild("Firenze")
    channel = fake.add_channel(guild, "minchiate")
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    bot, task = await start_bot(fake, tmp_path / "t.db", dev_guild=guild.id)
    try:
        svc = bot.tables
        assert svc is not None
        svc.seed_factory = lambda: SEED
        opened = await alice.slash(channel, "minchiate new", stake_per_resto=STAKE)
        assert "table is open" in (await opened.reply()).text()
        lobby = await fake.wait_for_message(channel, lambda m: any(b["label"] == "Join" for b in m.buttons()))
        await (await bob.click(lobby, label="Join")).ack()
        for n in (1, 2):
            await (await alice.click(lobby, label="Add computer")).ack()
            await fake.wait_for(lambda n=n: f"Computer {n}" in fake.message(lobby.id).text())
        seats_now = field(fake.message(lobby.id), "Seats") or ""
        assert re.search(r"1\. alice.*\n2\. bob\n3\. .*Computer 1.*\n4\. .*Computer 2", seats_now), seats_now
        # only the host may swap; alice makes bob her partner (seats 1+3 v 2+4)
        refused = await (await bob.slash(channel, "minchiate swap", first=2, second=3)).reply()
        assert refused.flags & 64 and "Only the host" in refused.text()
        swapped = await (await alice.slash(channel, "minchiate swap", first=2, second=3)).reply()
        assert swapped.flags & 64 and "swapped" in swapped.text()
        partners = r"1\. alice.*\n2\. .*Computer 1.*\n3\. bob\n4\. .*Computer 2"
        await fake.wait_for(lambda: re.search(partners, field(fake.message(lobby.id), "Seats") or ""))
        await (await alice.click(lobby, label="Start")).ack()
        table = next(iter(svc.tables.values()))
        await fake.wait_for(lambda: table.status == "running")
        game = table.game
        assert isinstance(game, MinchiateGame)
        assert table.seat_of(alice.id) == 0 and table.seat_of(bob.id) == 2
        users = {0: alice, 2: bob}
        dealer, cutter = game.dealer, (game.dealer + 3) % 4
        assert (dealer, cutter) == (2, 1), "the seed no longer gives the deal this test was written for"

        table_msg = await fake.wait_for(lambda: table_message(fake, channel))
        await fake.wait_for(lambda: "Team A (alice & bob)" in (field(fake.message(table_msg.id), "Score") or ""))

        # --- discards: bob (the dealer) gets one exact-count menu of exactly his discardable cards
        alice_p, bob_p = Player(fake, alice, random.Random(1)), Player(fake, bob, random.Random(2))
        await fake.wait_for(lambda: any(":field:" in c["custom_id"] for c in bob_p.choices()))
        await quiesce(bot)
        check_privacy(fake, channel, table, users)
        assert game.phase == "discard" and not alice_p.choices()
        assert "Fola (only you see it)" in dm_text(bob) and "Fola" not in dm_text(alice)
        need = game.view(2)["prompt"]["need"]
        assert need == 3
        panel = bob_p.panel()
        assert panel is not None
        comps = action_components(panel)
        menus = [c for c in comps if ":field:" in c["custom_id"]]
        assert len(menus) == 1 and len(comps) == 2, "one card menu and Confirm"
        menu = menus[0]
        offered = [o["value"] for o in menu["options"]]
        assert sorted(offered) == sorted(game.discardable(2))
        assert all(points(c) == 0 and c != "T29" for c in offered)
        assert [c for c in game.view(2)["hand"] if c not in offered and points(c) == 0 and c != "T29"] == []
        assert menu["min_values"] == menu["max_values"] == need
        ok = next(c for c in comps if ":ok:" in c["custom_id"])
        early = await (await bob.click(panel, custom_id=ok["custom_id"])).reply()  # Confirm before picking
        assert early.flags & 64 and "Pick the cards" in early.text() and game.phase == "discard"
        chosen = sorted(c for c in offered if c[0] != "T")[:need]
        # a modified client sends a card that was never offered (a scoring one he holds): refused on arrival,
        # not kept until Confirm
        forged = next(c for c in game.view(2)["hand"] if c not in offered)
        data = {"custom_id": menu["custom_id"], "component_type": 3, "values": [*chosen[: need - 1], forged]}
        refused = await bob._component(panel, data).reply()
        assert refused.flags & 64 and "That choice is not available." in refused.text()
        assert game.phase == "discard" and not game.view(2).get("my_discards")
        await (await bob.select(panel, chosen, custom_id=menu["custom_id"])).ack()
        await (await bob.click(panel, custom_id=ok["custom_id"])).ack()

        # --- declarations: per-combination choices, "declare all" first (and highlighted)
        def declare_buttons(p: Player) -> list[dict[str, Any]]:
            return [c for c in p.choices() if c.get("type") == 2 and c.get("label", "").startswith("Declare")]

        await fake.wait_for(lambda: declare_buttons(alice_p) and declare_buttons(bob_p))
        await quiesce(bot)
        assert game.phase == "declare"
        assert sorted(game.view(2)["my_discards"]) == chosen  # the discard really came from the menu
        check_privacy(fake, channel, table, users)
        a_buttons, b_buttons = declare_buttons(alice_p), declare_buttons(bob_p)
        assert [b["label"] for b in a_buttons] == ["Declare all (9 pts)", "Declare nothing"]
        assert a_buttons[0]["style"] == 3  # the default is highlighted
        b_labels = [b["label"] for b in b_buttons]
        assert b_labels[0] == "Declare all (75 pts)" and b_buttons[0]["style"] == 3
        assert len(b_labels) == 8 and "Declare nothing" in b_labels  # every subset of three combinations
        # alice takes the default; bob declares his run and T1+T40+Matto but keeps his Kings to himself
        await (await alice.click(alice_p.panel(), custom_id=a_buttons[0]["custom_id"])).ack()  # type: ignore[arg-type]
        await quiesce(bot)
        check_privacy(fake, channel, table, users)
        assert game.public_view()["fola"] is None, "the Fola is revealed only after every declaration"
        assert "Run T3–T5" not in fake.message(table_msg.id).text(), "declarations are shown all at once"
        b_buttons = declare_buttons(bob_p)  # re-rendered for the table's new version
        two = [b for b in b_buttons if "Run T36–T38" in b["label"] and "T1+T40+Matto" in b["label"]]
        two = [b for b in two if "Kings" not in b["label"] and not b["label"].startswith("Declare all")]
        assert len(two) == 1 and "(55)" in two[0]["label"]
        await (await bob.click(bob_p.panel(), custom_id=two[0]["custom_id"])).ack()  # type: ignore[arg-type]
        await fake.wait_for(lambda: game.phase == "play")
        await quiesce(bot)
        check_privacy(fake, channel, table, users)
        public = game.public_view()
        assert [c["cards"] for c in public["declared"][0]] == [["T3", "T4", "T5"]]
        assert [c["cards"] for c in public["declared"][2]] == [["T36", "T37", "T38"], ["T1", "T40", MATTO]]
        decl_text = field(fake.message(table_msg.id), "Declarations") or ""
        assert "Run T3–T5" in decl_text and "Run T36–T38" in decl_text and "T1+T40+Matto" in decl_text
        assert "Kings" not in decl_text
        # 5 (bob's exposed Matto) + 9 + 55 = 69 for A, nothing for B: one resto converted before the play
        score = field(fake.message(table_msg.id), "Score") or ""
        assert "Team A (alice & bob): 1 resto" in score and "Running difference: A leads by 9" in score
        assert "→ resti A 1 / B 0" in (field(fake.message(table_msg.id), "Scoring") or "")
        fola_line = field(fake.message(table_msg.id), "The deal") or ""
        assert all(shows(fola_line, c) for c in public["fola"])  # revealed to all, incl. bob's discards
        assert set(chosen) <= set(public["fola"])

        # --- trick play: after every click the public score matches the recount
        async def check() -> None:
            await quiesce(bot)
            if table.status != "running" or game.phase != "play":
                return
            check_privacy(fake, channel, table, users)
            recount = Recount(game.public_view(), list(table.log), None)
            msg = fake.message(table_msg.id)
            score = field(msg, "Score") or ""
            assert f"Team A (alice & bob): {_resti(recount.resti[0])}" in score, score
            assert f"Team B (🤖 Computer 1 & 🤖 Computer 2): {_resti(recount.resti[1])}" in score, score
            assert f"Running difference: {diff_text(recount.diff)}" in score, score
            shown = parse_events((field(msg, "Scoring") or "").splitlines())
            assert shown and [e[:3] for e in shown] == recount.events[-len(shown) :]

        clicks = await play_until(fake, [alice_p, bob_p], lambda: game_over(fake, channel), check=check)
        assert clicks > 0 and alice_p.clicks and bob_p.clicks
        await quiesce(bot)

        # --- the independent recount of the whole deal
        log = list(table.log)
        plays = [(s, a["card"]) for s, a in log if a.get("type") == "play"]
        assert len(plays) == 84 and len({c for _, c in plays}) == 84
        holder = next(s for s, c in plays if c == MATTO)
        assert holder == 2  # bob's exposed card
        recount = Recount(game.public_view(), log, holder)
        assert recount.tricks == 21

        # the settlement message in the channel: every event with its reason, the end scores, the resti
        summary = await fake.wait_for_message(channel, lambda m: m.content.startswith("**Minchiate — deal 1**"))
        lines = summary.content.splitlines()
        events = parse_events(lines)
        assert [e[:3] for e in events] == recount.events
        assert [e[3] for e in events] == recount.resti_after
        for t in "AB":
            e = recount.end[t]
            assert (
                f"End {t}: cards {e['cards']} + combinations {e['combinations']} + extra cards {e['card_count']}"
                f" + final trick {e['last_trick']} = {e['total']}"
            ) in lines
        assert recount.final_diff is not None
        assert (
            f"Final difference {recount.final_diff:+d} (A − B); resti A {recount.resti[0]} · B {recount.resti[1]}"
            in lines
        )
        net = recount.net_a
        if net:
            w = "A" if net > 0 else "B"
            who = "alice & bob" if w == "A" else "🤖 Computer 1 & 🤖 Computer 2"
            assert f"Team {w} ({who}) wins {abs(net)} {'resto' if abs(net) == 1 else 'resti'}" in lines
        else:
            assert "Tie: no resti change hands." in lines
        final_score = field(fake.message(table_msg.id), "Score") or ""
        assert f"Team A (alice & bob): {_resti(recount.resti[0])}" in final_score
        assert f"Team B (🤖 Computer 1 & 🤖 Computer 2): {_resti(recount.resti[1])}" in final_score

        # the ledger: the deal booked exactly once, each team member +/- net, zero-sum, stakes = resti x 2
        db = bot.db
        assert db is not None
        booked = await db.fetchall("SELECT id, key FROM settlements WHERE table_id = ?", (table.id,))
        assert len(booked) == 1 and booked[0][1] == f"table:{table.id}:unit:0"
        rows = await db.fetchall(
            "SELECT seat, user_id, is_bot, currency, amount FROM entries WHERE settlement_id = ?"
            " ORDER BY seat, currency",
            (booked[0][0],),
        )
        expected_users = {0: (alice.id, 0), 1: (0, 1), 2: (bob.id, 0), 3: (0, 1)}
        for currency, per in (("resto", 1), ("stake", STAKE)):
            mine = [r for r in rows if r[3] == currency]
            assert [(r[0], r[1], r[2]) for r in mine] == [(s, *expected_users[s]) for s in range(4)]
            assert [r[4] for r in mine] == [net * per, -net * per, net * per, -net * per]
            assert sum(r[4] for r in mine) == 0
        assert len(rows) == 8
        fake.assert_clean()
        assert not fake.late_acks
    finally:
        await stop_bot(bot, task)


async def test_lobby_shows_the_partnerships(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    """The lobby says who plays with whom (seats 1+3 v 2+4) so the host knows what /minchiate swap does,
    and the running table numbers seats the same way (1-4) as the lobby, the DMs and the swap command."""
    fake = fake_discord
    guild = fake.add_guild("Firenze")
    channel = fake.add_channel(guild, "minchiate")
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    bot, task = await start_bot(fake, tmp_path / "t.db", dev_guild=guild.id)
    try:
        await (await alice.slash(channel, "minchiate new")).reply()
        lobby = await fake.wait_for_message(channel, lambda m: any(b["label"] == "Join" for b in m.buttons()))
        await (await bob.click(lobby, label="Join")).ack()
        await fake.wait_for(lambda: "2. bob" in fake.message(lobby.id).text())
        text = fake.message(lobby.id).text()
        pair = r"\s*(?:\+|&|and|,)\s*"
        assert re.search(rf"(?i)seats? 1{pair}3", text) and re.search(rf"(?i)seats? 2{pair}4", text), (
            f"the lobby does not show the teams (seats 1+3 v 2+4):\n{text}"
        )
        for _ in range(2):
            await (await alice.click(lobby, label="Add computer")).ack()
        await fake.wait_for(lambda: "Computer 2" in fake.message(lobby.id).text())
        await (await alice.click(lobby, label="Start")).ack()
        msg = await fake.wait_for(lambda: table_message(fake, channel))
        await quiesce(bot)
        shown = fake.message(msg.id).text()
        assert "Team A (alice & 🤖 Computer 1)" in shown and "Team B (bob & 🤖 Computer 2)" in shown
        assert not re.search(r"(?i)seats? 0\b", shown), f"0-based seat numbers on the table: {shown}"
        fake.assert_clean()
    finally:
        await stop_bot(bot, task)
