/**
 * A reader for the canonical YAML our emitter writes (src/core/canonical.ts): block
 * mappings and sequences, plain and double-quoted scalars, literal blocks, empty `[]`/`{}`.
 * Loading js-yaml costs ~4 ms of start-up, more than the rest of `show`; this reads a stored
 * note in well under a millisecond. It answers only when its result is provably what js-yaml
 * (core schema) returns: the document must be exactly the canonical rendering of what it
 * read, and js-yaml reads every canonical rendering back as the value rendered (the property
 * tests in test/unit/fast-yaml.test.ts hold both sides to that). Anything else (other
 * spellings, comments, anchors, flow collections, folded scalars, floats, odd blanks)
 * throws NotInSubset and the caller uses js-yaml, so the same content is stored as the same
 * bytes whichever reader read it.
 *
 * The proof is made while reading, line by line: the reader accepts only the lines the
 * emitter writes, each token in the one spelling the emitter gives its value (a plain
 * scalar only where `plainOk` says the emitter writes it plain, a quoted one only with the
 * emitter's escapes, indentation exactly two columns a level). Rendering the whole document
 * again to compare it, as an earlier version did, cost as much as the reading itself on a
 * listing of 50,000 notes (docs/performance.md). The tests hold the two to the same
 * answers: whatever this reader accepts, `toCanonicalYaml` renders back to the same text.
 */
import { literalBlock, plainOk } from './canonical.js';
import { KEY_ORDER, NESTED_ORDER } from './schema.js';

export class NotInSubset extends Error {}

const fail = (why: string): never => {
  throw new NotInSubset(why);
};

const SPACE = 0x20;
const DASH = 0x2d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;

/** The characters `quote` in src/core/canonical.ts writes as `\uXXXX` (not \n, \t, \r). */
function escapedAsHex(c: number): boolean {
  return (c < 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) || (c >= 0x7f && c <= 0x9f) || c === 0xfeff || c === 0x2028 || c === 0x2029;
}
/** The characters `quote` never writes as themselves. */
function mustEscape(c: number): boolean {
  return c < 0x20 || (c >= 0x7f && c <= 0x9f) || c === 0xfeff || c === 0x2028 || c === 0x2029 || c === QUOTE || c === BACKSLASH;
}

const hexDigit = (c: number): number => (c >= 0x30 && c <= 0x39 ? c - 0x30 : c >= 0x61 && c <= 0x66 ? c - 0x57 : -1);

/**
 * The string of the double-quoted scalar that starts at `from` in `text` and closes before
 * `limit` (the end of its line), when it is spelt as `quote` spells it; `end` is set to the
 * index after its closing quote.
 */
let end = 0;
function quotedAt(text: string, from: number, limit: number): string {
  let out = '';
  let run = from + 1;
  for (let i = from + 1; i < limit; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      end = i + 1;
      return run === from + 1 ? text.slice(run, i) : out + text.slice(run, i);
    }
    if (c !== BACKSLASH) {
      if (mustEscape(c)) fail('unescaped character');
      continue;
    }
    out += text.slice(run, i);
    const e = text.charCodeAt(i + 1);
    if (e === QUOTE) out += '"';
    else if (e === BACKSLASH) out += '\\';
    else if (e === 0x6e) out += '\n';
    else if (e === 0x74) out += '\t';
    else if (e === 0x72) out += '\r';
    else if (e === 0x75) {
      let cp = 0;
      for (let k = 2; k < 6; k++) {
        const d = hexDigit(text.charCodeAt(i + k));
        if (d < 0) fail('escape');
        cp = cp * 16 + d;
      }
      if (!escapedAsHex(cp)) fail('escape');
      out += String.fromCharCode(cp);
      i += 4;
    } else fail('escape');
    i++;
    run = i + 1;
  }
  return fail('open quote');
}

/** A quoted scalar value is canonical when the emitter would not have written it plain or as a block. */
function quotedValue(s: string): string {
  if (s === '') return s;
  if (s.includes('\n') ? literalBlock(s, '') !== null : plainOk(s)) fail('not the canonical spelling');
  return s;
}

/** A plain scalar, as the emitter writes null, booleans, integers and plain strings. */
function plainValue(s: string): unknown {
  const c = s.charCodeAt(0);
  if ((c >= 0x30 && c <= 0x39) || c === DASH) {
    const n = Number(s);
    if (Number.isSafeInteger(n) && String(n) === s) return n;
  } else if (s === 'null') return null;
  else if (s === 'true') return true;
  else if (s === 'false') return false;
  if (!plainOk(s)) fail('not the canonical spelling');
  return s;
}

/** Keys an object gives back in another order than they were set (array indices): not read here. */
const INDEX_LIKE = /^(?:0|[1-9][0-9]*)$/;

