/**
 * Draws one table from its VIEW as a card table: seat plates around the felt, the trick in the middle, the
 * seat's hand fanned along the bottom (the hand is the control for playing) and, above it, the seat's other
 * choices as controls that fit them (asks: a number picker, suit buttons, a card picker, buttons). Everything is
 * rebuilt from the view on every change (a view is small); the app keeps what is the page's own (a lifted card,
 * an open panel, the number being picked) across redraws.
 */
import { cardImage, el, fill, rich } from "./dom";
import type { Action, Ask, AskOption, Hand, Play, Plate, Scene, Texts, View } from "./types";

/** What the page itself remembers between redraws of one table. */
export interface Ui {
  /** the open panel: "scores", "last", "menu", "cards:<n>" (the card picker of ask n), "reveal" */
  sheet: string | null;
  /** the card of the hand lifted by a first tap */
  lifted: string | null;
  /** the number chosen so far in a number picker, by ask */
  numbers: Record<string, number>;
  /** the card chosen so far in a card picker */
  chosen: string | null;
}

export interface Handlers {
  act(action: Action): void;
  lobby(op: string, level?: string): void;
  picks(key: string): string[];
  setPicks(key: string, values: string[]): void;
  /** several choices play the same card: ask which */
  choose(title: string, choices: AskOption[]): void;
  ui: Ui;
  setUi(patch: Partial<Ui>): void;
  /** a short note for the reader (why a card cannot be played) */
  say(text: string): void;
  /** the reader plays a card from the hand: where it was (its flight to the trick starts there) */
  playing(code: string, from: DOMRect | null): void;
  now(): number;
}

const OPS_IN_MENU = new Set(["leave", "end", "cancel", "vote", "back"]);

/** The name of a card in the reader's language (the view's), else its code. */
export function cardName(view: View, code: string): string {
  return view.cards?.[code] ?? code;
}

function card(view: View, deck: string, code: string, cls = "card"): HTMLImageElement {
  const img = cardImage(deck, code, cls);
  img.alt = cardName(view, code);
  return img;
}

function button(label: string | Node, cls: string, go: () => void): HTMLButtonElement {
  const b = el("button", cls, label);
  b.type = "button";
  b.addEventListener("click", go);
  return b;
}

/** The table's whole screen. */
export function renderTable(view: View, texts: Texts, h: Handlers): HTMLElement {
  const playing = view.status === "running" && view.scene !== null;
  const root = el("div", `table game-${view.game} status-${view.status}` + (playing ? " playing" : " paper"));
  root.dataset.status = view.status;
  root.append(header(view, texts, h));
  if (playing && view.scene) {
    root.append(felt(view.scene, view, texts, h));
    root.append(tray(view, texts, h));
    const hand = view.private?.hand;
    if (hand && hand.cards.length) root.append(handRow(view, hand, texts, h));
  } else {
    root.append(paper(view, texts, h));
  }
  if (h.ui.sheet) {
    const sheet = sheetFor(view, texts, h, h.ui.sheet);
    if (sheet) root.append(sheet);
  }
  return root;
}

// ------------------------------------------------------------------------------------------------ the bar
function header(view: View, texts: Texts, h: Handlers): HTMLElement {
  const top = el("header", "bar");
  top.append(el("h1", "title", rich(view.title)));
  if (view.deadline !== null && view.status === "running") {
    const timer = el("span", "timer");
    timer.dataset.deadline = String(view.deadline);
    timer.textContent = timerText(view.deadline, texts, h.now());
    top.append(timer);
  }
  const scene = view.scene;
  if (view.status === "running" && scene && (scene.centre_text || scene.centre_card)) {
    // what the hand is played in (the trump, the contract, a called card): a glance, in the bar
    top.append(
      el(
        "div",
        "centre",
        scene.centre_card ? card(view, scene.deck, scene.centre_card, "card centre-card") : null,
        scene.centre_text ? el("span", "centre-text", rich(scene.centre_text)) : null,
      ),
    );
  }
  if (view.status === "running" && scene?.last_trick?.length) {
    const b = button("", "icon last-toggle", () => h.setUi({ sheet: "last" }));
    b.setAttribute("aria-label", texts.last_trick ?? "");
    b.title = texts.last_trick ?? "";
    b.setAttribute("aria-haspopup", "dialog");
    top.append(b);
  }
  if (view.status === "running" && view.scene) {
    const sheetBtn = button("▤", "icon scores-toggle", () => h.setUi({ sheet: "scores" }));
    sheetBtn.setAttribute("aria-label", texts.score_sheet ?? "");
    sheetBtn.title = texts.score_sheet ?? "";
    top.append(sheetBtn);
  }
  const menuOps = view.buttons.filter((b) => OPS_IN_MENU.has(b.op));
  if (view.status === "running" && menuOps.length) {
    const m = button("⋯", "icon menu-toggle", () => h.setUi({ sheet: "menu" }));
    m.setAttribute("aria-label", texts.menu ?? "");
    m.title = texts.menu ?? "";
    m.setAttribute("aria-haspopup", "dialog");
    top.append(m);
  }
  return top;
}

