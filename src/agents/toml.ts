/**
 * The one TOML reader (Codex's `config.toml`: a project's MCP entry, the user's trust
 * records, the `[features]` table older versions wrote). Values come from smol-toml, a
 * TOML 1.0 parser (bundled on its own, dist/vendor-toml.cjs, so only the commands that read
 * TOML load it: init, uninstall, doctor). What an edit needs beyond values, the lines a
 * `[table]` spans, is found here by a scan that knows TOML's strings and comments; an edit is
 * then held to the parser (`readsAs`), so a text edit never changes what the file means
 * beyond the entry it is for.
 */
import { isDeepStrictEqual } from 'node:util';
import { parse } from 'smol-toml';

export type TomlTable = Record<string, unknown>;

/** A TOML text that does not parse: the message names the line, as the parser does. */
export class TomlSyntaxError extends Error {}

export const isTable = (v: unknown): v is TomlTable => typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Date);

/** The document a TOML text holds; a syntax error throws `TomlSyntaxError` naming `path` and the line. */
export function readToml(text: string, path: string): TomlTable {
  try {
    return plain(parse(text)) as TomlTable;
  } catch (e) {
    const line = (e as { line?: unknown }).line;
    const first = String((e as Error).message).split('\n')[0];
    throw new TomlSyntaxError(`${path}: not valid TOML${typeof line === 'number' ? ` (line ${line})` : ''}: ${first}`);
  }
}

/** The value at a key path (`['projects', '/home/me/p', 'trust_level']`), whatever spelling defined it (a `[table]`, dotted keys, an inline table). */
export function tomlValue(doc: TomlTable, keys: readonly string[]): unknown {
  let v: unknown = doc;
  for (const k of keys) {
    if (!isTable(v) || !Object.hasOwn(v, k)) return undefined;
    v = v[k];
  }
  return v;
}

/** Whether `text` parses to exactly `expected` (key order aside): the check every edit of ours passes. */
export function readsAs(text: string, expected: TomlTable): boolean {
  try {
    return isDeepStrictEqual(plain(parse(text)), plain(expected));
  } catch {
    return false;
  }
}

/** The parser's tables have no prototype; ours are plain objects, so the two compare and spread alike. */
function plain(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(plain);
  if (!isTable(v)) return v;
  return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, plain(x)]));
}

/** A `[table]` or `[[array.of.tables]]` header and the lines up to the next header (line indexes, `end` exclusive). */
export interface TableSpan {
  keys: string[];
  array: boolean;
  start: number;
  end: number;
}

/** Every table header of a (valid) TOML text, in order, with the lines each table spans; a `[` inside a string or an array is no header. */
export function tomlTables(text: string): TableSpan[] {
  const lines = text.split('\n');
  const spans: TableSpan[] = [];
  let at: ScanState = { open: null, depth: 0 };
  lines.forEach((line, i) => {
    const header = !at.open && at.depth === 0 && /^\s*\[/.test(line) ? headerKeys(line) : null;
    if (header) {
      if (spans.length) spans[spans.length - 1].end = i;
      spans.push({ ...header, start: i, end: lines.length });
    } else at = scanLine(line, at);
  });
  return spans;
}

/** The key path of a header line, read by the parser itself (quoted keys, spaces around dots). */
function headerKeys(line: string): { keys: string[]; array: boolean } | null {
  let doc: unknown;
  try {
    doc = parse(line);
  } catch {
    return null;
  }
  const keys: string[] = [];
  let array = false;
  for (;;) {
    if (Array.isArray(doc) && doc.length === 1) {
      array = true;
      doc = doc[0];
      continue;
    }
    if (!isTable(doc)) return null;
    const names = Object.keys(doc);
    if (names.length === 0) return keys.length ? { keys, array } : null;
    if (names.length !== 1) return null;
    keys.push(names[0]);
    doc = doc[names[0]];
    array = false;
  }
}

/** Where a line leaves the scan: inside a multi-line string (which one), and how deep in brackets (an array may span lines). */
interface ScanState {
  open: '"""' | "'''" | null;
  depth: number;
}

function scanLine(line: string, from: ScanState): ScanState {
  let { open, depth } = from;
  let i = 0;
  while (i < line.length) {
    if (open) {
      if (open === '"""' && line[i] === '\\') {
        i += 2;
        continue;
      }
      if (line.startsWith(open, i)) {
        // up to two quotes of the same kind may stand right before the closing three
        let end = i + 3;
        while (end < line.length && line[end] === open[0] && end - i < 5) end++;
        i = end;
        open = null;
        continue;
      }
      i++;
      continue;
    }
    const c = line[i];
    if (c === '#') break;
    if (line.startsWith('"""', i) || line.startsWith("'''", i)) {
      open = line.slice(i, i + 3) as '"""' | "'''";
      i += 3;
      continue;
    }
    if (c === '"' || c === "'") {
      i++;
      while (i < line.length && line[i] !== c) i += c === '"' && line[i] === '\\' ? 2 : 1;
    } else if (c === '[' || c === '{') depth++;
    else if (c === ']' || c === '}') depth = Math.max(0, depth - 1);
    i++;
  }
  return { open, depth };
}