/** Keys every note holds: known to be written plain, so not asked again for each note. */
const PLAIN_KEYS = new Set<string>();

/**
 * The schema's keys (src/core/schema.ts), by length: a key is matched against them in the
 * line itself, and the constant is used, so no string is cut and none is looked up in the
 * engine's string table for each of the ~30 keys of each note.
 */
const KNOWN_BY_LENGTH: string[][] = [];
for (const k of new Set([...KEY_ORDER, ...Object.values(NESTED_ORDER).flat()])) if (plainOk(k)) (KNOWN_BY_LENGTH[k.length] ??= []).push(k);

function knownKey(text: string, at: number, len: number): string | null {
  const ks = KNOWN_BY_LENGTH[len];
  // (compared character by character: a call of startsWith cost more than the comparison)
  if (ks)
    next: for (const k of ks) {
      for (let j = 0; j < len; j++) if (text.charCodeAt(at + j) !== k.charCodeAt(j)) continue next;
      return k;
    }
  return null;
}

function checkedKey(k: string, quoted: boolean, out: Record<string, unknown>): string {
  if (quoted) {
    if (plainOk(k)) fail('not the canonical spelling');
  } else if (!PLAIN_KEYS.has(k)) {
    if (!plainOk(k)) fail('not the canonical spelling');
    if (PLAIN_KEYS.size < 256) PLAIN_KEYS.add(k);
  }
  const c = k.charCodeAt(0);
  if ((c >= 0x30 && c <= 0x39 && INDEX_LIKE.test(k)) || k === '__proto__' || k === '<<' || Object.prototype.hasOwnProperty.call(out, k)) {
    fail('duplicate, merge or index key');
  }
  return k;
}

/**
 * The document `text` holds, or NotInSubset when js-yaml must read it. A mapping or list
 * nested deeper than `maxDepth` (the document's own mapping at depth 0, as `nestedDeeperThan`
 * in src/core/parse.ts counts) is declined too: what this reader answers needs no such check.
 */