/** The countdown's text (refreshed every second by the app without a re-render). */
export function timerText(deadline: number, texts: Texts, now: number): string {
  const left = Math.max(0, Math.ceil((deadline - now) / 1000));
  const t = texts.seconds_left;
  return t ? fill(t, { seconds: left, s: left, n: left }) : `⏱ ${left}`;
}

// ------------------------------------------------------------------------------------------------ the felt
/** Where seat ``seat`` sits, as an angle around the felt: the reader's own seat (else the picture's bottom
 * seat) at the bottom, the others in playing order around. */
export function seatAngle(scene: Scene, bottom: number, seat: number): number {
  const n = Math.max(scene.seats.length, 1);
  const r = (((seat - bottom) % n) + n) % n;
  const turn = (scene.clockwise ? 1 : -1) * r * ((2 * Math.PI) / n);
  return Math.PI / 2 + turn; // screen coordinates: y grows downwards, so +angle goes clockwise
}

function plateLabel(view: View, texts: Texts, i: number): string {
  const scene = view.scene!;
  const s = scene.seats[i];
  const p = scene.plates?.[i];
  const parts = [s.name];
  if (p?.role) parts.push(p.role);
  if (p?.dealer) parts.push(texts.dealer ?? "");
  if (p?.passed) parts.push(texts.passed ?? "");
  for (const c of p?.chips ?? []) parts.push(`${c.label} ${c.value}`);
  if (p?.away) parts.push(texts.away ?? "");
  else if (p?.computer) parts.push(texts.computer ?? "");
  if (!p && s.line) parts.push(s.line);
  if (s.active) parts.push(i === view.seat ? (texts.your_turn ?? "") : fill(texts.turn_of, { name: s.name }));
  return parts.filter(Boolean).join(", ");
}

function plate(view: View, texts: Texts, i: number, h: Handlers): HTMLElement {
  const scene = view.scene!;
  const s = scene.seats[i];
  const p: Plate | undefined = scene.plates?.length ? scene.plates[i] : undefined;
  const node = el(
    "div",
    "seat" +
      (s.active ? " active" : "") +
      (i === view.seat ? " me" : "") +
      (s.team !== null ? ` team${s.team}` : "") +
      (p?.role ? " has-role" : "") +
      (p?.computer || p?.away ? " bot" : ""),
  );
  node.dataset.seat = String(i);
  node.setAttribute("role", "group");
  node.setAttribute("aria-label", plateLabel(view, texts, i));
  node.append(el("div", "plate-head", el("span", "name", s.name)));
  const marks = el("div", "marks");
  if (p?.dealer) marks.append(el("span", "badge dealer", texts.dealer ?? ""));
  if (p?.away) marks.append(el("span", "badge away", texts.away ?? ""));
  else if (p?.computer) marks.append(el("span", "badge computer", texts.computer ?? ""));
  if (p?.role) marks.append(el("span", "role", p.role));
  if (p?.passed) marks.append(el("span", "badge passed", texts.passed ?? ""));
  if (marks.childNodes.length) node.append(marks);
  if (p?.chips.length) {
    const row = el("div", "chips");
    for (const c of p.chips) row.append(el("span", `stat ${c.kind}`, el("i", "", c.label), el("b", "", c.value)));
    node.append(row);
  } else if (!p && s.line) {
    node.append(el("div", "chips", s.line));
  }
  if (s.active && view.deadline !== null) {
    const bar = el("div", "timebar", el("span", ""));
    bar.dataset.deadline = String(view.deadline);
    node.append(bar);
  }
  node.querySelectorAll("*").forEach((c) => c.setAttribute("aria-hidden", "true"));
  void h;
  return node;
}

