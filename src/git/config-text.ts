/**
 * One git config file's text as git reads it (config.c): the parser, git's key spelling, a
 * boolean value, and reading a file the way git does. Whatever only git can answer throws
 * `Unsupported`, and the in-process readers (config-file.ts, repo-format.ts) let git answer.
 */
import { readFileSync, statSync } from 'node:fs';

/** A key and its value; null for a key written without `=` (git: "no value", read as true). */
export type ConfigEntry = [key: string, value: string | null];

/** Thrown where only git can answer; the in-process readers catch it and decline. */
export class Unsupported extends Error {}

/**
 * git's spelling of a key (config.c git_config_parse_key): section and variable name
 * lower-cased, the subsection between them kept byte for byte. null: not a valid key.
 */
export function canonicalKey(key: string): string | null {
  const first = key.indexOf('.');
  const last = key.lastIndexOf('.');
  if (first <= 0 || last === key.length - 1 || key.includes('\n')) return null;
  const section = key.slice(0, first);
  const name = key.slice(last + 1);
  if (!/^[A-Za-z0-9-]+$/.test(section) || !/^[A-Za-z][A-Za-z0-9-]*$/.test(name)) return null;
  return `${section.toLowerCase()}${key.slice(first, last + 1)}${name.toLowerCase()}`;
}

export interface ParseOptions {
  /**
   * 'decline' (the default): an include makes the reader give up; 'skip': ignore it, as
   * git's repository-format check does; 'keep': return include.path / includeIf.*.path as
   * entries, for the caller to follow (includes.ts).
   */
  includes?: 'decline' | 'skip' | 'keep';
}

/** Parses one config file's text into (key, value) pairs, the way config.c does; throws on what it cannot answer. */
export function parseConfigText(text: string, opts: ParseOptions = {}): ConfigEntry[] {
  // git counts \v and \f as blanks and skips a UTF-8 BOM; rare enough to leave to git.
  if (/[\v\f\0\uFEFF]/.test(text)) throw new Unsupported('unusual characters');
  const out: ConfigEntry[] = [];
  let section = '';
  let skipping = false;
  let i = 0;
  const n = text.length;
  const skipLine = () => {
    while (i < n && text[i] !== '\n') i++;
  };
  while (i < n) {
    const c = text[i];
    if (c === '\n' || c === ' ' || c === '\t' || c === '\r') {
      i++;
      continue;
    }
    if (c === '#' || c === ';') {
      skipLine();
      continue;
    }
    if (c === '[') {
      const end = text.indexOf(']', i);
      if (end < 0) throw new Unsupported('bad section');
      const header = text.slice(i + 1, end);
      const m = /^\s*([A-Za-z0-9.-]+)(?:\s+"((?:[^"\\\n]|\\[^\n])*)")?\s*$/.exec(header);
      if (!m || header.includes('\n')) throw new Unsupported('bad section header');
      // The old `[section.sub]` spelling is lower-cased whole; a quoted subsection is kept.
      section = m[2] !== undefined ? `${m[1].toLowerCase()}.${m[2].replace(/\\(.)/g, '$1')}` : m[1].toLowerCase();
      const include = /^(include|includeif)(\.|$)/.test(section);
      if (include && (opts.includes ?? 'decline') === 'decline') throw new Unsupported('include');
      skipping = include && opts.includes === 'skip';
      i = end + 1;
      continue;
    }
    // name [= value]
    const nm = /^[A-Za-z][A-Za-z0-9-]*/.exec(text.slice(i, i + 256));
    if (!nm || !section) throw new Unsupported('bad line');
    const key = `${section}.${nm[0].toLowerCase()}`;
    i += nm[0].length;
    while (i < n && (text[i] === ' ' || text[i] === '\t')) i++;
    if (i >= n || text[i] === '\n' || text[i] === '#' || text[i] === ';' || (text[i] === '\r' && text[i + 1] === '\n')) {
      if (!skipping) out.push([key, null]);
      skipLine();
      continue;
    }
    if (text[i] !== '=') throw new Unsupported('bad assignment');
    i++;
    let value = '';
    let quoted = false;
    let pendingSpace = '';
    for (; i < n; i++) {
      let ch = text[i];
      // git reads "\r\n" as one line break (config.c get_next_char).
      if (ch === '\r' && text[i + 1] === '\n') ch = text[++i];
      if (ch === '\n' && !quoted) break;
      if (ch === '\n' && quoted) throw new Unsupported('newline in quotes');
      if (!quoted && (ch === '#' || ch === ';')) {
        skipLine();
        break;
      }
      if (ch === '"') {
        value += pendingSpace;
        pendingSpace = '';
        quoted = !quoted;
        continue;
      }
      if (ch === '\\') {
        let nx = text[i + 1];
        i++;
        if (nx === '\r' && text[i + 1] === '\n') nx = text[++i];
        if (nx === '\n') continue; // line continuation
        const esc: Record<string, string> = { n: '\n', t: '\t', b: '\b', '\\': '\\', '"': '"' };
        if (!(nx in esc)) throw new Unsupported('bad escape');
        value += pendingSpace + esc[nx];
        pendingSpace = '';
        continue;
      }
      if (!quoted && (ch === ' ' || ch === '\t' || ch === '\r')) {
        // git turns each unquoted blank into one space, and drops trailing ones (config.c parse_value).
        if (value.length) pendingSpace += ' ';
        continue;
      }
      value += pendingSpace + ch;
      pendingSpace = '';
    }
    if (quoted) throw new Unsupported('unterminated quote');
    if (!skipping) out.push([key, value]);
  }
  return out;
}

/**
 * A config file's text, or null when it does not exist. git skips a system or global file
 * it may not read (access_or_die with ACCESS_EACCES_OK: `eaccesOk`) and dies on a
 * repository file it may not read; anything else unusual is left to git.
 */
export function readIfExists(path: string, eaccesOk = false): string | null {
  try {
    // Most of git's config files do not exist on a given machine: no exception for that.
    if (!statSync(path, { throwIfNoEntry: false })) return null;
    return readFileSync(path, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR' || (eaccesOk && code === 'EACCES')) return null;
    throw new Unsupported('unreadable');
  }
}

/** git's boolean (config.c git_parse_maybe_bool); undefined for a value git would die on. */
export function parseBool(v: string | null): boolean | undefined {
  if (v === null) return true;
  if (v === '' || /^(false|no|off)$/i.test(v)) return false;
  if (/^(true|yes|on)$/i.test(v)) return true;
  if (/^-?\d+$/.test(v)) return Number(v) !== 0;
  return undefined;
}
