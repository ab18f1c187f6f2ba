/**
 * Tavolo's Activity page: Discord's Embedded App SDK hands us the user (authorize → api/token → authenticate),
 * then one WebSocket keeps the tables of the Activity's channel in sync. The page holds no words of its own:
 * every text comes from the bot (welcome.texts and the views), already in the player's language.
 */
import { DiscordSDK } from "@discord/embedded-app-sdk";

import { Connection, type LinkState, post, type Reply, retrying, type TableId } from "./connection";
import { el, rich } from "./dom";
import { animate, announce } from "./motion";
import { fitHand, layoutFelt, renderTable, timerText, type Ui } from "./render";
import type { Action, AskOption, ServerFrame, Texts, TokenReply, User, View } from "./types";

interface Held {
  id: TableId;
  version: number;
  view: View;
}

const app = {
  texts: {} as Texts,
  user: null as User | null,
  link: "connecting" as LinkState,
  tables: new Map<string, Held>(),
  current: null as string | null,
  seatOf: {} as Record<string, number | null>,
  picks: new Map<string, string[]>(),
  fatal: null as string | null,
  /** the bot's words while a sign-in is retried (a 429's "Not so fast…", a restart's), else null */
  waiting: null as string | null,
  /** the page's own state of the table shown (reset when another table is shown) */
  ui: { sheet: null, lifted: null, numbers: {}, chosen: null } as Ui,
  uiOf: "",
  /** the reveal (a settled hand) each table showed last: a new one opens by itself */
  revealed: new Map<string, number>(),
  /** what the page drew last (the next drawing's motion is planned from the difference) */
  drawn: null as { key: string; version: number; view: View } | null,
  /** the card the reader just played and where it was */
  flying: null as { code: string; from: DOMRect | null } | null,
};

const root = document.getElementById("app")!;
const toastBox = el("div", "toasts");
const modalBox = el("div", "modal-layer");
// what a screen reader hears as the game goes (whose turn, what was played); the page draws it, this says it
const live = el("div", "sr-only");
live.id = "live";
live.setAttribute("aria-live", "polite");
live.setAttribute("role", "status");
const fx = el("div", "fx");
fx.setAttribute("aria-hidden", "true");
document.body.append(toastBox, modalBox, live, fx);

/** The application id: Discord serves an Activity at <application id>.discordsays.com; elsewhere (a test
 * harness, a reverse proxy of one's own) the launcher passes it as ?client_id=. */
function clientId(params: URLSearchParams): string {
  const m = /^(\d{5,25})\.discordsays\.com$/.exec(location.hostname);
  return m ? m[1] : (params.get("client_id") ?? "");
}

async function boot(): Promise<void> {
  draw();
  const params = new URLSearchParams(location.search);
  const id = clientId(params);
  const sdk = new DiscordSDK(id, { disableConsoleLogOverride: true });
  await sdk.ready();
  let token: TokenReply;
  try {
    // a 429, a 5xx or no answer is tried again with backoff; each try asks Discord for a fresh code (a code the
    // bot exchanged before it refused is spent)
    token = await retrying(
      async () => {
        const { code } = await sdk.commands.authorize({
          client_id: id,
          response_type: "code",
          state: "",
          prompt: "none",
          scope: ["identify"],
        });
        return post("api/token", { code, instance_id: sdk.instanceId });
      },
      (f) => {
        app.waiting = f.text ?? null;
        draw();
      },
    );
  } catch (err) {
    fail(err);
    return;
  }
  app.waiting = null;
  await sdk.commands.authenticate({ access_token: token.access_token });
  if (token.locale) document.documentElement.lang = token.locale;
  // the session for the next hello: the code exchange's first, then the one each welcome hands over for the
  // next reconnect; a session is presented once, and when none is left api/session makes a new one
  next = token.session;
  const accessToken = token.access_token;
  let wsPath = token.ws ?? "api/ws";
  const socketUrl = (): string => {
    const url = new URL(wsPath, location.href);
    url.protocol = location.protocol === "https:" ? "wss:" : "ws:";
    return url.toString();
  };
  const conn = new Connection(socketUrl, {
    async session() {
      if (next !== null) {
        const s = next;
        next = null;
        return s;
      }
      const renewed = await post("api/session", { access_token: accessToken, instance_id: sdk.instanceId });
      if (renewed.ws) wsPath = renewed.ws;
      return renewed.session;
    },
    known() {
      const k: Record<string, number> = {};
      for (const [key, t] of app.tables) k[key] = t.version;
      return k;
    },
    frame: (f) => receive(f, conn),
    state(state, detail) {
      app.link = state;
      if (state === "closed") app.fatal = detail?.text ?? detail?.code ?? "";
      draw();
    },
  });
  connection = conn;
  conn.start();
}

let connection: Connection | null = null;
let next: string | null = null;

function fail(err: unknown): void {
  // the bot's refusal (its text), or what Discord's client said (an SDK error's message)
  const e = err as { text?: string; code?: string | number; message?: string };
  app.link = "closed";
  app.fatal = e.text ?? e.message ?? (e.code !== undefined ? String(e.code) : String(err));
  draw();
}