function felt(scene: Scene, view: View, texts: Texts, h: Handlers): HTMLElement {
  const box = el("section", `felt seats-${scene.seats.length}`);
  const bottom = view.seat ?? scene.bottom_seat;
  box.dataset.bottom = String(bottom);
  scene.seats.forEach((_, i) => {
    const node = plate(view, texts, i, h);
    node.dataset.angle = String(seatAngle(scene, bottom, i));
    box.append(node);
  });
  const trick = el("div", "trick");
  trick.setAttribute("role", "list");
  for (const [seat, code] of scene.trick) {
    const img = card(view, scene.deck, code, "card played" + (seat === scene.trick_winner ? " winner" : ""));
    img.dataset.seat = String(seat);
    img.dataset.angle = String(seatAngle(scene, bottom, seat));
    img.setAttribute("role", "listitem");
    img.alt = `${scene.seats[seat]?.name ?? ""}: ${cardName(view, code)}`;
    trick.append(img);
  }
  box.append(trick);
  return box;
}

/** Places the plates around the felt and the trick's cards between the middle and their players, in pixels
 * (after layout and on every resize): plates as far out as the felt allows, each card of the trick halfway. */
export function layoutFelt(root: ParentNode): void {
  const box = root.querySelector<HTMLElement>(".felt");
  if (!box) return;
  const w = box.clientWidth;
  const hgt = box.clientHeight;
  // the trick's cards: as large as the middle of the felt holds (two cards high, three wide, between the plates)
  const tw = Math.round(Math.max(36, Math.min(w * 0.16, (hgt * 0.26) / 1.4, 110)));
  box.style.setProperty("--tw", `${tw}px`);
  for (const p of box.querySelectorAll<HTMLElement>(".seat")) {
    const a = Number(p.dataset.angle);
    const pw = p.offsetWidth;
    const ph = p.offsetHeight;
    const rx = Math.max(0, w / 2 - pw / 2 - 4);
    const ry = Math.max(0, hgt / 2 - ph / 2 - 4);
    p.style.left = `${w / 2 + rx * Math.cos(a) - pw / 2}px`;
    p.style.top = `${hgt / 2 + ry * Math.sin(a) - ph / 2}px`;
  }
  for (const c of box.querySelectorAll<HTMLElement>(".trick .card")) {
    const [x, y] = trickSpot(box, Number(c.dataset.seat));
    c.style.left = `${x - c.offsetWidth / 2}px`;
    c.style.top = `${y - c.offsetHeight / 2}px`;
  }
}

/** Where a card played by ``seat`` lies on the felt (pixels from its corner): on the way from the middle to the
 * seat's plate, as far out as it goes without touching the plate (a played card never hides its player). */
export function trickSpot(box: HTMLElement, seat: number): [number, number] {
  const w = box.clientWidth;
  const h = box.clientHeight;
  const tw = Number.parseFloat(box.style.getPropertyValue("--tw")) || w * 0.14;
  const th = tw * 1.4;
  const p = box.querySelector<HTMLElement>(`.seat[data-seat="${seat}"]`);
  if (!p) return [w / 2, h / 2];
  const px = p.offsetLeft + p.offsetWidth / 2 - w / 2;
  const py = p.offsetTop + p.offsetHeight / 2 - h / 2;
  const len = Math.hypot(px, py) || 1;
  const ux = px / len;
  const uy = py / len;
  const plateExt = Math.abs(ux) * (p.offsetWidth / 2) + Math.abs(uy) * (p.offsetHeight / 2);
  const cardExt = Math.abs(ux) * (tw / 2) + Math.abs(uy) * (th / 2);
  const d = Math.max(Math.min(tw, th) * 0.3, Math.min(len - plateExt - cardExt - 6, len * 0.55, th * 0.75));
  return [w / 2 + ux * d, h / 2 + uy * d];
}

