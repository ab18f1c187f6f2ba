/** The frames and views of docs/activity-protocol.md, as the client reads them. */

export type Action = Record<string, unknown>;

export interface Choice {
  label: string;
  style?: string;
  description?: string | null;
  action: Action;
}

export interface ComboField {
  key: string;
  placeholder: string;
  count: number;
  options: [string, string][];
}

export interface Control {
  kind: "buttons" | "select" | "combo";
  placeholder?: string;
  choices: Choice[];
  base_action?: Action | null;
  fields?: ComboField[];
}

export interface Section {
  name: string;
  value: string;
}

export interface Hand {
  deck: string;
  cards: string[];
  legal: string[] | null;
  groups: string[][] | null;
  /** why each dimmed card may not be played now, in the game's words */
  why?: Record<string, string>;
  /** what a tap on a card says while the seat is not to move */
  idle?: string | null;
}

export interface AskOption {
  label: string;
  style?: string;
  action: Action;
  value?: number;
  symbol?: string;
  card?: string;
  text?: string;
  name?: string;
}

export interface AskField {
  key: string;
  prompt: string;
  count: number;
  options: [string, string][];
}

/** One of the seat's choices, by its shape (bot/activity/asks.py). */
export interface Ask {
  kind: "hand" | "number" | "symbols" | "cards" | "buttons" | "combo";
  prompt: string;
  cards?: Record<string, AskOption[]>;
  key?: string;
  symbol_key?: string;
  symbols?: { value: string; text: string; name: string }[];
  options?: AskOption[];
  deck?: string;
  base?: Action;
  fields?: AskField[];
}

export interface Private {
  title: string;
  description: string;
  sections: Section[];
  footer: string;
  controls: Control[];
  hand: Hand | null;
  hint: boolean;
  asks?: Ask[];
  away?: boolean;
}

export interface SeatInfo {
  name: string;
  line: string;
  active: boolean;
  team: number | null;
}

export type Play = [number, string];

export interface Plate {
  chips: { kind: string; label: string; value: string }[];
  dealer: boolean;
  role: string | null;
  passed: boolean;
  computer: boolean;
  away: boolean;
}

export interface Reveal {
  key: number;
  text: string;
  deck: string | null;
  rows: { label: string; cards: string[]; ringed: string[] }[];
}
export interface Scene {
  deck: string;
  seats: SeatInfo[];
  trick: Play[];
  last_trick: Play[] | null;
  centre_text: string | null;
  centre_card: string | null;
  trick_winner: number | null;
  last_winner: number | null;
  bottom_seat: number;
  clockwise: boolean;
  plates?: Plate[];
}

export interface TableButton {
  op: string;
  label: string;
  style?: string;
}

export interface Level {
  level: string;
  label: string;
  help?: string;
}

export interface View {
  game: string;
  status: "lobby" | "running" | "finished" | "cancelled";
  seat: number | null;
  title: string;
  description: string;
  sections: Section[];
  footer: string;
  buttons: TableButton[];
  levels: Level[] | null;
  scene: Scene | null;
  private: Private | null;
  deadline: number | null;
  to_move: number[];
  reveal?: Reveal | null;
  /** card code -> its name in the reader's language (what the page says for it) */
  cards?: Record<string, string>;
}

export interface User {
  id: string;
  name: string;
}

export type Texts = Record<string, string>;

export type ServerFrame =
  | { t: "welcome"; user: User; seat_of: Record<string, number | null>; texts: Texts; session?: string }
  | { t: "table"; table: string | number; version: number; view: View }
  | { t: "patch"; table: string | number; from: number; version: number; set: Partial<View>; del?: string[] }
  | { t: "gone"; table: string | number }
  | { t: "ok"; req: number; text?: string }
  | { t: "refused"; req: number; code: string; text: string }
  | { t: "error"; code: string; text: string }
  | { t: "pong" };

/** What /api/token and /api/session answer. */
export interface TokenReply {
  access_token?: string;
  session: string;
  expires_in?: number;
  user?: User;
  channel_id?: string;
  locale?: string;
  /** the socket's path (with several bot processes, the one holding the channel's guild) */
  ws?: string;
}
