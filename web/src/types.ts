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
}

export interface Private {
  title: string;
  description: string;
  sections: Section[];
  footer: string;
  controls: Control[];
  hand: Hand | null;
  hint: boolean;
}

export interface SeatInfo {
  name: string;
  line: string;
  active: boolean;
  team: number | null;
}

export type Play = [number, string];

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
