/**
 * Draws one table from its VIEW: the seats around the felt, the trick in the middle, the last trick, the seat's
 * hand at the bottom (playable cards raised) and the controls the bot offers. Everything is rebuilt from the
 * view on every change (a view is small), so what the page shows is always exactly the latest view.
 */
import { cardImage, el, fill, rich } from "./dom";
import type { Action, Choice, Control, Hand, Play, Scene, Texts, View } from "./types";

export interface Handlers {
  /** play a choice's action */
  act(action: Action): void;
  /** a table-level operation (join, bot, start, …) */
  lobby(op: string, level?: string): void;
  /** the cards picked so far in a combo field (kept by the app across re-renders of one version) */
  picks(key: string): string[];
  setPicks(key: string, values: string[]): void;
  /** several choices play the same card: ask which */
  choose(title: string, choices: Choice[]): void;
  toggleLast(): void;
  showLast: boolean;
  now(): number;
}

const isPlay = (a: Action | null | undefined): a is Action & { card: string } =>
  !!a && a.type === "play" && typeof a.card === "string";

/** The table's whole screen. */
export function renderTable(view: View, texts: Texts, h: Handlers): HTMLElement {
  const root = el("div", `table game-${view.game} status-${view.status}`);
  root.dataset.status = view.status;
  const mine = view.seat !== null && view.to_move.includes(view.seat);
  root.append(header(view, texts, mine, h));
  if (view.scene) root.append(felt(view.scene, view, texts, h));
  root.append(panel(view, texts));
  const priv = view.private;
  const hand = priv?.hand ?? null;
  if (priv) root.append(privatePanel(view, texts, h));
  root.append(tableButtons(view, texts, h));
  if (hand && hand.cards.length) root.append(handRow(hand, priv?.controls ?? [], texts, h));
  return root;
}

function header(view: View, texts: Texts, mine: boolean, h: Handlers): HTMLElement {
  const top = el("header", "bar");
  top.append(el("h1", "title", rich(view.title)));
  if (mine) top.append(el("span", "turn", texts.your_turn ?? ""));
  else if (view.status === "running" && view.seat !== null) top.append(el("span", "waiting", texts.waiting ?? ""));
  else if (view.status === "running") top.append(el("span", "waiting", texts.spectating ?? ""));
  else if (view.status === "finished") top.append(el("span", "waiting", texts.finished ?? ""));
  if (view.deadline !== null && view.status === "running") {
    const timer = el("span", "timer");
    timer.dataset.deadline = String(view.deadline);
    timer.textContent = timerText(view.deadline, texts, h.now());
    top.append(timer);
  }
  return top;
}

/** The countdown's text (refreshed every second by the app without a re-render). */
export function timerText(deadline: number, texts: Texts, now: number): string {
  const left = Math.max(0, Math.ceil((deadline - now) / 1000));
  const t = texts.seconds_left;
  return t ? fill(t, { seconds: left, s: left, n: left }) : `⏱ ${left}`;
}

/** Where seat ``seat`` sits, as a fraction of the felt (0..1, 0..1): ``bottom`` (the reader's own seat, else
 * the picture's bottom seat) at the bottom, the others in playing order around. */
function seatSpot(scene: Scene, bottom: number, seat: number): [number, number] {
  const n = Math.max(scene.seats.length, 1);
  const r = (((seat - bottom) % n) + n) % n;
  const turn = (scene.clockwise ? 1 : -1) * r * ((2 * Math.PI) / n);
  const angle = Math.PI / 2 + turn; // screen coordinates: y grows downwards, so +angle goes clockwise
  return [0.5 + 0.4 * Math.cos(angle), 0.5 + 0.38 * Math.sin(angle)];
}

function felt(scene: Scene, view: View, texts: Texts, h: Handlers): HTMLElement {
  const box = el("section", "felt");
  const bottom = view.seat ?? scene.bottom_seat;
  scene.seats.forEach((s, i) => {
    const [x, y] = seatSpot(scene, bottom, i);
    const tag = el(
      "div",
      "seat" + (s.active ? " active" : "") + (i === view.seat ? " me" : "") + (s.team !== null ? ` team${s.team}` : ""),
      el("span", "name", s.name),
      s.line ? el("span", "line", rich(s.line)) : null,
    );
    tag.dataset.seat = String(i);
    tag.style.left = `${x * 100}%`;
    tag.style.top = `${y * 100}%`;
    box.append(tag);
  });
  const trick = el("div", "trick");
  for (const [seat, code] of scene.trick) {
    const [x, y] = seatSpot(scene, bottom, seat);
    const img = cardImage(scene.deck, code, "card played" + (seat === scene.trick_winner ? " winner" : ""));
    // halfway between the middle and the player who played it
    img.style.left = `${50 + (x - 0.5) * 45}%`;
    img.style.top = `${50 + (y - 0.5) * 40}%`;
    img.dataset.seat = String(seat);
    trick.append(img);
  }
  box.append(trick);
  if (scene.centre_text || scene.centre_card) {
    box.append(
      el(
        "div",
        "centre",
        scene.centre_card ? cardImage(scene.deck, scene.centre_card, "card centre-card") : null,
        scene.centre_text ? el("span", "centre-text", rich(scene.centre_text)) : null,
      ),
    );
  }
  if (scene.last_trick && scene.last_trick.length) box.append(lastTrick(scene, scene.last_trick, texts, h));
  return box;
}

