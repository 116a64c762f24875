/**
 * The one sanitiser for text a person or an agent reads (DESIGN.md "Trust": control
 * characters but newline and tab, escape sequences, bare CR and bidi controls are shown
 * visibly). A note, a branch name, a tracked file may hold bytes that drive a terminal (OSC 52
 * writes the clipboard, a CR overwrites the line, U+202E reverses it) or hide text from the
 * reader; every human rendering and every agent context shows them instead, in `cat -v`'s
 * caret notation for C0 and DEL (ESC is `^[`, so a sequence is shown whole and inert) and as
 * `\uXXXX` for C1, bidi controls and the Unicode line separators. Stored content is never
 * changed: only what is printed. JSON output keeps the exact text (`jsonVisible`).
 */

// C0 but tab and line feed, DEL, C1, ALM, LRM/RLM, LS/PS and the embeddings/overrides, the isolates.
const UNSAFE = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/;
const UNSAFE_ALL = new RegExp(UNSAFE.source, 'g');

function shown(ch: string, next: string | undefined): string {
  const c = ch.charCodeAt(0);
  // CR LF is a line end (a note written on Windows); only a CR on its own moves the cursor back.
  if (c === 0x0d && next === '\n') return ch;
  if (c < 0x20) return `^${String.fromCharCode(c + 0x40)}`;
  if (c === 0x7f) return '^?';
  return `\\u${c.toString(16).toUpperCase().padStart(4, '0')}`;
}

/** `s` with every character that would act on a terminal or hide text shown visibly; `s` itself when it has none. */
export function visibleText(s: string): string {
  if (!UNSAFE.test(s)) return s;
  return s.replace(UNSAFE_ALL, (ch, at: number) => shown(ch, s[at + 1]));
}

/** A copy of a plain value (a handoff, a list of rows) with every string in it, keys included, made visible. */
export function visibleDeep<T>(x: T): T {
  // Iterative: a hostile document may be nested far deeper than the stack allows.
  const root: { v: unknown } = { v: x };
  const work: [Record<string, unknown> | unknown[], string | number, unknown][] = [[root as Record<string, unknown>, 'v', x]];
  while (work.length) {
    const [parent, key, value] = work.pop()!;
    let copy: unknown = value;
    if (typeof value === 'string') copy = visibleText(value);
    else if (Array.isArray(value)) {
      const arr: unknown[] = new Array(value.length);
      value.forEach((item, i) => work.push([arr, i, item]));
      copy = arr;
    } else if (value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
      const obj: Record<string, unknown> = {};
      for (const [k, item] of Object.entries(value as Record<string, unknown>)) {
        const name = visibleText(k);
        obj[name] = undefined; // the key's place now, so the copy keeps the order
        work.push([obj, name, item]);
      }
      copy = obj;
    }
    (parent as Record<string | number, unknown>)[key] = copy;
  }
  return root.v as T;
}

// What JSON.stringify leaves raw that a terminal would still act on or reorder.
const JSON_RAW = /[\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/;
const JSON_RAW_ALL = new RegExp(JSON_RAW.source, 'g');

/**
 * A JSON text with DEL, C1, bidi controls and the line separators written as `\uXXXX`
 * escapes (JSON.stringify escapes only C0): the same document to a parser, exact text kept,
 * and inert on a terminal. Outside strings a JSON text holds only ASCII, so every such
 * character is inside a string.
 */
export function jsonVisible(json: string): string {
  return JSON_RAW.test(json) ? json.replace(JSON_RAW_ALL, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`) : json;
}