export function parseSubset(text: string, maxDepth = Infinity): unknown {
  if (/^[ \n]*$/.test(text)) return null;
  if (text.includes('\t') || text.includes('\r')) fail('tabs or CR');
  const last = text.length - 1;
  if (text.charCodeAt(last) !== 0x0a) fail('no final line break');
  // The lines, as offsets into `text` (line k is [LS[k], LE[k]), its break at LE[k]): cutting
  // them out as strings was a tenth of the reading, and every character read through a cut
  // string costs more than one read in the text itself.
  LS.length = 0;
  LE.length = 0;
  for (let from = 0; ;) {
    const nl = text.indexOf('\n', from);
    LS.push(from);
    LE.push(nl);
    if (nl === last) break;
    from = nl + 1;
  }
  const n = LS.length;
  let pos = 0;

  /** How many spaces the line that starts at `at` starts with (its break is no space). */
  const indentOf = (at: number): number => {
    let i = at;
    while (text.charCodeAt(i) === SPACE) i++;
    return i - at;
  };
  /** Whether `: ` is in [from, to). */
  const colonSpace = (from: number, to: number): boolean => {
    const p = text.indexOf(': ', from);
    return p >= 0 && p < to;
  };

  /**
   * A literal block whose header `|`, `|-` or `|+` ends line `pos - 1`; its lines are
   * indented `indent` columns. Canonical when `literalBlock` writes its value this way.
   */
  function literal(chomp: string, indent: number): string {
    const start = pos;
    while (pos < n) {
      if (LS[pos] !== LE[pos] && indentOf(LS[pos]) < indent) break;
      pos++;
    }
    let stop = pos;
    while (stop > start && LS[stop - 1] === LE[stop - 1]) stop--;
    const trailing = pos - stop;
    if (stop === start) fail('empty block');
    let body = '';
    for (let i = start; i < stop; i++) body += (i > start ? '\n' : '') + (LS[i] === LE[i] ? '' : text.slice(LS[i] + indent, LE[i]));
    let value: string;
    if (chomp === '|-' && trailing === 0) value = body;
    else if (chomp === '|' && trailing === 0) value = `${body}\n`;
    else if (chomp === '|+' && trailing > 0) value = `${body}\n${'\n'.repeat(trailing)}`;
    else return fail('block chomping');
    // The emitter writes exactly this block for `value` (this also refuses a first line that
    // starts with a blank, lines of blanks, characters it would escape).
    const pad = ' '.repeat(indent);
    if (literalBlock(value, pad) !== `${chomp}\n${text.slice(LS[start], LE[pos - 1])}`) fail('not the canonical block');
    return value;
  }

  /** The value from `at` to the end `e` of the line just read (pos - 1), after `key: ` or `- `. */
  function inline(at: number, e: number, childIndent: number, depth: number): unknown {
    const c = text.charCodeAt(at);
    if (c === QUOTE) {
      const s = quotedAt(text, at, e);
      if (end !== e) fail('after a quote');
      return quotedValue(s);
    }
    if (e === at + 2 && ((c === 0x5b && text.charCodeAt(at + 1) === 0x5d) || (c === 0x7b && text.charCodeAt(at + 1) === 0x7d))) {
      if (depth > maxDepth) fail('too deep');
      return c === 0x5b ? [] : {};
    }
    if (c === 0x7c) return literal(text.slice(at, e), childIndent);
    return plainValue(text.slice(at, e));
  }

  /** A block value on the lines after `key:` (a non-empty mapping or sequence), at `indent`. */
  function nested(indent: number, depth: number): unknown {
    if (pos >= n) fail('no value');
    if (depth > maxDepth) fail('too deep');
    const l = LS[pos];
    if (indentOf(l) !== indent) fail('indentation');
    const a = l + indent;
    if (text.charCodeAt(a) === DASH && (LE[pos] === a + 1 || text.charCodeAt(a + 1) === SPACE)) return sequence(indent, depth);
    return mapping(indent, false, depth);
  }

  /**
   * The entries of a mapping whose keys sit at column `col`. With `inItem`, the first key
   * is on line `pos` after a sequence's `- ` (its first `col` columns are not blanks).
   */
  function mapping(col: number, inItem: boolean, depth: number): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    let first = inItem;
    while (pos < n) {
      const l = LS[pos];
      const e = LE[pos];
      if (!first) {
        const ind = indentOf(l);
        if (ind < col && l !== e) break;
        if (ind !== col) fail('indentation');
      }
      first = false;
      const a = l + col;
      let key: string;
      let after: number;
      if (text.charCodeAt(a) === QUOTE) {
        key = checkedKey(quotedAt(text, a, e), true, out);
        after = end;
        if (text.charCodeAt(after) !== COLON) fail('no colon');
      } else {
        // The first `: `, or the colon that ends the line (a plain key holds neither).
        after = a;
        while (after < e && !(text.charCodeAt(after) === COLON && (after + 1 === e || text.charCodeAt(after + 1) === SPACE))) after++;
        if (after === e) after = e - 1;
        if (after <= a || text.charCodeAt(after) !== COLON) fail('key');
        const known = knownKey(text, a, after - a);
        if (known === null) key = checkedKey(text.slice(a, after), false, out);
        else if (Object.prototype.hasOwnProperty.call(out, known)) return fail('duplicate key');
        else key = known;
      }
      pos++;
      if (after + 1 === e) {
        out[key] = nested(col + 2, depth + 1);
        continue;
      }
      if (text.charCodeAt(after + 1) !== SPACE || after + 2 === e) fail('after the colon');
      out[key] = inline(after + 2, e, col + 2, depth + 1);
    }
    return out;
  }

  /** A sequence whose dashes sit at column `col`. */
  function sequence(col: number, depth: number): unknown[] {
    const out: unknown[] = [];
    while (pos < n) {
      const l = LS[pos];
      const e = LE[pos];
      const ind = indentOf(l);
      if (ind < col && l !== e) break;
      const a = l + col;
      if (ind !== col || text.charCodeAt(a) !== DASH) fail('indentation');
      if (e === a + 1) {
        // `-` alone: a non-empty list, its dashes two columns in.
        pos++;
        if (pos >= n || indentOf(LS[pos]) !== col + 2 || text.charCodeAt(LS[pos] + col + 2) !== DASH) fail('no list after the dash');
        if (depth + 1 > maxDepth) fail('too deep');
        out.push(sequence(col + 2, depth + 1));
        continue;
      }
      if (text.charCodeAt(a + 1) !== SPACE || e === a + 2) fail('after the dash');
      const at = a + 2;
      const c = text.charCodeAt(at);
      // `- key: ...` starts a mapping whose keys sit two columns in.
      let isMapping: boolean;
      if (c === QUOTE) {
        quotedAt(text, at, e);
        isMapping = end !== e;
      } else isMapping = c !== 0x7c && (colonSpace(at, e) || text.charCodeAt(e - 1) === COLON);
      if (isMapping) {
        if (depth + 1 > maxDepth) fail('too deep');
        out.push(mapping(col + 2, true, depth + 1));
        continue;
      }
      pos++;
      out.push(inline(at, e, col + 2, depth + 1));
    }
    return out;
  }

  if (indentOf(0) !== 0) fail('indented document');
  const doc = mapping(0, false, 0);
  if (pos !== n) fail('trailing content');
  return doc;
}

/** The line offsets of the document being read (one document at a time: nothing here waits). */
const LS: number[] = [];
const LE: number[] = [];