// ------------------------------------------------------------------------------------------------ the tray
/** The line above the hand: whose turn it is, the seat's note, and the seat's choices other than the hand. */
function tray(view: View, texts: Texts, h: Handlers): HTMLElement {
  const box = el("section", "tray");
  const priv = view.private;
  const mine = view.seat !== null && view.to_move.includes(view.seat);
  const status = el("div", "status");
  if (mine) status.append(el("span", "turn", texts.your_turn ?? ""));
  else if (view.seat === null) status.append(el("span", "waiting", texts.spectating ?? ""));
  else {
    const names = view.to_move.map((s) => view.scene?.seats[s]?.name ?? "").filter(Boolean);
    status.append(el("span", "waiting", names.length ? fill(texts.turn_of, { name: names.join(", ") }) : ""));
  }
  if (priv?.description) {
    const note = el("p", "note", rich(priv.description));
    status.append(note);
  }
  box.append(status);
  const asks = priv?.asks ?? [];
  const row = el("div", "asks");
  asks.forEach((a, i) => {
    const node = askNode(view, a, i, texts, h);
    if (node) row.append(node);
  });
  for (const b of view.buttons) {
    if (OPS_IN_MENU.has(b.op) && b.op !== "back") continue;
    row.append(opButton(b.op, b.label, b.style, h));
  }
  if (priv?.hint) {
    const b = button(texts.hint ?? "", "op secondary hint", () => h.lobby("hint"));
    b.dataset.op = "hint";
    row.append(b);
  }
  if (row.childNodes.length) box.append(row);
  return box;
}

function opButton(op: string, label: string, style: string | undefined, h: Handlers): HTMLButtonElement {
  const b = button(label, `op ${style ?? "secondary"}`, () => h.lobby(op));
  b.dataset.op = op;
  return b;
}

function send(o: AskOption, h: Handlers, cls = ""): HTMLButtonElement {
  const b = button(o.label, `send ${o.style ?? "secondary"} ${cls}`, () => h.act(o.action));
  b.dataset.action = JSON.stringify(o.action);
  return b;
}

function askNode(view: View, a: Ask, i: number, texts: Texts, h: Handlers): HTMLElement | null {
  const box = el("div", `ask ${a.kind}`);
  box.dataset.kind = a.kind;
  box.setAttribute("role", "group");
  box.setAttribute("aria-label", a.prompt);
  const options = a.options ?? [];
  if (a.kind === "hand") return null; // the hand itself is this control
  if (a.kind === "buttons") {
    for (const o of options) box.append(send(o, h));
    return box;
  }
  if (a.kind === "symbols") {
    box.append(el("span", "prompt", rich(a.prompt)));
    for (const o of options) {
      const b = send(o, h, "symbol");
      b.textContent = o.text ?? o.label;
      if (o.text === "♥" || o.text === "♦") b.classList.add("red");
      b.setAttribute("aria-label", o.label);
      b.title = o.label;
      if (o.name && o.name !== o.text) b.append(el("small", "", o.name));
      box.append(b);
    }
    return box;
  }
  if (a.kind === "number") return numberAsk(a, i, texts, h, box);
  if (a.kind === "cards") {
    const open = button(a.prompt, "op primary pick-cards", () => h.setUi({ sheet: `cards:${i}`, chosen: null }));
    open.setAttribute("aria-haspopup", "dialog");
    box.append(open);
    return box;
  }
  if (a.kind === "combo") return comboAsk(view, a, texts, h, box);
  return null;
}

/** A whole number from a range in one control: each value a button when they are few, else a stepper and
 * one send; with a symbol (Mighty's trump), the stepper picks the number and each symbol sends. */
