/**
 * Building the page's elements: every text a version holds is someone's words (a
 * collaborator's note, a fetched fork), so it goes in as `textContent`, never as markup;
 * attributes are set by name from a fixed list of callers. A URL becomes a link only when it
 * is plain http(s); anything else (`javascript:`, `data:`, a relative path) stays text.
 */

type Child = Node | string | null | undefined | false;

/** An element with attributes (`data-*`, `aria-*`, `class`, ...) and children (strings are text). */
export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Record<string, string | undefined> = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== undefined) e.setAttribute(k, v);
  for (const c of children) if (c !== null && c !== undefined && c !== false) e.append(typeof c === 'string' ? document.createTextNode(c) : c);
  return e;
}

const SVG = 'http://www.w3.org/2000/svg';

export function svg(tag: string, attrs: Record<string, string>): SVGElement {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  return e;
}

/** A plain http(s) URL: a scheme, a host of letters, digits, dots and dashes, then no space, quote or angle bracket. */
const URL_RE = /\bhttps?:\/\/[a-z0-9.-]+(?::\d+)?(?:\/[^\s"'<>`^\\{}|]*)?/gi;

/** `text` as nodes: its plain http(s) URLs as links (opened without a referrer), the rest as text. */
export function linkified(text: string): Node[] {
  const out: Node[] = [];
  let at = 0;
  for (const m of text.matchAll(URL_RE)) {
    const url = m[0].replace(/[.,;:!?)\]]+$/, '');
    const start = m.index ?? 0;
    if (start > at) out.push(document.createTextNode(text.slice(at, start)));
    let href: string | null = null;
    try {
      const u = new URL(url);
      if (u.protocol === 'http:' || u.protocol === 'https:') href = u.href;
    } catch {
      href = null;
    }
    out.push(href ? el('a', { href, rel: 'noopener noreferrer nofollow', target: '_blank' }, url) : document.createTextNode(url));
    at = start + url.length;
  }
  if (at < text.length) out.push(document.createTextNode(text.slice(at)));
  return out;
}

export function clear(e: Element): void {
  while (e.firstChild) e.removeChild(e.firstChild);
}

export const short = (id: string) => id.slice(0, 12);
