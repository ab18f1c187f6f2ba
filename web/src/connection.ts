/**
 * One WebSocket to the bot (api/ws), kept alive: hello with the versions the page already holds, keep-alive
 * pings, and after a drop a reconnect with growing, jittered delays. Every (re)connect asks the caller for a
 * session first (the first one comes from api/token, later ones from api/session), so a session is never
 * presented twice and an expired one is replaced without the player noticing.
 */
import type { Action, ServerFrame } from "./types";

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

export class Connection {
  private ws: WebSocket | null = null;
  private req = 0;
  private pending = new Map<number, (r: Reply) => void>();
  private attempt = 0;
  private pinger: number | undefined;
  private retry: number | undefined;
  private stopped = false;
  private welcomed = false;

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
      session = await this.hooks.session();
    } catch (err) {
      const e = err as { code?: string; text?: string; fatal?: boolean };
      if (e.fatal) {
        this.stop(e);
        return;
      }
      this.later();
      return;
    }
    const ws = new WebSocket(this.url());
    this.ws = ws;
    this.welcomed = false;
    ws.onopen = () => {
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

  private later(): void {
    if (this.stopped) return;
    this.hooks.state("reconnecting");
    const base = Math.min(MAX_DELAY_MS, FIRST_DELAY_MS * 2 ** this.attempt);
    this.attempt += 1;
    window.clearTimeout(this.retry);
    this.retry = window.setTimeout(() => void this.open(), base / 2 + Math.random() * (base / 2));
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