function numberAsk(a: Ask, i: number, texts: Texts, h: Handlers, box: HTMLElement): HTMLElement {
  const options = a.options ?? [];
  const values = [...new Set(options.map((o) => o.value!))].sort((x, y) => x - y);
  const lo = values[0];
  const hi = values[values.length - 1];
  box.append(el("span", "prompt", rich(a.prompt)));
  if (!a.symbol_key && hi - lo < 10) {
    const bar = el("div", "bidbar");
    for (let v = lo; v <= hi; v++) {
      const o = options.find((x) => x.value === v);
      const b = button(String(v), "num " + (o ? (o.style ?? "secondary") : "off"), () => o && h.act(o.action));
      b.disabled = !o;
      if (o) {
        b.setAttribute("aria-label", o.label);
        b.dataset.action = JSON.stringify(o.action);
        b.classList.add("send");
      }
      bar.append(b);
    }
    box.append(bar);
    return box;
  }
  const key = `ask${i}`;
  const stored = h.ui.numbers[key];
  const now = stored !== undefined && stored >= lo && stored <= hi ? stored : lo;
  const step = (d: number): void => {
    let v = now + d;
    while (v >= lo && v <= hi && !values.includes(v)) v += d;
    if (v >= lo && v <= hi) h.setUi({ numbers: { ...h.ui.numbers, [key]: v } });
  };
  const minus = button("−", "step minus", () => step(-1));
  minus.disabled = now <= lo;
  minus.setAttribute("aria-label", `${now - 1}`);
  const plus = button("+", "step plus", () => step(1));
  plus.disabled = now >= hi;
  plus.setAttribute("aria-label", `${now + 1}`);
  const range = el("input", "range");
  range.type = "range";
  range.min = String(lo);
  range.max = String(hi);
  range.value = String(now);
  range.setAttribute("aria-label", a.prompt);
  range.addEventListener("input", () => h.setUi({ numbers: { ...h.ui.numbers, [key]: Number(range.value) } }));
  const shown = el("output", "value", String(now));
  box.append(el("div", "stepper", minus, shown, plus), range);
  const sends = el("div", "sends");
  if (a.symbol_key && a.symbols) {
    for (const s of a.symbols) {
      const o = options.find((x) => x.value === now && x.symbol === s.value);
      const b = o ? send(o, h, "symbol") : button("", "send symbol off", () => undefined);
      b.textContent = s.text;
      b.title = o?.label ?? s.name;
      b.setAttribute("aria-label", o?.label ?? s.name);
      b.disabled = !o;
      b.dataset.symbol = s.value;
      if (/^[♠♥♦♣]$/.test(s.text)) b.classList.add(s.value === "H" || s.value === "D" ? "red" : "black");
      sends.append(b);
    }
  } else {
    const o = options.find((x) => x.value === now);
    if (o) sends.append(send(o, h, "primary"));
  }
  box.append(sends);
  void texts;
  return box;
}

function comboAsk(view: View, a: Ask, texts: Texts, h: Handlers, box: HTMLElement): HTMLElement {
  const fields = a.fields ?? [];
  const inHand = new Set(view.private?.hand?.cards ?? []);
  const byHand = handField(view)?.key;
  let complete = true;
  for (const f of fields) {
    const picked = h.picks(f.key);
    if (picked.length !== f.count) complete = false;
    const group = el(
      "div",
      "field",
      el("span", "prompt", `${f.prompt} · ${fill(texts.chosen, { n: picked.length, count: f.count })}`),
    );
    group.dataset.field = f.key;
    group.dataset.count = String(f.count);
    // the cards of the hand are picked in the hand; only others (a kitty, a monte) get chips here
    for (const [label, value] of f.options) {
      if (f.key === byHand && inHand.has(value)) continue;
      const on = picked.includes(value);
      const chip = button(label, "chip" + (on ? " on" : ""), () => togglePick(h, f.key, f.count, value));
      chip.dataset.value = value;
      chip.setAttribute("aria-pressed", on ? "true" : "false");
      group.append(chip);
    }
    box.append(group);
  }
  const ok = button(a.prompt || texts.confirm || "", "send primary confirm", () => {
    const action: Action = { ...(a.base ?? {}) };
    for (const f of fields) {
      const vals = h.picks(f.key);
      action[f.key] = f.count === 1 ? vals[0] : [...vals].sort();
    }
    h.act(action);
  });
  ok.disabled = !complete;
  box.append(ok);
  return box;
}

function togglePick(h: Handlers, key: string, count: number, value: string): void {
  const now = h.picks(key);
  if (now.includes(value)) h.setPicks(key, now.filter((v) => v !== value));
  else if (count === 1) h.setPicks(key, [value]);
  else if (now.length < count) h.setPicks(key, [...now, value]);
}

// ------------------------------------------------------------------------------------------------ the hand
/** The combo field whose options are cards of the hand (a discard): picked by tapping the cards. */
function handField(view: View): { key: string; count: number; values: Set<string> } | null {
  const hand = new Set(view.private?.hand?.cards ?? []);
  for (const a of view.private?.asks ?? []) {
    if (a.kind !== "combo") continue;
    for (const f of a.fields ?? []) {
      const values = new Set(f.options.map(([, v]) => v).filter((v) => hand.has(v)));
      if (values.size) return { key: f.key, count: f.count, values };
    }
  }
  return null;
}