function lastTrick(scene: Scene, plays: Play[], texts: Texts, h: Handlers): HTMLElement {
  const btn = el("button", "last-toggle", texts.last_trick ?? "");
  btn.type = "button";
  btn.addEventListener("click", () => h.toggleLast());
  const box = el("div", "last" + (h.showLast ? " open" : ""), btn);
  if (h.showLast) {
    const row = el("div", "last-cards");
    for (const [seat, code] of plays) {
      const name = scene.seats[seat]?.name ?? "";
      row.append(
        el(
          "figure",
          seat === scene.last_winner ? "winner" : "",
          cardImage(scene.deck, code, "card small"),
          el("figcaption", "", name),
        ),
      );
    }
    box.append(row);
  }
  return box;
}

function panel(view: View, texts: Texts): HTMLElement {
  // the public screen's words: in the lobby they are the screen; in a game they fold away under the felt
  const body = el("div", "panel-body", view.description ? el("p", "description", rich(view.description)) : null);
  for (const s of view.sections) body.append(el("div", "section", el("h3", "", rich(s.name)), el("p", "", rich(s.value))));
  if (view.footer) body.append(el("p", "footer", rich(view.footer)));
  if (view.scene && view.status === "running") {
    const det = el("details", "public", el("summary", "", texts.details ?? view.title), body);
    return det;
  }
  return el("section", "public open", body);
}

function privatePanel(view: View, texts: Texts, h: Handlers): HTMLElement {
  const p = view.private!;
  const box = el("section", "private");
  if (p.title) box.append(el("h2", "", rich(p.title)));
  if (p.description) box.append(el("p", "description", rich(p.description)));
  for (const s of p.sections) box.append(el("div", "section", el("h3", "", rich(s.name)), el("p", "", rich(s.value))));
  const inHand = new Set(p.hand?.cards ?? []);
  for (const c of p.controls) {
    const node = control(c, inHand, texts, h);
    if (node) box.append(node);
  }
  if (p.footer) box.append(el("p", "footer", rich(p.footer)));
  return box;
}

/** One control of the seat; choices that play a card of the hand are left to the hand itself. */
function control(c: Control, inHand: Set<string>, texts: Texts, h: Handlers): HTMLElement | null {
  const choices = c.choices.filter((ch) => !(isPlay(ch.action) && inHand.has(ch.action.card)));
  if (c.kind === "combo") return combo(c, texts, h);
  if (!choices.length) return null;
  if (c.kind === "select") {
    const sel = el("select", "control select");
    const first = el("option", "", c.placeholder ?? "");
    first.value = "";
    first.disabled = true;
    first.selected = true;
    sel.append(first);
    choices.forEach((ch, i) => {
      const o = el("option", "", ch.description ? `${ch.label} — ${ch.description}` : ch.label);
      o.value = String(i);
      sel.append(o);
    });
    sel.addEventListener("change", () => {
      const ch = choices[Number(sel.value)];
      if (ch) h.act(ch.action);
    });
    return sel;
  }
  const row = el("div", "control buttons");
  if (c.placeholder) row.append(el("span", "placeholder", rich(c.placeholder)));
  for (const ch of choices) {
    const b = el("button", `choice ${ch.style ?? "secondary"}`, ch.label);
    b.type = "button";
    if (ch.description) b.title = ch.description;
    b.addEventListener("click", () => h.act(ch.action));
    row.append(b);
  }
  return row;
}

function combo(c: Control, texts: Texts, h: Handlers): HTMLElement {
  const box = el("div", "control combo");
  if (c.placeholder) box.append(el("p", "placeholder", rich(c.placeholder)));
  const fields = c.fields ?? [];
  let complete = true;
  for (const f of fields) {
    const picked = h.picks(f.key);
    if (picked.length !== f.count) complete = false;
    const group = el("div", "field", el("span", "placeholder", `${f.placeholder} (${picked.length}/${f.count})`));
    group.dataset.field = f.key;
    group.dataset.count = String(f.count);
    for (const [label, value] of f.options) {
      const on = picked.includes(value);
      const chip = el("button", "chip" + (on ? " on" : ""), label);
      chip.type = "button";
      chip.dataset.value = value;
      chip.setAttribute("aria-pressed", on ? "true" : "false");
      chip.addEventListener("click", () => {
        const now = h.picks(f.key);
        if (now.includes(value)) h.setPicks(f.key, now.filter((v) => v !== value));
        else if (f.count === 1) h.setPicks(f.key, [value]);
        else if (now.length < f.count) h.setPicks(f.key, [...now, value]);
      });
      group.append(chip);
    }
    box.append(group);
  }
  const ok = el("button", "choice primary confirm", texts.confirm ?? "");
  ok.type = "button";
  ok.disabled = !complete;
  ok.addEventListener("click", () => {
    const action: Action = { ...(c.base_action ?? {}) };
    for (const f of fields) {
      const vals = h.picks(f.key);
      action[f.key] = f.count === 1 ? vals[0] : [...vals].sort();
    }
    h.act(action);
  });
  box.append(ok);
  return box;
}

