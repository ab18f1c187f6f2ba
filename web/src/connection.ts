/**
 * One WebSocket to the bot (api/ws), kept alive: hello with the versions the page already holds, keep-alive
 * pings, and after a drop a reconnect with growing, jittered delays. Every (re)connect asks the caller for a
 * session first (the first one comes from api/token, later ones from api/session), so a session is never
 * presented twice and an expired one is replaced without the player noticing.
 *
 * Nothing the bot may answer for a while ends the page: a 429 (a login budget spent, with its Retry-After), a 5xx
 * or no answer at all (the bot restarting behind its proxy), a closed socket: each is retried with the same
 * capped, jittered backoff (docs/activity-security.md). Only a refusal that a retry cannot cure (another origin,
 * not a participant, Discord not knowing who this is) stops it.
 */
import type { Action, ServerFrame, TokenReply } from "./types";

export type LinkState = "connecting" | "live" | "reconnecting" | "closed";

export interface Reply {
  ok: boolean;
  code?: string;
  text?: string;
}

export interface ConnectionHooks {
  /** a session for the next hello (throws when the bot refuses to renew it: the page stops) */
  session(): Promise<string>;
  /** the versions held now, sent in hello so the bot knows what the page has */
  known(): Record<string, number>;
  frame(frame: ServerFrame): void;
  state(state: LinkState, detail?: { code?: string; text?: string }): void;
}

const PING_MS = 20_000;
const FATAL = new Set(["wrong_origin", "elsewhere", "not_participant", "no_channel"]);
const FIRST_DELAY_MS = 250;
const MAX_DELAY_MS = 8_000;
/** the longest a Retry-After is waited for (a bot asking for more is asked again then) */
const MAX_RETRY_AFTER_MS = 60_000;

/** A request the bot did not answer with what was asked: ``retry`` when trying again later may work (a 429, a
 * 5xx, no answer), ``fatal`` when it cannot (any other 4xx: its text says why, in the player's language). */
export interface Failure {
  code?: string;
  text?: string;
  fatal?: boolean;
  retry?: boolean;
  /** seconds the bot asked to wait (its Retry-After) */
  retryAfter?: number;
}

/** The wait before retry number ``attempt`` (0 first): doubling from 250 ms to 8 s, a random half of it as
 * jitter (pages that lost the bot together do not come back together), never shorter than the bot's Retry-After
 * (itself capped at a minute), which gets up to a second of jitter of its own. */
export function retryDelay(attempt: number, retryAfter?: number, random: () => number = Math.random): number {
  const base = Math.min(MAX_DELAY_MS, FIRST_DELAY_MS * 2 ** Math.min(attempt, 16));
  const backoff = base / 2 + random() * (base / 2);
  if (!retryAfter || !(retryAfter > 0)) return backoff;
  return Math.max(backoff, Math.min(MAX_RETRY_AFTER_MS, retryAfter * 1000) + random() * 1000);
}

/** POST a JSON body to one of the bot's endpoints (api/token, api/session); throws a {@link Failure}. */
export async function post(path: string, body: unknown): Promise<TokenReply> {
  let res: Response;
  try {
    res = await fetch(path, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
      credentials: "same-origin",
    });
  } catch {
    throw { code: "offline", retry: true } satisfies Failure; // no answer: the bot (or its proxy) is not there now
  }
  const data = (await res.json().catch(() => ({}))) as TokenReply & { error?: string; text?: string };
  if (!res.ok) {
    const retry = res.status === 429 || res.status >= 500;
    const after = Number(res.headers.get("Retry-After"));
    throw {
      code: data.error,
      text: data.text,
      fatal: !retry,
      retry,
      retryAfter: Number.isFinite(after) && after > 0 ? after : undefined,
    } satisfies Failure;
  }
  return data;
}

/** ``attempt()`` until it succeeds: a {@link Failure} marked ``retry`` is told to ``waiting`` and tried again after
 * {@link retryDelay}; anything else (a fatal refusal, an error of Discord's SDK) is thrown. */
export async function retrying<T>(attempt: () => Promise<T>, waiting: (f: Failure) => void): Promise<T> {
  for (let n = 0; ; n++) {
    try {
      return await attempt();
    } catch (err) {
      const f = err as Failure;
      if (!f || typeof f !== "object" || !f.retry) throw err;
      waiting(f);
      await new Promise((resolve) => window.setTimeout(resolve, retryDelay(n, f.retryAfter)));
    }
  }
}