/** The seat's hand, fanned: the cards it may play now lift on a first tap and go on a second (or when dragged
 * up); the others are dimmed and say why when tapped. */
function handRow(view: View, hand: Hand, texts: Texts, h: Handlers): HTMLElement {
  const asks = view.private?.asks ?? [];
  const plays = new Map<string, AskOption[]>();
  for (const a of asks) if (a.kind === "hand") for (const [c, os] of Object.entries(a.cards ?? {})) plays.set(c, os);
  const handAsk = asks.find((a) => a.kind === "hand");
  const field = handField(view);
  const row = el("section", "hand" + (plays.size ? " to-play" : "") + (field ? " to-pick" : ""));
  row.dataset.count = String(hand.cards.length);
  row.setAttribute("role", "toolbar");
  row.setAttribute("aria-label", handAsk?.prompt ?? texts.your_hand ?? "");
  const why = hand.why ?? {};
  const cards: HTMLElement[] = [];
  hand.cards.forEach((code, idx) => {
    const playable = plays.has(code);
    const pickable = !!field && field.values.has(code);
    const picked = pickable && h.picks(field!.key).includes(code);
    const lifted = playable && h.ui.lifted === code;
    const dim = !!plays.size && !playable;
    const img = card(
      view,
      hand.deck,
      code,
      "card" +
        (playable ? " legal" : "") +
        (dim ? " dim" : "") +
        (pickable ? " pickable" : "") +
        (picked ? " picked" : "") +
        (lifted ? " lifted" : ""),
    );
    img.dataset.index = String(idx);
    img.tabIndex = idx === 0 ? 0 : -1;
    img.setAttribute("role", "button");
    const reason = why[code] ?? (plays.size ? null : hand.idle);
    let label = cardName(view, code);
    if (dim && reason) label += ` — ${reason}`;
    if (lifted) label += ` — ${texts.tap_again ?? ""}`;
    img.setAttribute("aria-label", label);
    if (playable) img.setAttribute("aria-pressed", lifted ? "true" : "false");
    if (pickable) img.setAttribute("aria-pressed", picked ? "true" : "false");
    const play = (): void => {
      const options = plays.get(code)!;
      h.playing(code, img.getBoundingClientRect());
      if (options.length === 1) h.act(options[0].action);
      else h.choose(texts.which_way ?? "", options);
    };
    const tapped = (): void => {
      if (playable) {
        if (h.ui.lifted === code) play();
        else h.setUi({ lifted: code });
      } else if (pickable) togglePick(h, field!.key, field!.count, code);
      else if (reason) h.say(`${cardName(view, code)}: ${reason}`);
    };
    dragOrTap(img, tapped, playable ? play : null);
    img.addEventListener("keydown", (e) => {
      if (e.key === "Enter" || e.key === " ") {
        e.preventDefault();
        tapped();
      } else if (e.key === "ArrowRight" || e.key === "ArrowLeft") {
        e.preventDefault();
        const next = cards[idx + (e.key === "ArrowRight" ? 1 : -1)];
        if (next) {
          img.tabIndex = -1;
          next.tabIndex = 0;
          next.focus();
        }
      } else if (e.key === "Escape" && h.ui.lifted) h.setUi({ lifted: null });
    });
    if (lifted) img.tabIndex = 0;
    cards.push(img);
    row.append(img);
  });
  if (h.ui.lifted && plays.has(h.ui.lifted)) cards.forEach((c) => (c.tabIndex = c.classList.contains("lifted") ? 0 : -1));
  return row;
}

/** A tap, or a drag upwards out of the hand that plays the card (``drop``) wherever it is let go. */
function dragOrTap(img: HTMLElement, tap: () => void, drop: (() => void) | null): void {
  let start: { x: number; y: number; id: number } | null = null;
  let dragging = false;
  img.addEventListener("pointerdown", (e) => {
    if (e.button !== 0) return;
    start = { x: e.clientX, y: e.clientY, id: e.pointerId };
    dragging = false;
  });
  img.addEventListener("pointermove", (e) => {
    if (!start || e.pointerId !== start.id || !drop) return;
    const dy = e.clientY - start.y;
    const dx = e.clientX - start.x;
    if (!dragging && Math.hypot(dx, dy) > 12) {
      dragging = true;
      img.setPointerCapture(e.pointerId);
      img.classList.add("dragging");
    }
    if (dragging) img.style.translate = `${dx}px ${dy}px`;
  });
  const end = (e: PointerEvent, cancelled: boolean): void => {
    if (!start || e.pointerId !== start.id) return;
    const dy = e.clientY - start.y;
    start = null;
    if (dragging) {
      dragging = false;
      img.classList.remove("dragging");
      const out = dy < -Math.max(60, img.offsetHeight * 0.6);
      if (!cancelled && out && drop) drop();
      else img.style.translate = "";
      return;
    }
  };
  img.addEventListener("pointerup", (e) => end(e, false));
  img.addEventListener("pointercancel", (e) => end(e, true));
  img.addEventListener("click", (e) => {
    if (img.classList.contains("dragging")) return;
    e.preventDefault();
    tap();
  });
}

