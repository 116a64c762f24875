/**
 * Reading handoff text: JSON or YAML, with the line of a syntax error. js-yaml is loaded
 * only when a document needs it (docs/decisions/own-yaml-reader.md: loading it costs
 * start-up on every read).
 */
import { parseSubset, NotInSubset } from './fast-yaml.js';
import { DEFAULT_MAX_BYTES } from './bytes.js';

/**
 * About how many bytes `value` takes once aliases are expanded (as the canonical emitter
 * and JSON.stringify would expand them), counting each shared node once per use, and
 * stopping past `limit`: a small document of nested aliases ("billion laughs") must be
 * refused before anything expands it.
 */
export function expandedSize(value: unknown, limit: number): number {
  const memo = new Map<object, number>();
  const size = (v: unknown): number => {
    if (typeof v === 'string') return v.length + 3;
    if (v === null || typeof v !== 'object') return 8;
    const known = memo.get(v);
    if (known !== undefined) return known;
    memo.set(v, limit + 1); // a cycle counts as too large
    let total = 2;
    for (const [k, x] of Array.isArray(v) ? v.entries() : Object.entries(v)) {
      total += String(k).length + 2 + size(x);
      if (total > limit) break;
    }
    memo.set(v, total);
    return total;
  };
  return size(value);
}

export class ParseError extends Error {
  constructor(
    message: string,
    readonly line: number | null,
  ) {
    super(message);
  }
}

function lineOfOffset(text: string, offset: number): number {
  return text.slice(0, offset).split('\n').length;
}

/** No handoff nests deeper than this; a deeper document would overflow the stack later. */
export const MAX_DEPTH = 64;

/** True when `value` nests mappings and lists more than `max` levels deep (no recursion). */
export function nestedDeeperThan(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  const seen = new Map<object, number>();
  while (stack.length) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (depth > max) return true;
    if ((seen.get(v) ?? -1) >= depth) continue;
    seen.set(v, depth);
    for (const x of Array.isArray(v) ? v : Object.values(v)) stack.push([x, depth + 1]);
  }
  return false;
}

/**
 * What parseDocument answers for `text` when the fast reader answers it (undefined when it
 * declines): that answer needs no depth check (it declines a deeper document) and no other
 * reader (it never answers for JSON). The common case, a stored note, ends here.
 */
export function fastDocument(text: string): unknown {
  try {
    return parseSubset(text, MAX_DEPTH);
  } catch (e) {
    if (!(e instanceof NotInSubset)) throw e;
    return undefined;
  }
}

/** Parses YAML (with the core schema: no dates, no custom tags) or JSON. */
export async function parseDocument(text: string): Promise<unknown> {
  const fast = fastDocument(text);
  if (fast !== undefined) return fast;
  const value = await parseAny(text);
  if (nestedDeeperThan(value, MAX_DEPTH)) throw new ParseError(`invalid document: nested more than ${MAX_DEPTH} levels deep`, null);
  return value;
}

async function parseAny(text: string): Promise<unknown> {
  const trimmed = text.trimStart();
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    try {
      return JSON.parse(text);
    } catch (e) {
      const m = /position (\d+)/.exec((e as Error).message);
      // Not JSON after all: YAML flow style is a superset; let YAML judge.
      if (!m) return jsYaml(text);
      try {
        return await jsYaml(text);
      } catch {
        const line = lineOfOffset(text, Number(m[1]));
        throw new ParseError(`invalid JSON at line ${line}: ${(e as Error).message.replace(/ in JSON at position \d+.*$/, '')}`, line);
      }
    }
  }
  return jsYaml(text);
}

/** YAML the fast reader declined. */
async function jsYaml(text: string): Promise<unknown> {
  const yaml = await import('js-yaml');
  try {
    const docs: unknown[] = [];
    yaml.loadAll(text, (d: unknown) => docs.push(d), { schema: yaml.CORE_SCHEMA });
    if (docs.length > 1) throw new ParseError('invalid YAML: holds more than one document', null);
    const limit = Math.max(DEFAULT_MAX_BYTES, 4 * text.length);
    if (/[&*]/.test(text) && expandedSize(docs[0], limit) > limit) {
      throw new ParseError(`invalid YAML: its aliases expand it past ${limit} bytes`, null);
    }
    return docs[0] ?? null;
  } catch (e) {
    if (e instanceof ParseError) throw e;
    const open = unclosedQuote(text);
    if (open)
      throw new ParseError(
        `invalid YAML at line ${open.line}: the ${open.quote === '"' ? 'double' : 'single'}-quoted string that starts here is not closed (add the closing ${open.quote})`,
        open.line,
      );
    const mark = (e as { mark?: { line?: number } }).mark;
    const line = typeof mark?.line === 'number' ? mark.line + 1 : null;
    const reason = String((e as Error).message)
      .split('\n')[0]
      .replace(/\s*\(\d+:\d+\)\s*$/, '');
    throw new ParseError(`invalid YAML${line ? ` at line ${line}` : ''}: ${reason}`, line);
  }
}

/**
 * The line of a quoted value that never closes: js-yaml reads on into the next
 * lines and blames one of them ("line 4: deficient indentation"). Only asked once the YAML
 * failed to parse. A quoted string may span lines, so one counts as unclosed when nothing
 * closes it, or when a line before its closing quote is indented no deeper than its key.
 */
export function unclosedQuote(text: string): { line: number; quote: '"' | "'" } | null {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const indentOf = (l: string) => /^\s*/.exec(l)![0].length;
  for (let i = 0; i < lines.length; i++) {
    // The text of a block scalar (`key: |`, `key: >-`) is not YAML: skip past it.
    if (/:\s*[|>][+-]?\d*\s*(#.*)?$/.test(lines[i])) {
      const base = indentOf(lines[i]);
      while (i + 1 < lines.length && (lines[i + 1].trim() === '' || indentOf(lines[i + 1]) > base)) i++;
      continue;
    }
    const m = /^(\s*)(?:-\s+)?(?:[^\s#'"][^:#]*:\s+|-\s+)?(["'])/.exec(lines[i]);
    if (!m || lines[i].trimStart().startsWith('#')) continue;
    const indent = m[1].length;
    const quote = m[2] as '"' | "'";
    const start = m[0].length;
    const close = closingQuote(lines, i, start, quote);
    if (close && close.line === i) {
      i = close.line;
      continue;
    }
    // A flow scalar's next lines must be indented deeper than its key: one that is not
    // starts something new, so the string was never closed where it should have been.
    const last = close ? close.line : lines.length - 1;
    const strayKey = lines.slice(i + 1, last + 1).some((l) => l.trim() !== '' && indentOf(l) <= indent);
    if (!close || strayKey) return { line: i + 1, quote };
    i = close.line;
  }
  return null;
}

function closingQuote(lines: string[], line: number, from: number, quote: '"' | "'"): { line: number } | null {
  for (let l = line, c = from; l < lines.length; l++, c = 0) {
    const s = lines[l];
    for (; c < s.length; c++) {
      if (quote === '"' && s[c] === '\\') c++;
      else if (s[c] === quote) {
        if (quote === "'" && s[c + 1] === "'") c++;
        else return { line: l };
      }
    }
  }
  return null;
}
