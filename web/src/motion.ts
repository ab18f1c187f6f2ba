/**
 * The trick in motion, planned from the difference between two consecutive views (the server sends no
 * animation events): a card new on the trick flies there from its player (from the hand, for the reader's own
 * card); a trick that left the felt and is now the previous trick is shown whole for a moment, then goes to its
 * winner. The same difference gives what a screen reader hears. ``prefers-reduced-motion`` turns motion off.
 */
import { el, fill } from "./dom";
import { cardName, trickSpot } from "./render";
import type { Play, Scene, Texts, View } from "./types";

const reduced = (): boolean => window.matchMedia?.("(prefers-reduced-motion: reduce)").matches ?? false;

const same = (a: Play, b: Play): boolean => a[0] === b[0] && a[1] === b[1];

function added(before: Play[], after: Play[]): Play[] {
  return after.filter((p) => !before.some((q) => same(p, q)));
}

/** The trick ``before`` showed, gone from the felt and now the previous trick (completed by ``after``'s cards). */
function completed(before: Scene | null, after: Scene): Play[] | null {
  const was = before?.trick ?? [];
  const last = after.last_trick ?? [];
  if (!was.length || !last.length) return null;
  const stays = was.every((p) => after.trick.some((q) => same(p, q)));
  if (stays) return null;
  return was.every((p) => last.some((q) => same(p, q))) ? last : null;
}

function centre(r: DOMRect): [number, number] {
  return [r.left + r.width / 2, r.top + r.height / 2];
}

function plateRect(root: ParentNode, seat: number): DOMRect | null {
  return root.querySelector<HTMLElement>(`.felt .seat[data-seat="${seat}"]`)?.getBoundingClientRect() ?? null;
}

/** Moves ``node`` (at its place now) in from ``from``. */
function flyIn(node: HTMLElement, from: DOMRect, ms: number, delay = 0): void {
  const to = node.getBoundingClientRect();
  const [fx, fy] = centre(from);
  const [tx, ty] = centre(to);
  const scale = Math.max(0.4, Math.min(1.6, from.width / Math.max(1, to.width)));
  node.animate(
    [
      { transform: `translate(${fx - tx}px, ${fy - ty}px) scale(${scale})`, opacity: 0.7 },
      { transform: "none", opacity: 1 },
    ],
    { duration: ms, delay, easing: "cubic-bezier(.2,.7,.3,1)", fill: "backwards" },
  );
}

export function animate(
  before: View,
  after: View,
  root: ParentNode,
  layer: HTMLElement,
  flying: { code: string; from: DOMRect | null } | null,
): void {
  const scene = after.scene;
  if (!scene || reduced()) return;
  const old = before.scene;
  const from = (seat: number, code: string): DOMRect | null =>
    flying && flying.code === code && flying.from ? flying.from : plateRect(root, seat);
  for (const [seat, code] of added(old?.trick ?? [], scene.trick)) {
    const node = root.querySelector<HTMLElement>(`.trick .card[data-card="${code}"]`);
    const start = from(seat, code);
    if (node && start) flyIn(node, start, 320);
  }
  const done = completed(old, scene);
  const box = root.querySelector<HTMLElement>(".felt");
  if (!done || !box) return;
  // the trick as it ended, drawn over the table for a moment, then gathered by its winner
  const felt = box.getBoundingClientRect();
  const width = Number.parseFloat(getComputedStyle(box).getPropertyValue("--tw")) || felt.width * 0.14;
  const winner = scene.last_winner;
  const target = winner !== null ? plateRect(root, winner) : null;
  const fresh = added(old?.trick ?? [], done);
  const hold = 650;
  done.forEach(([seat, code], i) => {
    const [x, y] = trickSpot(box, seat);
    const img = el("img", "card ghost");
    img.src = `cards/${encodeURIComponent(scene.deck)}/${encodeURIComponent(code)}.png`;
    img.alt = "";
    img.style.width = `${width}px`;
    img.style.left = `${felt.left + x - width / 2}px`;
    img.style.top = `${felt.top + y - width * 0.7}px`;
    img.style.zIndex = String(10 + i);
    layer.append(img);
    if (fresh.some((p) => p[1] === code)) {
      const start = from(seat, code);
      if (start) flyIn(img, start, 300);
    }
    const [gx, gy] = centre(img.getBoundingClientRect());
    const [tx, ty] = target ? centre(target) : [gx, gy];
    const away = img.animate(
      [
        { transform: "none", opacity: 1 },
        { transform: `translate(${tx - gx}px, ${ty - gy}px) scale(.35)`, opacity: 0 },
      ],
      { duration: 380, delay: hold, easing: "ease-in", fill: "forwards" },
    );
    away.onfinish = () => img.remove();
    away.oncancel = () => img.remove();
  });
  const winnerPlate = winner !== null ? root.querySelector<HTMLElement>(`.felt .seat[data-seat="${winner}"]`) : null;
  winnerPlate?.animate([{ boxShadow: "0 0 0 0 rgba(242,193,78,0)" }, { boxShadow: "0 0 18px 6px rgba(242,193,78,.9)" }, { boxShadow: "0 0 0 0 rgba(242,193,78,0)" }], {
    duration: 700,
    delay: hold + 200,
  });
}

/** What a screen reader hears of the change from ``before`` to ``after``: the cards played, the trick's winner,
 * whose turn it is now. */
export function announce(before: View | null, after: View, texts: Texts): string {
  const scene = after.scene;
  if (!scene || after.status !== "running") return "";
  const name = (s: number): string => scene.seats[s]?.name ?? "";
  const out: string[] = [];
  const old = before?.scene ?? null;
  const done = completed(old, scene);
  const played = added(old?.trick ?? [], done ?? scene.trick);
  if (before) for (const [s, c] of played) out.push(fill(texts.played, { name: name(s), card: cardName(after, c) }));
  if (done && scene.last_winner !== null) out.push(fill(texts.won_trick, { name: name(scene.last_winner) }));
  if (done) for (const [s, c] of added([], scene.trick)) out.push(fill(texts.played, { name: name(s), card: cardName(after, c) }));
  const moved = !before || before.to_move.join() !== after.to_move.join() || out.length;
  if (moved && after.to_move.length) {
    const mine = after.seat !== null && after.to_move.includes(after.seat);
    out.push(mine ? (texts.your_turn ?? "") : fill(texts.turn_of, { name: after.to_move.map(name).join(", ") }));
  }
  return out.filter(Boolean).join(" ");
}