export class Connection {
  private ws: WebSocket | null = null;
  private req = 0;
  private pending = new Map<number, (r: Reply) => void>();
  private attempt = 0;
  private pinger: number | undefined;
  private retry: number | undefined;
  private stopped = false;
  private welcomed = false;
  /** a session that was never presented (its socket did not open): the next attempt uses it */
  private unsent: string | null = null;

  constructor(
    /** the socket's address now (the bot may name another path for it with each session) */
    private readonly url: () => string,
    private readonly hooks: ConnectionHooks,
  ) {}

  start(): void {
    void this.open();
  }

  /** Drop the socket and sync again at once (a patch arrived that does not apply to what the page holds). */
  resync(): void {
    this.ws?.close(4000, "resync");
  }

  /** A table-level or game frame; resolves with the bot's ok/refused (or a failure when the link drops). */
  send(frame: ActFrame | LobbyFrame): Promise<Reply> {
    const req = ++this.req;
    return new Promise((resolve) => {
      if (!this.ws || this.ws.readyState !== WebSocket.OPEN || !this.welcomed) {
        resolve({ ok: false, code: "offline" });
        return;
      }
      this.pending.set(req, resolve);
      this.ws.send(JSON.stringify({ ...frame, req }));
    });
  }

  private async open(): Promise<void> {
    if (this.stopped) return;
    this.hooks.state(this.attempt === 0 ? "connecting" : "reconnecting");
    let session: string;
    try {
      session = this.unsent ?? (await this.hooks.session());
    } catch (err) {
      const e = err as Failure;
      if (e.fatal) {
        this.stop(e);
        return;
      }
      this.later(e.retryAfter);
      return;
    }
    this.unsent = session;
    const ws = new WebSocket(this.url());
    this.ws = ws;
    this.welcomed = false;
    ws.onopen = () => {
      this.unsent = null; // presented now: a second hello with it would be a replay
      ws.send(JSON.stringify({ t: "hello", session, known: this.hooks.known() }));
      this.pinger = window.setInterval(() => {
        if (ws.readyState === WebSocket.OPEN) ws.send('{"t":"ping"}');
      }, PING_MS);
    };
    ws.onmessage = (ev: MessageEvent) => {
      let frame: ServerFrame;
      try {
        frame = JSON.parse(String(ev.data)) as ServerFrame;
      } catch {
        return;
      }
      this.receive(frame);
    };
    ws.onclose = () => {
      window.clearInterval(this.pinger);
      if (this.ws !== ws) return;
      this.ws = null;
      this.welcomed = false;
      for (const resolve of this.pending.values()) resolve({ ok: false, code: "offline" });
      this.pending.clear();
      this.later();
    };
  }

  private receive(frame: ServerFrame): void {
    switch (frame.t) {
      case "welcome":
        this.welcomed = true;
        this.attempt = 0;
        this.hooks.frame(frame);
        this.hooks.state("live");
        return;
      case "ok":
      case "refused": {
        const resolve = this.pending.get(frame.req);
        this.pending.delete(frame.req);
        if (resolve)
          resolve(frame.t === "ok" ? { ok: true, text: frame.text } : { ok: false, code: frame.code, text: frame.text });
        return;
      }
      case "error":
        // the bot closes the socket after this; a fresh session on the next attempt cures most (expired,
        // replayed, a restarting bot), but not a page from the wrong origin or a table held by another process
        if (FATAL.has(frame.code)) this.stop(frame);
        return;
      case "pong":
        return;
      default:
        this.hooks.frame(frame);
    }
  }

  private later(retryAfter?: number): void {
    if (this.stopped) return;
    this.hooks.state("reconnecting");
    const delay = retryDelay(this.attempt, retryAfter);
    this.attempt += 1;
    window.clearTimeout(this.retry);
    this.retry = window.setTimeout(() => void this.open(), delay);
  }

  private stop(detail: { code?: string; text?: string }): void {
    this.stopped = true;
    window.clearTimeout(this.retry);
    this.ws?.close();
    this.hooks.state("closed", detail);
  }
}

export type TableId = string | number;

export interface ActFrame {
  t: "act";
  table: TableId;
  version: number;
  action: Action;
}

export interface LobbyFrame {
  t: "lobby";
  table: TableId;
  op: string;
  level?: string;
}
