/**
 * Which object stores git reads for a repository: its own, then its alternates
 * (GIT_ALTERNATE_OBJECT_DIRECTORIES, info/alternates, theirs after them), as git's
 * prepare_alt_odb lists them. Used by the in-process object reader (packs.ts).
 */
import { readFileSync, realpathSync, statSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';

/** unquote_c_style: a `"..."` entry of an alternates list; null for broken quoting (then it is read as written). */
function unquoteC(s: string): { value: string; rest: string } | null {
  if (!s.startsWith('"')) return null;
  const esc: Record<string, string> = { a: '\x07', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v', '\\': '\\', '"': '"' };
  const bytes: number[] = [];
  const src = Buffer.from(s.slice(1), 'utf8');
  for (let i = 0; i < src.length; i++) {
    const c = src[i];
    if (c === 0x22) return { value: Buffer.from(bytes).toString('utf8'), rest: src.subarray(i + 1).toString('utf8') };
    if (c !== 0x5c) {
      bytes.push(c);
      continue;
    }
    const n = String.fromCharCode(src[++i]);
    if (n in esc) bytes.push(esc[n].charCodeAt(0));
    else if (/[0-3]/.test(n) && /^[0-7]{2}$/.test(String.fromCharCode(src[i + 1], src[i + 2]))) {
      bytes.push(parseInt(String.fromCharCode(src[i], src[i + 1], src[i + 2]), 8));
      i += 2;
    } else return null;
  }
  return null;
}

/** parse_alt_odb_entry over a whole list: `#` comments, quoted entries, empty entries skipped. */
function alternateEntries(text: string, sep: string): string[] {
  const out: string[] = [];
  let rest = text;
  while (rest) {
    let entry = '';
    const q = rest.startsWith('"') ? unquoteC(rest) : null;
    if (rest.startsWith('#')) {
      const end = rest.indexOf(sep);
      rest = end < 0 ? '' : rest.slice(end + 1);
      continue;
    } else if (q) {
      entry = q.value;
      rest = q.rest.slice(1); // git skips the one character after the closing quote
    } else {
      const end = rest.indexOf(sep);
      entry = end < 0 ? rest : rest.slice(0, end);
      rest = end < 0 ? '' : rest.slice(end + 1);
    }
    if (entry) out.push(entry);
  }
  return out;
}

function realDir(p: string): string | null {
  try {
    const r = realpathSync.native(p);
    return statSync(r).isDirectory() ? r.replace(/\/+$/, '') || '/' : null;
  } catch {
    return null;
  }
}

/**
 * The object stores git reads for `objectsDir` (object-file.c prepare_alt_odb): the
 * repository's own, then GIT_ALTERNATE_OBJECT_DIRECTORIES and info/alternates, each
 * alternate's own alternates after it, five levels deep at most, every store once.
 */
export function objectStores(objectsDir: string): string[] {
  const own = realDir(objectsDir) ?? objectsDir;
  const stores = [objectsDir];
  const seen = new Set([own]);
  const link = (list: string, sep: string, base: string | null, depth: number) => {
    if (!list || depth > 5) return;
    for (const entry of alternateEntries(list, sep)) {
      const path = realDir(isAbsolute(entry) || !base ? entry : join(realDir(base) ?? base, entry));
      if (!path || seen.has(path)) continue;
      seen.add(path);
      stores.push(path);
      readInfo(path, depth + 1);
    }
  };
  const readInfo = (store: string, depth: number) => {
    let text: string;
    try {
      text = readFileSync(join(store, 'info', 'alternates'), 'utf8');
    } catch {
      return;
    }
    link(text, '\n', store, depth);
  };
  link(process.env.GIT_ALTERNATE_OBJECT_DIRECTORIES ?? '', ':', null, 0);
  readInfo(objectsDir, 0);
  return stores;
}