function receive(f: ServerFrame, conn: Connection): void {
  switch (f.t) {
    case "welcome":
      if (f.session) next = f.session;
      app.user = f.user;
      app.texts = f.texts;
      app.seatOf = f.seat_of;
      break;
    case "table":
      app.tables.set(String(f.table), { id: f.table, version: f.version, view: f.view });
      noteReveal(String(f.table), f.view);
      break;
    case "patch": {
      const held = app.tables.get(String(f.table));
      if (!held || held.version !== f.from) {
        // the page missed something: a full sync (the bot sends whole views on every connect)
        conn.resync();
        return;
      }
      const view = { ...held.view, ...f.set } as View;
      for (const k of f.del ?? []) delete (view as unknown as Record<string, unknown>)[k];
      app.tables.set(String(f.table), { id: held.id, version: f.version, view });
      noteReveal(String(f.table), view);
      break;
    }
    case "gone":
      app.tables.delete(String(f.table));
      if (app.current === String(f.table)) app.current = null;
      break;
    default:
      return;
  }
  draw();
}

/** A hand settled since the page last looked opens its reveal (not the one a page finds when it opens). */
function noteReveal(key: string, view: View): void {
  const k = view.reveal?.key ?? 0;
  const before = app.revealed.get(key);
  app.revealed.set(key, k);
  if (before !== undefined && k > before && view.status === "running") {
    if (app.uiOf !== key) resetUi(key);
    app.ui.sheet = "reveal";
  }
}

function resetUi(key: string): void {
  app.ui = { sheet: null, lifted: null, numbers: {}, chosen: null };
  app.uiOf = key;
}

/** The table shown: the one picked, else the one the user sits at (the newest), else the newest. */
function shown(): Held | null {
  if (app.current && app.tables.has(app.current)) return app.tables.get(app.current)!;
  const all = [...app.tables.entries()];
  const seated = all.filter(([, t]) => t.view.seat !== null && t.view.status !== "cancelled");
  const list = seated.length ? seated : all;
  const pick = list[list.length - 1];
  return pick ? pick[1] : null;
}

function draw(): void {
  const t = app.texts;
  const nodes: Node[] = [];
  if (app.link !== "live") {
    const words =
      app.link === "closed"
        ? app.fatal || t.disconnected
        : app.link === "reconnecting"
          ? t.reconnecting
          : (app.waiting ?? t.connecting);
    nodes.push(el("div", `link ${app.link}`, el("span", "spinner"), el("span", "", words ?? "")));
  }
  if (app.tables.size > 1) {
    const tabs = el("nav", "tabs");
    const current = shown();
    for (const [key, held] of app.tables) {
      const b = el("button", "tab" + (held === current ? " on" : ""), rich(held.view.title));
      b.type = "button";
      b.addEventListener("click", () => {
        app.current = key;
        draw();
      });
      tabs.append(b);
    }
    nodes.push(tabs);
  }
  const held = shown();
  const key = held ? String(held.id) : "";
  const before = app.drawn;
  if (held) {
    if (app.uiOf !== key) resetUi(key);
    if (before && before.key === key && before.version !== held.version) {
      // a new version: a lifted card, a half-made pick, a card picker belong to the one before
      app.ui.lifted = null;
      app.ui.chosen = null;
      if (app.ui.sheet?.startsWith("cards:")) app.ui.sheet = null;
    }
    const node = renderTable(held.view, t, handlers(held));
    // which table at which version the page shows (for people reporting a problem, and the browser tests)
    node.dataset.table = String(held.id);
    node.dataset.version = String(held.version);
    nodes.push(node);
  } else if (app.link === "live") nodes.push(el("p", "empty", t.no_table ?? ""));
  // the focus survives the redraw (a keyboard player keeps their place in the hand)
  const focused = document.activeElement as HTMLElement | null;
  const mark = focused && root.contains(focused) ? focusMark(focused) : null;
  root.replaceChildren(...nodes);
  layout();
  if (mark) root.querySelector<HTMLElement>(mark)?.focus();
  // a panel that just opened takes the focus (Escape closes it; Tab stays on its buttons)
  const active = document.activeElement;
  if ((!active || active === document.body) && root.querySelector(".sheet")) {
    root.querySelector<HTMLElement>(".sheet .close")?.focus();
  }
  if (held) {
    const fresh = !before || before.key !== key;
    if (!fresh && before.version !== held.version) {
      animate(before.view, held.view, root, fx, app.flying);
      live.textContent = announce(before.view, held.view, t);
    } else if (fresh) live.textContent = announce(null, held.view, t);
    app.flying = null;
    app.drawn = { key, version: held.version, view: held.view };
  }
}

function focusMark(node: HTMLElement): string | null {
  if (node.dataset.card) return `.${node.parentElement?.classList[0] ?? "hand"} .card[data-card="${node.dataset.card}"]`;
  if (node.dataset.op) return `button[data-op="${node.dataset.op}"]`;
  if (node.dataset.action) return `button[data-action='${node.dataset.action}']`;
  return null;
}

