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

/** `topLevelValue` cannot be sure from the lines alone: the document must be parsed (`noteBranch` does). */
export const UNSURE: unique symbol = Symbol('unsure');

/** A column-0 mapping key (a plain key, `key : v` included), then its value; `- ` starts a sequence item instead. */
const TOP_KEY = /^("(?:[^"\\]|\\.)*"|'(?:[^']|'')*'|[^\s#'"?{}[\]&!*|>%@`,:-](?:[^#\t]|(?<! )#)*?|-[^\s#'"](?:[^#\t]|(?<! )#)*?)[ ]*:(?:[ \t]+(.*)|[ \t]*)$/;
/** What opens a value that can span lines: a quote, a flow collection, a block scalar. */
const VALUE_START = /^(?:-[ \t]+)*(?:(?:"(?:[^"\\]|\\.)*"|'(?:[^']|'')*'|[^\s#'"?{}[\]&!*|>%@`,-](?:[^#]|(?<![ \t])#)*?)[ \t]*:(?:[ \t]+|$))?(.*)$/;
const CLOSED_DOUBLE = /^"(?:[^"\\]|\\.)*"[ \t]*(?:#.*)?$/;
const CLOSED_SINGLE = /^'(?:[^']|'')*'[ \t]*(?:#.*)?$/;
const EMPTY_FLOW = /^(?:\[\]|\{\})[ \t]*(?:#.*)?$/;
const BLOCK_SCALAR = /^[|>][-+0-9]*[ \t]*(?:#.*)?$/;
/** YAML's double-quoted escapes, as js-yaml reads them (anything else is an error there). */
const DOUBLE_ESCAPES = /\\(?:[0abt\tnvfre "/\\N_LP]|x[0-9A-Fa-f]{2}|u[0-9A-Fa-f]{4}|U(00(?:0[0-9A-Fa-f]|10)[0-9A-Fa-f]{4}))/g;
/** Plain text the core schema reads as a number (or that may be one): never answered from the line. */
const NUMBERISH = /^[-+]?(?:[0-9.]|\.(?:inf|Inf|INF)$)|^\.(?:nan|NaN|NAN)$/;

/** Whether a value that starts on this line ends on it (a closed quote, `[]`/`{}`), or opens a block scalar ('block'). */
function valueShape(v: string): 'line' | 'block' | 'open' {
  const c = v.charCodeAt(0);
  if (c === 34) return CLOSED_DOUBLE.test(v) ? 'line' : 'open';
  if (c === 39) return CLOSED_SINGLE.test(v) ? 'line' : 'open';
  if (c === 91 || c === 123) return EMPTY_FLOW.test(v) ? 'line' : 'open';
  if (c === 124 || c === 62) return BLOCK_SCALAR.test(v) ? 'block' : 'open';
  return 'line';
}

/**
 * The value of the top-level `key` of a YAML document exactly as js-yaml reads it (core
 * schema): null, a boolean or text; undefined when the document has no such key; UNSURE
 * when the lines alone cannot tell (an anchor, a tag, a block or multi-line scalar, a
 * number, a quoted key, a flow collection, a value that may span lines, the key twice,
 * anything this reader does not follow). Never a different answer than js-yaml's: a fast
 * path for one key with no YAML parser (test/unit/top-level-value.test.ts holds it to that).
 * CRLF line breaks and a BOM read as js-yaml reads them.
 */
export function topLevelValue(text: string, key: string): Scalar | undefined | typeof UNSURE {
  let src = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (src.includes('\r')) {
    if (/\r(?!\n)/.test(src)) return UNSURE;
    src = src.replace(/\r\n/g, '\n');
  }
  let found: string | undefined;
  /** our key's line was the last line with content: the next one must not carry its value on */
  let oursLast = false;
  let block = -1; // inside a block scalar: lines indented deeper than this are its content
  let lastTop: 'key' | 'ours-empty' | 'none' = 'none';
  for (const line of src.split('\n')) {
    const indent = line.length - line.trimStart().length;
    const rest = line.slice(indent);
    if (!rest || rest.startsWith('#')) continue;
    if (block >= 0 && indent > block) continue;
    block = -1;
    if (line.charCodeAt(0) === TAB) return UNSURE;
    let value: string;
    if (indent > 0 && oursLast) return UNSURE; // our value goes on (a multi-line scalar, a nested node)
    oursLast = false;
    if (indent > 0) {
      value = VALUE_START.exec(rest)![1];
    } else if (/^-(?:[ \t]|$)/.test(line)) {
      if (lastTop === 'none') return UNSURE; // a sequence, not a mapping
      if (lastTop === 'ours-empty') return UNSURE; // our key holds a sequence
      value = VALUE_START.exec(line)![1];
    } else {
      const m = TOP_KEY.exec(line);
      if (!m) return UNSURE; // a document marker, a directive, a quoted or complex key, ...
      value = (m[2] ?? '').trim();
      lastTop = 'key';
      const name = m[1].startsWith('"') || m[1].startsWith("'") ? readScalar(m[1]) : m[1].trimEnd();
      if (name === key) {
        if (found !== undefined) return UNSURE; // twice: js-yaml refuses the document
        found = value;
        oursLast = true;
        if (!value || value.startsWith('#')) lastTop = 'ours-empty';
      }
    }
    const shape = valueShape(value);
    if (shape === 'open') return UNSURE;
    if (shape === 'block') block = indent;
  }
  if (found === undefined) return undefined;
  return lineValue(found);
}

/** One value that ended on its line, as js-yaml reads it, or UNSURE. */
function lineValue(v: string): Scalar | typeof UNSURE {
  if (!v || v.startsWith('#')) return null;
  const c = v.charCodeAt(0);
  if (c === 34) {
    const inside = /^"((?:[^"\\]|\\.)*)"/.exec(v)![1];
    if (inside.replace(DOUBLE_ESCAPES, '').includes('\\')) return UNSURE;
  } else if (c !== 39) {
    // plain: no indicator first, no `: ` inside, not a number
    if (/^[&!*|>[\]{},%@`?:-]/.test(v) && !/^[-?:][^\s]/.test(v)) return UNSURE;
    const text = v.replace(/(?:^|[ \t]+)#.*$/, '');
    if (/:(?:[ \t]|$)/.test(text) || NUMBERISH.test(text)) return UNSURE;
  }
  return readScalar(v);
}

/**
 * A note's `branch` as the full reader reads it: a string, else null (absent, null, another
 * type, or a note that does not parse). The line reader answers the common case; when it
 * is unsure the document is parsed (the fast reader, else js-yaml).
 */
export async function noteBranch(text: string): Promise<string | null> {
  const value = topLevelValue(text, 'branch');
  if (value !== UNSURE) return typeof value === 'string' ? value : null;
  try {
    // loaded only here: the post-commit path reads our own notes, which the line reader answers
    const { parseDocument } = await import('./parse.js');
    const doc = await parseDocument(text);
    const branch = doc && typeof doc === 'object' && !Array.isArray(doc) ? (doc as Record<string, unknown>).branch : undefined;
    return typeof branch === 'string' ? branch : null;
  } catch {
    return null;
  }
}
