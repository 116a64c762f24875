/**
 * Canonical YAML: one spelling for one content, so the same handoff always hashes the same
 * (docs/format.md "The note": UTF-8, LF, trailing newline, keys in schema order). Our own emitter rather
 * than a library's dump, whose style choices may change between versions and so change
 * hashes. Every output is plain YAML 1.2 that any reader (and js-yaml) loads back equal.
 */

const RESERVED = /^(true|false|yes|no|on|off|y|n|null|~|\.nan|\.inf|-\.inf|\+\.inf)$/i;
// A plain scalar: starts with a letter or '_', no characters YAML gives meaning to.
const PLAIN = /^[\p{L}_][\p{L}\p{N}\p{M}\p{Pd}\p{Po}\p{Ps}\p{Pe}\p{Sc} _.,/()'?!%+=@$&*;:#"`<>~^|\\[\]{}-]*$/u;

function needsEscape(ch: number): boolean {
  return ch < 0x20 || (ch >= 0x7f && ch <= 0x9f) || ch === 0xfeff || ch === 0x2028 || ch === 0x2029;
}

export function quote(s: string): string {
  let out = '"';
  for (const c of s) {
    const cp = c.codePointAt(0)!;
    if (c === '"') out += '\\"';
    else if (c === '\\') out += '\\\\';
    else if (c === '\n') out += '\\n';
    else if (c === '\t') out += '\\t';
    else if (c === '\r') out += '\\r';
    else if (needsEscape(cp)) out += `\\u${cp.toString(16).padStart(4, '0')}`;
    else out += c;
  }
  return `${out}"`;
}

// Object ids and abbreviations stay plain when no YAML reader could take them for a number.
const HEX_ID = /^[0-9a-f]{7,64}$/;

// The same rule for ASCII-only text, without the cost of compiling Unicode property classes.
const PLAIN_ASCII = /^[A-Za-z_][A-Za-z0-9 _.,/()'?!%+=@$&*;:#"`<>~^|\\[\]{}-]*$/;

/** The rule of `plainOk` as patterns: what it answers for text that is not ASCII, and what the tests hold it to. */
export function plainOkByPattern(s: string): boolean {
  if (HEX_ID.test(s)) return /[a-df]/.test(s);
  const shape = /^[\x00-\x7f]*$/.test(s) ? PLAIN_ASCII : PLAIN;
  return shape.test(s) && !RESERVED.test(s) && !s.endsWith(' ') && !/ #|: |:$/.test(s);
}

// The characters PLAIN_ASCII allows after the first, as a table.
const PLAIN_CHAR = new Uint8Array(128);
for (let c = 0; c < 128; c++) PLAIN_CHAR[c] = PLAIN_ASCII.test(`a${String.fromCharCode(c)}`) ? 1 : 0;

/**
 * Whether `s` is written as a plain scalar (else it is quoted); the fast reader
 * (src/core/fast-yaml.ts) asks the same of every plain scalar it reads. ASCII text is judged
 * in one pass over its characters (the five patterns took a fifth of reading a note);
 * test/unit/canonical.test.ts holds it to `plainOkByPattern`.
 */
export function plainOk(s: string): boolean {
  const n = s.length;
  let hex = true;
  let adf = false;
  let ok = n > 0;
  let prev = -1;
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x80) return plainOkByPattern(s);
    if ((c >= 0x30 && c <= 0x39) || (c >= 0x61 && c <= 0x66)) adf ||= c >= 0x61 && c !== 0x65;
    else hex = false;
    // a character outside the class, ' #' or ': '
    if (!PLAIN_CHAR[c] || (c === 0x23 && prev === 0x20) || (c === 0x20 && prev === 0x3a)) ok = false;
    prev = c;
  }
  if (hex && n >= 7 && n <= 64) return adf;
  if (!ok) return false;
  const first = s.charCodeAt(0);
  if (!((first >= 0x41 && first <= 0x5a) || (first >= 0x61 && first <= 0x7a) || first === 0x5f)) return false;
  if (prev === 0x20 || prev === 0x3a) return false;
  return n > 5 || !RESERVED.test(s);
}

