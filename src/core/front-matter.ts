/**
 * The one reader of YAML front matter (the `---` block a Markdown file opens with) and of a
 * YAML document's top-level `key: value` lines. One meaning for every reader: YAML 1.2's
 * core schema as js-yaml reads it, which is what the handoff notes are (src/core/fast-yaml.ts
 * is held to js-yaml by property tests, src/core/canonical.ts writes for it). So `yes`, `on`,
 * `no` and `off` are words, `True` is a boolean, `Null` is null. Pure, and searched with
 * `indexOf` rather than split into lines: the sweep reads every topic file on every commit.
 */

/** A one-line value as read: null, a boolean, or text (numbers stay text: no reader wants a number). */
export type Scalar = string | boolean | null;

const NL = 10;
const SPACE = 32;
const TAB = 9;

/** The first index at or after `at` that is not a space or a tab. */
export function skipBlanks(src: string, at: number): number {
  let c = src.charCodeAt(at);
  while (c === SPACE || c === TAB) c = src.charCodeAt(++at);
  return at;
}

/** Where the first `marker` line (`\n---` or `\n...`, then `[ \t]*`, then `\n` or the end) starts in [from, before), else `before`. */
function closingLine(src: string, marker: string, from: number, before: number): number {
  for (let at = src.indexOf(marker, from); at >= 0 && at < before; at = src.indexOf(marker, at + 1)) {
    const j = skipBlanks(src, at + 4);
    if (j === src.length || src.charCodeAt(j) === NL) return at;
  }
  return before;
}

/** Front matter's place in a text: its lines are [lines, close), the body starts at `body`. */
export interface FrontMatterSpan {
  lines: number;
  /** the `\n` that starts the closing `---` (or `...`) line */
  close: number;
  body: number;
}

/**
 * Where the front matter is in `src` (line breaks already `\n`, no BOM): a `---` line, then
 * everything up to the first `---` or `...` line. Null without one, or when it is never
 * closed. `dots: false` is the caller's promise that `src` holds no `\n...` (a cheaper search).
 */
export function frontMatterSpan(src: string, dots = true): FrontMatterSpan | null {
  if (!src.startsWith('---')) return null;
  const open = skipBlanks(src, 3);
  if (src.charCodeAt(open) !== NL) return null;
  let close = closingLine(src, '\n---', open, src.length);
  if (dots) {
    const at = src.indexOf('\n...', open);
    if (at >= 0 && at < close) close = closingLine(src, '\n...', at, close);
  }
  if (close === src.length) return null;
  const after = skipBlanks(src, close + 4);
  return { lines: open + 1, close, body: after === src.length ? after : after + 1 };
}

/** A top-level key line: a name, a colon, the value (a line with another line break in it is no key line). */
const KEY_LINE = /^([A-Za-z_][\w-]*):[ \t]*(.*?)[ \t]*$/;

/** Each top-level `key: value` line in [from, to) of `src`, in order, its value as written (trimmed). */
export function* keyLines(src: string, from: number, to: number): Generator<[key: string, raw: string]> {
  for (let s = from; s < to;) {
    let e = src.indexOf('\n', s);
    if (e < 0 || e > to) e = to;
    const m = KEY_LINE.exec(src.slice(s, e));
    if (m) yield [m[1], m[2]];
    s = e + 1;
  }
}

/** What may read as null or a boolean (a superset: the rules below decide); none is longer than 5 characters. */
const MAYBE_SPECIAL = /^(?:|~|null|Null|NULL|true|True|TRUE|false|False|FALSE)$/;
const NULL = /^(?:|~|null|Null|NULL)$/;
const TRUE = /^(?:true|True|TRUE)$/;
const FALSE = /^(?:false|False|FALSE)$/;

/**
 * One value as YAML's core schema reads it: the comment after it dropped, `''`, `~` and
 * `null` null, `true`/`false` (also `True`, `TRUE`, ...) booleans, a quoted value unquoted
 * (double quotes with YAML's escapes), anything else its text. `raw` is trimmed.
 */
export function readScalar(raw: string): Scalar {
  // The common case first: a plain word (no quote, no comment, not null nor a boolean) needs none of the rules below.
  const c = raw.charCodeAt(0);
  if (c !== 34 && c !== 39 && !raw.includes('#') && (raw.length > 5 || !MAYBE_SPECIAL.test(raw))) return raw;
  let v = raw;
  if (c === 34 || c === 39) v = v.replace(/^("(?:[^"\\]|\\.)*"|'(?:[^']|'')*')[ \t]+#.*$/, '$1');
  else v = v.replace(/(?:^|[ \t]+)#.*$/, '');
  if (NULL.test(v)) return null;
  if (TRUE.test(v)) return true;
  if (FALSE.test(v)) return false;
  const q = /^"((?:[^"\\]|\\.)*)"$/.exec(v);
  if (q) return unescapeDouble(q[1]);
  const s = /^'((?:[^']|'')*)'$/.exec(v);
  if (s) return s[1].replace(/''/g, "'");
  return v;
}

const ESCAPES: Record<string, string> = {
  '0': '\0',
  a: '\x07',
  b: '\b',
  t: '\t',
  '\t': '\t',
  n: '\n',
  v: '\v',
  f: '\f',
  r: '\r',
  e: '\x1b',
  ' ': ' ',
  '"': '"',
  '/': '/',
  '\\': '\\',
  N: '\x85',
  _: '\xa0',
  L: '\u2028',
  P: '\u2029',
};
const HEX: Record<string, number> = { x: 2, u: 4, U: 8 };

/** The text of a double-quoted YAML scalar's inside; an escape YAML does not have stays as written. */
function unescapeDouble(s: string): string {
  if (!s.includes('\\')) return s;
  return s.replace(/\\(?:([xuU])([0-9A-Fa-f]*)|(.))/g, (all, h: string | undefined, digits: string, c: string | undefined) => {
    if (h) {
      const n = HEX[h];
      if (digits.length < n) return all;
      return String.fromCodePoint(parseInt(digits.slice(0, n), 16)) + digits.slice(n);
    }
    return ESCAPES[c!] ?? all;
  });
}

/**
 * The value of the first top-level `key:` line of a YAML document, as `readScalar` reads
 * it; undefined when no line names it. For a reader that needs one key and no YAML parser.
 */
export function topLevelValue(text: string, key: string): Scalar | undefined {
  const marker = `${key}:`;
  const next = (from: number) => {
    const at = text.indexOf(`\n${marker}`, from);
    return at < 0 ? -1 : at + 1;
  };
  for (let s = text.startsWith(marker) ? 0 : next(0); s >= 0;) {
    let e = text.indexOf('\n', s);
    if (e < 0) e = text.length;
    const m = KEY_LINE.exec(text.slice(s, e));
    if (m) return readScalar(m[2]);
    s = next(e);
  }
  return undefined;
}