/** Spreads the hand's cards in a fan that fits the row: as large as the space allows, overlapping as needed. */
export function fitHand(root: ParentNode): void {
  const row = root.querySelector<HTMLElement>(".hand");
  if (!row) return;
  const cards = Array.from(row.querySelectorAll<HTMLElement>(".card"));
  if (!cards.length) return;
  const cardW = cards[0].offsetWidth || 64;
  const cardH = cardW * 1.4;
  const n = cards.length;
  const fan = n > 1 ? Math.min(2.5, 14 / n) : 0; // degrees between neighbours
  const edge = ((fan * (n - 1)) / 2) * (Math.PI / 180);
  // the outer cards lean out by their height times the sine of their angle: keep room for them
  const lean = Math.ceil(cardH * Math.sin(edge));
  const room = row.clientWidth - 8 - 2 * lean;
  // a big hand (Minchiate's 21) on a narrow screen: two rows, the back row showing the cards' upper corners
  const rows = n > 14 && (room - cardW) / (n - 1) < cardW * 0.34 ? 2 : 1;
  const perRow = Math.ceil(n / rows);
  // the arc lowers the outer cards: the row is raised by as much, so that no card leaves the screen
  const sag = ((perRow - 1) / 2) ** 2 * fan * 0.3;
  row.style.height = `${Math.round(cardH + (rows - 1) * cardH * 0.4 + 36 + sag)}px`;
  cards.forEach((c, i) => {
    const r = rows === 2 && i < perRow ? 0 : rows - 1;
    const k = rows === 2 && r === 1 ? n - perRow : perRow;
    const j = rows === 2 && r === 1 ? i - perRow : i;
    const step = k > 1 ? Math.min(cardW * 0.9, (room - cardW) / (k - 1)) : 0;
    const left = (row.clientWidth - (cardW + step * (k - 1))) / 2;
    const off = j - (k - 1) / 2;
    c.style.left = `${left + j * step}px`;
    c.style.bottom = `${10 + sag + (rows - 1 - r) * cardH * 0.4}px`;
    c.style.setProperty("--rot", `${(off * fan).toFixed(2)}deg`);
    c.style.setProperty("--drop", `${(off * off * fan * 0.3).toFixed(1)}px`);
    c.style.zIndex = String(i + 1);
  });
}

// ------------------------------------------------------------------------------------------------ the paper
/** The lobby and a finished table: the table message's words, the seats, the buttons this reader may use. */
function paper(view: View, texts: Texts, h: Handlers): HTMLElement {
  const box = el("section", "paper-body");
  if (view.description) box.append(el("p", "description", rich(view.description)));
  for (const s of view.sections) box.append(el("div", "section", el("h3", "", rich(s.name)), el("p", "", rich(s.value))));
  if (view.status === "finished" && view.reveal) box.append(revealBody(view, view.reveal));
  if (view.footer) box.append(el("p", "footer", rich(view.footer)));
  const row = el("div", "table-buttons");
  for (const b of view.buttons) {
    row.append(opButton(b.op, b.label, b.style, h));
    if (b.op === "bot" && view.levels && view.levels.length > 1) {
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
      sel.setAttribute("aria-label", b.label);
      sel.addEventListener("change", () => sel.value && h.lobby("bot", sel.value));
      row.append(sel);
    }
  }
  if (view.status === "finished") box.append(el("p", "waiting", texts.finished ?? ""));
  box.append(row);
  return box;
}