function tableButtons(view: View, texts: Texts, h: Handlers): HTMLElement {
  const row = el("div", "table-buttons");
  for (const b of view.buttons) {
    if (b.op === "hand") continue; // Discord's "show my hand": the page always shows it
    const btn = el("button", `op ${b.style ?? "secondary"}`, b.label);
    btn.type = "button";
    btn.dataset.op = b.op;
    btn.addEventListener("click", () => h.lobby(b.op));
    row.append(btn);
    if (b.op === "bot" && view.levels && view.levels.length) {
      const sel = el("select", "levels");
      sel.dataset.op = "bot-level";
      const first = el("option", "", b.label);
      first.value = "";
      first.disabled = true;
      first.selected = true;
      sel.append(first);
      for (const l of view.levels) {
        const o = el("option", "", l.help ? `${l.label} — ${l.help}` : l.label);
        o.value = l.level;
        sel.append(o);
      }
      sel.addEventListener("change", () => sel.value && h.lobby("bot", sel.value));
      row.append(sel);
    }
  }
  if (view.private?.hint) {
    const btn = el("button", "op secondary", texts.hint ?? "");
    btn.type = "button";
    btn.dataset.op = "hint";
    btn.addEventListener("click", () => h.lobby("hint"));
    row.append(btn);
  }
  return row;
}

/** The seat's hand: the cards in the bot's order, spread to fit the frame's width, playable ones raised. */
function handRow(hand: Hand, controls: Control[], texts: Texts, h: Handlers): HTMLElement {
  const legal = new Set(hand.legal ?? []);
  const plays = new Map<string, Choice[]>();
  for (const c of controls)
    for (const ch of c.choices)
      if (isPlay(ch.action)) plays.set(ch.action.card, [...(plays.get(ch.action.card) ?? []), ch]);
  // a combo whose options are cards of the hand (a discard) can also be picked by tapping the cards
  const comboField = controls
    .filter((c) => c.kind === "combo")
    .flatMap((c) => c.fields ?? [])
    .find((f) => f.options.some(([, v]) => hand.cards.includes(v)));
  const row = el("section", "hand");
  row.dataset.count = String(hand.cards.length);
  for (const code of hand.cards) {
    // a card is raised when the bot offers an action playing it (the hand's `legal` says the same)
    const playable = plays.has(code) && (hand.legal === null || legal.has(code));
    const picked = comboField ? h.picks(comboField.key).includes(code) : false;
    const img = cardImage(hand.deck, code, "card" + (playable ? " legal" : "") + (picked ? " picked" : ""));
    if (playable) {
      img.tabIndex = 0;
      img.setAttribute("role", "button");
      const go = (): void => {
        const options = plays.get(code)!;
        if (options.length === 1) h.act(options[0].action);
        else h.choose(texts.which_way ?? "", options);
      };
      img.addEventListener("click", go);
      img.addEventListener("keydown", (e) => (e.key === "Enter" || e.key === " ") && go());
    } else if (comboField && comboField.options.some(([, v]) => v === code)) {
      img.classList.add("pickable");
      img.addEventListener("click", () => {
        const now = h.picks(comboField.key);
        if (now.includes(code)) h.setPicks(comboField.key, now.filter((v) => v !== code));
        else if (comboField.count === 1) h.setPicks(comboField.key, [code]);
        else if (now.length < comboField.count) h.setPicks(comboField.key, [...now, code]);
      });
    }
    row.append(img);
  }
  return row;
}

/** Spread the hand's cards so that all of them fit the row (called after layout and on resize). */
export function fitHand(root: ParentNode): void {
  const row = root.querySelector<HTMLElement>(".hand");
  if (!row) return;
  const cards = Array.from(row.querySelectorAll<HTMLElement>(".card"));
  if (!cards.length) return;
  const width = row.clientWidth - 8;
  const cardW = cards[0].offsetWidth || 64;
  const n = cards.length;
  const step = n > 1 ? Math.min(cardW + 4, (width - cardW) / (n - 1)) : 0;
  cards.forEach((c, i) => {
    c.style.marginLeft = i === 0 ? "0" : `${step - cardW}px`;
    c.style.zIndex = String(i + 1);
  });
}
