/**
 * A reader for the canonical YAML our emitter writes (src/core/canonical.ts): block
 * mappings and sequences, plain, quoted and literal scalars, empty `[]`/`{}`. Loading
 * js-yaml costs ~4 ms of start-up, more than the rest of `show`; this reads a stored note in
 * well under a millisecond. It answers only when its result is provably what js-yaml (core
 * schema) returns: the document must be exactly the canonical rendering of what it read,
 * and js-yaml reads every canonical rendering back as the value rendered (the property
 * tests in test/unit/fast-yaml.test.ts hold both sides to that). Anything else (other
 * spellings, comments, anchors, flow collections, folded scalars, floats, odd blanks)
 * throws NotInSubset and the caller uses js-yaml, so the same content is stored as the same
 * bytes whichever reader read it.
 */
import { toCanonicalYaml } from './canonical.js';

export class NotInSubset extends Error {}

const fail = (why: string): never => {
  throw new NotInSubset(why);
};

interface Line {
  indent: number;
  text: string;
  no: number;
}

const NULLS = new Set(['null', 'Null', 'NULL', '~']);
const TRUES = new Set(['true', 'True', 'TRUE']);
const FALSES = new Set(['false', 'False', 'FALSE']);

function plainScalar(s: string): unknown {
  if (NULLS.has(s)) return null;
  if (TRUES.has(s)) return true;
  if (FALSES.has(s)) return false;
  if (/^[-+]?[0-9]+$/.test(s)) {
    const n = Number(s);
    if (!Number.isSafeInteger(n) || /^[-+]?0[0-9]/.test(s)) fail('number form');
    return n;
  }
  // Anything else that a YAML reader could take for a number, or that starts with an
  // indicator character, is left to js-yaml.
  if (/^[-+.0-9]/.test(s) && !/^[0-9a-f]{7,64}$/.test(s)) fail('number-like');
  if (/^[-+]?\.(inf|Inf|INF|nan|NaN|NAN)$/.test(s)) fail('special float');
  if (/^[?:,[\]{}#&*!|>'"%@`-]/.test(s)) fail('indicator');
  if (/: |\s#|:$|\t/.test(s)) fail('ambiguous plain');
  return s;
}

function quoted(s: string): unknown {
  if (s.startsWith('"')) {
    if (!s.endsWith('"') || s.length < 2) fail('open quote');
    try {
      const v = JSON.parse(s);
      if (typeof v !== 'string') fail('quote');
      return v;
    } catch (e) {
      if (e instanceof NotInSubset) throw e;
      return fail('yaml-only escape');
    }
  }
  if (!s.endsWith("'") || s.length < 2) fail('open quote');
  const inner = s.slice(1, -1);
  if (/'(?!')/.test(inner.replace(/''/g, ''))) fail('single quote');
  return inner.replace(/''/g, "'");
}

/** A value written on the same line as its key or dash. */
function inlineValue(s: string): unknown {
  if (s === '[]') return [];
  if (s === '{}') return {};
  if (s.startsWith('"') || s.startsWith("'")) return quoted(s);
  return plainScalar(s);
}

/** The document `text` holds, or NotInSubset when js-yaml must read it. */
export function parseSubset(text: string): unknown {
  const doc = readSubset(text);
  if (doc === null && /^[ \n]*$/.test(text)) return null;
  // The proof obligation: `text` is the canonical rendering of `doc`, which js-yaml reads as `doc`.
  if (doc === null || typeof doc !== 'object' || Array.isArray(doc) || toCanonicalYaml(doc as Record<string, unknown>) !== text) {
    fail('not the canonical rendering of what was read');
  }
  return doc;
}

function readSubset(text: string): unknown {
  if (text.includes('\t') || text.includes('\r')) fail('tabs or CR');
  const raw = text.split('\n');
  const lines: Line[] = [];
  raw.forEach((l, i) => {
    if (l.trim() === '') return lines.push({ indent: -1, text: '', no: i });
    const indent = l.length - l.trimStart().length;
    lines.push({ indent, text: l.slice(indent), no: i });
  });
  let pos = 0;
  const peek = (): Line | undefined => {
    while (pos < lines.length && lines[pos].indent < 0) pos++;
    return lines[pos];
  };

  function literal(header: string, parentIndent: number): string {
    const m = /^\|([-+]?)$/.exec(header);
    if (!m) fail('block header');
    const chomp = m![1];
    // Collect the block's lines: blank lines, or lines indented more than the parent.
    const start = pos;
    let blockIndent = -1;
    const body: string[] = [];
    while (pos < lines.length) {
      const l = lines[pos];
      if (l.indent >= 0 && l.indent <= parentIndent) break;
      if (l.indent >= 0 && blockIndent < 0) blockIndent = l.indent;
      if (l.indent >= 0 && l.indent < blockIndent) fail('block indentation');
      body.push(l.indent < 0 ? '' : raw[l.no].slice(blockIndent));
      pos++;
    }
    if (blockIndent < 0) fail('empty block');
    // A blank line of spaces longer than the indentation would carry content: not ours.
    for (let i = start; i < pos; i++) if (lines[i].indent < 0 && raw[lines[i].no].length > blockIndent) fail('spaces in block');
    let trailing = 0;
    while (body.length && body[body.length - 1] === '') {
      body.pop();
      trailing++;
    }
    // The final line break of the document ends the last line, it is not a blank line.
    if (pos >= lines.length && trailing > 0) trailing--;
    const content = body.join('\n');
    if (chomp === '-') return content;
    if (chomp === '+') return `${content}\n${'\n'.repeat(trailing)}`;
    return `${content}\n`;
  }

  function valueAfter(rest: string, indent: number): unknown {
    // `rest` is what follows "key:" or "-" on the line.
    if (rest === '') {
      const next = peek();
      if (!next || next.indent < indent) return null;
      if (next.indent === indent && next.text.startsWith('- ')) return sequence(indent);
      if (next.indent === indent) return null;
      return next.text === '-' || next.text.startsWith('- ') ? sequence(next.indent) : mapping(next.indent);
    }
    if (rest.startsWith('|')) return literal(rest, indent);
    if (rest.startsWith('>')) fail('folded');
    return inlineValue(rest);
  }

  function keyOf(text: string): [string, string] {
    let key: string;
    let after: string;
    if (text.startsWith('"') || text.startsWith("'")) {
      const close = text.startsWith('"') ? /^"(?:[^"\\]|\\.)*"/.exec(text) : /^'(?:[^']|'')*'/.exec(text);
      if (!close) fail('key quote');
      key = quoted(close![0]) as string;
      after = text.slice(close![0].length);
    } else {
      const m = /^([^\s:#'"[\]{},&*!|>%@`?-][^:#]*?|-[^\s:#][^:#]*?):(?= |$)/.exec(text);
      if (!m) fail('key');
      key = m![1];
      if (plainScalar(key) !== key) fail('non-string key');
      after = text.slice(m![1].length);
    }
    if (!after.startsWith(':')) fail('no colon');
    const rest = after.slice(1);
    if (rest !== '' && !rest.startsWith(' ')) fail('colon');
    return [key, rest.trim()];
  }

  function mapping(indent: number): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (;;) {
      const l = peek();
      if (!l || l.indent < indent) return out;
      if (l.indent > indent) fail('indentation');
      if (l.text.startsWith('- ') || l.text === '-') return out;
      const [key, rest] = keyOf(l.text);
      if (key === '<<' || key === '__proto__' || Object.prototype.hasOwnProperty.call(out, key)) fail('duplicate or merge key');
      pos++;
      out[key] = valueAfter(rest, indent);
    }
  }

  function sequence(indent: number): unknown[] {
    const out: unknown[] = [];
    for (;;) {
      const l = peek();
      if (!l || l.indent < indent) return out;
      if (l.indent > indent) fail('indentation');
      if (!(l.text === '-' || l.text.startsWith('- '))) return out;
      const rest = l.text.slice(1).trimStart();
      if (rest === '') {
        pos++;
        out.push(valueAfter('', indent + 1));
        continue;
      }
      // "- key: value" starts a mapping whose keys sit two columns in.
      if (/^("(?:[^"\\]|\\.)*"|'(?:[^']|'')*'|[^\s"'#|>[{][^:#]*?):( |$)/.test(rest)) {
        const inner = indent + (l.text.length - rest.length);
        lines[pos] = { indent: inner, text: rest, no: l.no };
        out.push(mapping(inner));
        continue;
      }
      pos++;
      out.push(valueAfter(rest, indent + 1));
    }
  }

  const first = peek();
  if (!first) return null;
  if (first.indent !== 0) fail('indented document');
  if (/^(---|\.\.\.|%|#)/.test(first.text)) fail('document markers or comments');
  const doc = first.text === '-' || first.text.startsWith('- ') ? sequence(0) : mapping(0);
  if (peek()) fail('trailing content');
  return doc;
}