// ------------------------------------------------------------------------------------------------ panels
function sheetFor(view: View, texts: Texts, h: Handlers, which: string): HTMLElement | null {
  const close = (): void => h.setUi({ sheet: null });
  const body = el("div", "sheet-body");
  let title = "";
  const scene = view.scene;
  if (which === "scores") {
    title = texts.score_sheet ?? "";
    if (view.description) body.append(el("p", "description", rich(view.description)));
    for (const s of view.sections) {
      body.append(el("div", "section", el("h3", "", rich(s.name)), el("p", "", rich(s.value))));
    }
    if (view.footer) body.append(el("p", "footer", rich(view.footer)));
  } else if (which === "last" && scene?.last_trick) {
    title = texts.last_trick ?? "";
    body.append(lastTrick(view, scene, scene.last_trick));
  } else if (which === "menu") {
    title = texts.menu ?? "";
    const row = el("div", "menu-buttons");
    for (const b of view.buttons) {
      if (!OPS_IN_MENU.has(b.op)) continue;
      // the menu closes first: the confirmation it may ask comes on its own
      const go = button(b.label, `op ${b.style ?? "secondary"}`, () => {
        close();
        h.lobby(b.op);
      });
      go.dataset.op = b.op;
      row.append(go);
    }
    body.append(row);
  } else if (which === "reveal" && view.reveal) {
    body.append(revealBody(view, view.reveal));
  } else if (which.startsWith("cards:")) {
    const a = view.private?.asks?.[Number(which.slice(6))];
    if (!a || a.kind !== "cards") return null;
    title = a.prompt;
    body.append(cardPicker(view, a, h));
  } else return null;
  const scrim = el("div", "scrim");
  scrim.addEventListener("click", close);
  const box = el("div", `sheet sheet-${which.split(":")[0]}`);
  box.setAttribute("role", "dialog");
  box.setAttribute("aria-modal", "true");
  if (title) box.setAttribute("aria-label", title);
  const head = el("div", "sheet-head", el("h2", "", rich(title)));
  const x = button("✕", "icon close", close);
  x.setAttribute("aria-label", texts.close ?? "");
  head.append(x);
  box.append(head, body);
  box.addEventListener("keydown", (e) => e.key === "Escape" && close());
  return el("div", "sheet-layer", scrim, box);
}

function lastTrick(view: View, scene: Scene, plays: Play[]): HTMLElement {
  const row = el("div", "last-cards");
  for (const [seat, code] of plays) {
    const name = scene.seats[seat]?.name ?? "";
    row.append(
      el(
        "figure",
        seat === scene.last_winner ? "winner" : "",
        card(view, scene.deck, code, "card small"),
        el("figcaption", "", name),
      ),
    );
  }
  return row;
}

function revealBody(view: View, r: NonNullable<View["reveal"]>): HTMLElement {
  const box = el("div", "reveal");
  box.append(el("p", "result", rich(r.text)));
  for (const row of r.rows) {
    const ring = new Set(row.ringed);
    const cards = el("div", "reveal-cards");
    for (const c of row.cards) cards.append(card(view, r.deck ?? "", c, "card tiny" + (ring.has(c) ? " ringed" : "")));
    box.append(el("div", "reveal-row", el("h3", "", row.label), cards));
  }
  return box;
}

/** One card of a set (a friend or partner call): the cards in the bot's order, one tap to choose, the
 * choice's own label to send it. */
function cardPicker(view: View, a: Ask, h: Handlers): HTMLElement {
  const box = el("div", "card-picker");
  const grid = el("div", "card-grid");
  const options = a.options ?? [];
  for (const o of options) {
    const img = card(view, a.deck ?? "", o.card!, "card pick" + (h.ui.chosen === o.card ? " chosen" : ""));
    img.tabIndex = 0;
    img.setAttribute("role", "button");
    img.setAttribute("aria-label", o.label);
    img.setAttribute("aria-pressed", h.ui.chosen === o.card ? "true" : "false");
    const go = (): void => h.setUi({ chosen: o.card! });
    img.addEventListener("click", go);
    img.addEventListener("keydown", (e) => (e.key === "Enter" || e.key === " ") && (e.preventDefault(), go()));
    grid.append(img);
  }
  box.append(grid);
  const chosen = options.find((o) => o.card === h.ui.chosen);
  const b = chosen ? send(chosen, h, "primary confirm") : button(a.prompt, "send primary confirm", () => undefined);
  b.disabled = !chosen;
  box.append(b);
  return box;
}
