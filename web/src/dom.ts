/** Small DOM helpers: elements built with properties only (no HTML strings, so no markup from a text runs). */

export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  cls?: string,
  ...children: (Node | string | null | undefined | false)[]
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    node.append(c);
  }
  return node;
}

/**
 * A text of the bot's catalogue as nodes: the bot writes Discord markdown, of which the page keeps what reads
 * well on a table (**bold**, *italics*, `code`, line breaks) and shows everything else as typed.
 */
export function rich(text: string | null | undefined): DocumentFragment {
  const frag = document.createDocumentFragment();
  if (!text) return frag;
  const lines = text.split("\n");
  lines.forEach((line, i) => {
    if (i > 0) frag.append(document.createElement("br"));
    const pattern = /\*\*(.+?)\*\*|\*(.+?)\*|`(.+?)`|__(.+?)__/g;
    let at = 0;
    for (let m = pattern.exec(line); m !== null; m = pattern.exec(line)) {
      if (m.index > at) frag.append(line.slice(at, m.index));
      if (m[1] !== undefined) frag.append(el("strong", "", m[1]));
      else if (m[2] !== undefined) frag.append(el("em", "", m[2]));
      else if (m[3] !== undefined) frag.append(el("code", "", m[3]));
      else frag.append(el("u", "", m[4]));
      at = m.index + m[0].length;
    }
    if (at < line.length) frag.append(line.slice(at));
  });
  return frag;
}

/** One card face as the bot draws it. */
export function cardImage(deck: string, code: string, cls = "card"): HTMLImageElement {
  const img = el("img", cls);
  img.src = `cards/${encodeURIComponent(deck)}/${encodeURIComponent(code)}.png`;
  img.alt = code;
  img.draggable = false;
  img.dataset.card = code;
  return img;
}

/** A text with {name} placeholders filled (the bot's texts use the catalogue's brace style). */
export function fill(text: string | undefined, values: Record<string, string | number>): string {
  return (text ?? "").replace(/\{(\w+)\}/g, (all, key: string) => (key in values ? String(values[key]) : all));
}