function layout(): void {
  fitHand(root); // (first: a hand of two rows takes height from the felt)
  layoutFelt(root);
  tick();
}

function handlers(held: Held): Parameters<typeof renderTable>[2] {
  const key = (field: string): string => `${String(held.id)}:${held.version}:${field}`;
  return {
    act(action: Action) {
      void answer(connection?.send({ t: "act", table: held.id, version: held.version, action }));
    },
    lobby(op: string, level?: string) {
      void lobby(held, op, level);
    },
    picks: (field) => app.picks.get(key(field)) ?? [],
    setPicks(field, values) {
      app.picks.set(key(field), values);
      draw();
    },
    choose(title, choices) {
      void choose(title, choices).then((ch) => ch && this.act(ch.action));
    },
    ui: app.ui,
    setUi(patch) {
      Object.assign(app.ui, patch);
      draw();
    },
    say: (text) => toast(text, "info", 3000),
    playing(code, from) {
      app.flying = { code, from };
    },
    now: () => Date.now(),
  };
}

/** Leaving a running game, cancelling or ending a table: asked first, as in Discord (the bot's question when it
 * sends one, else the button's own label; a tap beside the box, like dismissing Discord's message, says no). */
async function lobby(held: Held, op: string, level?: string): Promise<void> {
  const t = app.texts;
  const destructive = (op === "leave" && held.view.status === "running") || op === "cancel" || op === "end";
  if (destructive) {
    const label = held.view.buttons.find((b) => b.op === op)?.label ?? "";
    const yes = await confirm(t[`confirm_${op}`] ?? label, t[`yes_${op}`] ?? t.yes ?? t.confirm ?? label, t.no);
    if (!yes) return;
  }
  await answer(connection?.send({ t: "lobby", table: held.id, op, ...(level ? { level } : {}) }));
}

async function answer(reply: Promise<Reply> | undefined): Promise<void> {
  const r = await reply;
  if (!r) return;
  // a refusal in the bot's words; an answer with words of its own (a hint) shown the same way, as news
  if (!r.ok) toast(r.text ?? (r.code === "offline" ? app.texts.reconnecting : app.texts[r.code ?? ""]) ?? "");
  else if (r.text) toast(r.text, "info");
}

function toast(text: string, kind = "refusal", ms?: number): void {
  if (!text) return;
  // one note at a time: a new tap replaces the note of the one before
  toastBox.querySelectorAll(".toast.info").forEach((n) => n.remove());
  const node = el("div", `toast ${kind}`, rich(text));
  node.setAttribute("role", "alert");
  toastBox.append(node);
  window.setTimeout(() => node.remove(), ms ?? (kind === "info" ? 9000 : 4000));
}

function modal(title: string, buttons: [string | undefined, string, () => void][], dismiss: () => void): void {
  const close = (): void => modalBox.replaceChildren();
  const box = el("div", "modal", el("p", "", rich(title)));
  const row = el("div", "modal-buttons");
  const scrim = el("div", "scrim");
  scrim.addEventListener("click", () => {
    close();
    dismiss();
  });
  for (const [label, style, go] of buttons) {
    if (!label) continue;
    const b = el("button", `choice ${style}`, label);
    b.type = "button";
    b.addEventListener("click", () => {
      close();
      go();
    });
    row.append(b);
  }
  box.append(row);
  modalBox.replaceChildren(scrim, box);
}

function confirm(question: string, yes: string, no: string | undefined): Promise<boolean> {
  return new Promise((resolve) =>
    modal(
      question,
      [
        [yes, "danger", () => resolve(true)],
        [no, "secondary", () => resolve(false)],
      ],
      () => resolve(false),
    ),
  );
}

function choose(title: string, choices: AskOption[]): Promise<AskOption | null> {
  return new Promise((resolve) =>
    modal(
      title,
      choices.map((c): [string, string, () => void] => [c.label, c.style ?? "secondary", () => resolve(c)]),
      () => resolve(null),
    ),
  );
}

/** The turn timers: the countdown's text and the bar on the plate of the seat to move, which runs out with it
 * (its full length is the time left when the page first saw that deadline). */
const firstSeen = new Map<number, number>();
function tick(): void {
  const now = Date.now();
  for (const node of document.querySelectorAll<HTMLElement>(".timer")) {
    node.textContent = timerText(Number(node.dataset.deadline), app.texts, now);
  }
  for (const bar of document.querySelectorAll<HTMLElement>(".timebar")) {
    const deadline = Number(bar.dataset.deadline);
    if (!firstSeen.has(deadline)) firstSeen.set(deadline, now);
    const total = Math.max(1, deadline - firstSeen.get(deadline)!);
    const left = Math.max(0, Math.min(1, (deadline - now) / total));
    (bar.firstElementChild as HTMLElement).style.width = `${(left * 100).toFixed(1)}%`;
    bar.classList.toggle("low", deadline - now < 10_000);
  }
  if (firstSeen.size > 64) firstSeen.delete(firstSeen.keys().next().value!);
}
// the turn timer counts down between views without redrawing the table
window.setInterval(tick, 1000);
window.addEventListener("resize", layout);

boot().catch(fail);