/** A multi-line string as a literal block, when it can be one exactly. */
export function literalBlock(s: string, indent: string): string | null {
  if (!s.includes('\n') || s.startsWith(' ') || s.startsWith('\n')) return null;
  for (const c of s) {
    const cp = c.codePointAt(0)!;
    if (c !== '\n' && (needsEscape(cp) || c === '\t')) return null;
  }
  const trailing = /\n*$/.exec(s)![0].length;
  const chomp = trailing === 0 ? '-' : trailing === 1 ? '' : '+';
  const body = trailing === 0 ? s : s.slice(0, s.length - trailing);
  const lines = body.split('\n');
  // Lines of only spaces inside a block are ambiguous against indentation; quote instead.
  if (lines.some((l) => l.length > 0 && l.trim() === '')) return null;
  const extra = trailing > 1 ? '\n'.repeat(trailing - 1) : '';
  return `|${chomp}\n${lines.map((l) => (l ? indent + l : '')).join('\n')}${extra}`;
}

/** A string as one YAML scalar on one line, plain when every reader reads it back as itself, else double-quoted: the one spelling of a string (the notes, the NEXT_SESSION.md front matter). */
export function yamlString(s: string): string {
  return s === '' ? '""' : plainOk(s) ? s : quote(s);
}

function scalar(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : v > 0 ? '.inf' : v < 0 ? '-.inf' : '.nan';
  if (typeof v === 'bigint') return v.toString();
  return yamlString(String(v));
}

function key(k: string): string {
  return plainOk(k) ? k : quote(k);
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function emitValue(v: unknown, indent: string, lines: string[], prefix: string): void {
  // prefix is the text already on the line ("key:" or "- "), value goes after it
  if (Array.isArray(v)) {
    if (v.length === 0) return void lines.push(`${prefix} []`);
    lines.push(prefix);
    for (const item of v) emitItem(item, indent, lines);
  } else if (isObj(v)) {
    const keys = Object.keys(v).filter((k) => v[k] !== undefined);
    if (keys.length === 0) return void lines.push(`${prefix} {}`);
    lines.push(prefix);
    for (const k of keys) emitValue(v[k], `${indent}  `, lines, `${indent}${key(k)}:`);
  } else if (typeof v === 'string' && v.includes('\n')) {
    const block = literalBlock(v, `${indent}`);
    lines.push(`${prefix} ${block ?? quote(v)}`);
  } else {
    lines.push(`${prefix} ${scalar(v)}`);
  }
}

function emitItem(item: unknown, indent: string, lines: string[]): void {
  if (isObj(item) && Object.keys(item).some((k) => item[k] !== undefined)) {
    const keys = Object.keys(item).filter((k) => item[k] !== undefined);
    const sub: string[] = [];
    for (const k of keys) emitValue(item[k], `${indent}    `, sub, `${indent}  ${key(k)}:`);
    // the first key shares the line with the dash
    sub[0] = `${indent}- ${sub[0].slice(indent.length + 2)}`;
    for (const l of sub) lines.push(l); // not push(...sub): a list of 500,000 items is more arguments than the stack holds
  } else if (Array.isArray(item) && item.length > 0) {
    lines.push(`${indent}-`);
    for (const x of item) emitItem(x, `${indent}  `, lines);
  } else if (typeof item === 'string' && item.includes('\n')) {
    const block = literalBlock(item, `${indent}  `);
    lines.push(`${indent}- ${block ?? quote(item)}`);
  } else {
    lines.push(`${indent}- ${Array.isArray(item) ? '[]' : isObj(item) ? '{}' : scalar(item)}`);
  }
}

/** Serializes a mapping (keys already in the wanted order) to canonical YAML text. */
export function toCanonicalYaml(doc: Record<string, unknown>): string {
  const lines: string[] = [];
  for (const k of Object.keys(doc)) if (doc[k] !== undefined) emitValue(doc[k], '  ', lines, key(k) + ':');
  return `${lines.join('\n')}\n`;
}
