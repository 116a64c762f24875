/**
 * Git object encoding: trees and commits parsed and serialized byte-exactly, hashed with
 * `git hash-object` semantics (`<type> <len>\0<bytes>`, SHA-1). Pure: no I/O here.
 */

import { isUtf8 } from 'node:buffer';

export type ObjectType = 'blob' | 'tree' | 'commit' | 'tag';

export interface GitObject {
  type: ObjectType;
  data: Buffer;
}

/** Where objects come from and go to: native git in a real repository, memfs in fast tests. */
export interface ObjectStore {
  read(oid: string): Promise<GitObject | null>;
  write(type: ObjectType, data: Buffer): Promise<string>;
}

export { ZERO_OID } from '../core/object-id.js';
export const EMPTY_TREE_OID = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';

export const TREE_MODE = '40000';
export const BLOB_MODE = '100644';

export function hashObject(type: ObjectType, data: Buffer): string {
  // crypto is loaded on first use: reading never hashes.
  return process.getBuiltinModule('node:crypto').createHash('sha1').update(`${type} ${data.length}\0`).update(data).digest('hex');
}

export interface TreeEntry {
  mode: string;
  name: string;
  oid: string;
}

export function isTreeMode(mode: string): boolean {
  return mode === TREE_MODE || mode === '040000';
}

export function parseTree(data: Buffer): TreeEntry[] {
  const entries: TreeEntry[] = [];
  let i = 0;
  while (i < data.length) {
    const sp = data.indexOf(0x20, i);
    const nul = data.indexOf(0, sp);
    if (sp < 0 || nul < 0 || nul + 21 > data.length) throw new Error('corrupt tree object');
    entries.push({
      mode: data.toString('latin1', i, sp),
      name: decodeName(data, sp + 1, nul),
      oid: data.toString('hex', nul + 1, nul + 21),
    });
    i = nul + 21;
  }
  return entries;
}

/** Git's tree order: names compared bytewise, a tree's name as if it ended in '/'. */
function sortKey(e: TreeEntry): Buffer {
  return nameBytes(isTreeMode(e.mode) ? `${e.name}/` : e.name);
}

export function serializeTree(entries: TreeEntry[]): Buffer {
  const sorted = [...entries].sort((a, b) => Buffer.compare(sortKey(a), sortKey(b)));
  const parts: Buffer[] = [];
  for (const e of sorted) {
    parts.push(Buffer.from(`${isTreeMode(e.mode) ? TREE_MODE : e.mode} `, 'latin1'), nameBytes(e.name), Buffer.from([0]), Buffer.from(e.oid, 'hex'));
  }
  return Buffer.concat(parts);
}

/**
 * A tree entry's name is bytes (docs/format.md: a writer keeps every entry). UTF-8 decodes
 * as usual; a byte that is not part of valid UTF-8 becomes the lone surrogate U+DC80-U+DCFF
 * (Python's "surrogateescape"), which no valid UTF-8 decodes to, so `nameBytes` gives
 * exactly the same bytes back and names stay strings everywhere else.
 */
export function decodeName(data: Buffer, start: number, end: number): string {
  const text = data.toString('utf8', start, end);
  if (!text.includes('\uFFFD') || isUtf8(data.subarray(start, end))) return text;
  let out = '';
  for (let i = start; i < end;) {
    const n = utf8Length(data, i, end);
    if (n) {
      out += data.toString('utf8', i, i + n);
      i += n;
    } else out += String.fromCharCode(0xdc00 + data[i++]);
  }
  return out;
}

/** The bytes of a name `decodeName` made. */
export function nameBytes(name: string): Buffer {
  if (!/[\udc80-\udcff]/.test(name)) return Buffer.from(name, 'utf8');
  const parts: Buffer[] = [];
  for (const ch of name) {
    const cp = ch.codePointAt(0)!;
    parts.push(cp >= 0xdc80 && cp <= 0xdcff ? Buffer.from([cp - 0xdc00]) : Buffer.from(ch, 'utf8'));
  }
  return Buffer.concat(parts);
}

/** The length of the valid UTF-8 sequence at `i` (no overlong form, no surrogate, at most U+10FFFF), or 0. */
function utf8Length(b: Buffer, i: number, end: number): number {
  const c = b[i];
  if (c < 0x80) return 1;
  const n = c >= 0xc2 && c <= 0xdf ? 2 : c >= 0xe0 && c <= 0xef ? 3 : c >= 0xf0 && c <= 0xf4 ? 4 : 0;
  if (!n || i + n > end) return 0;
  const lo = c === 0xe0 ? 0xa0 : c === 0xf0 ? 0x90 : 0x80;
  const hi = c === 0xed ? 0x9f : c === 0xf4 ? 0x8f : 0xbf;
  if (b[i + 1] < lo || b[i + 1] > hi) return 0;
  for (let k = 2; k < n; k++) if (b[i + k] < 0x80 || b[i + k] > 0xbf) return 0;
  return n;
}

export interface Signature {
  name: string;
  email: string;
  /** seconds since the epoch */
  timestamp: number;
  /** "+0000" form */
  tz: string;
}

export interface Commit {
  tree: string;
  parents: string[];
  author: Signature;
  committer: Signature;
  message: string;
}

export function formatSignature(s: Signature): string {
  return `${s.name} <${s.email}> ${s.timestamp} ${s.tz}`;
}

export function parseSignature(line: string): Signature {
  const m = /^(.*) <([^>]*)> (-?\d+) ([+-]\d{4})$/.exec(line);
  if (!m) return { name: line, email: '', timestamp: 0, tz: '+0000' };
  return { name: m[1], email: m[2], timestamp: Number(m[3]), tz: m[4] };
}

export function parseCommit(data: Buffer): Commit {
  const text = data.toString('utf8');
  const split = text.indexOf('\n\n');
  const header = split < 0 ? text : text.slice(0, split);
  const message = split < 0 ? '' : text.slice(split + 2);
  const commit: Commit = { tree: '', parents: [], author: parseSignature(''), committer: parseSignature(''), message };
  for (const line of header.split('\n')) {
    const sp = line.indexOf(' ');
    const key = line.slice(0, sp);
    const value = line.slice(sp + 1);
    if (key === 'tree') commit.tree = value;
    else if (key === 'parent') commit.parents.push(value);
    else if (key === 'author') commit.author = parseSignature(value);
    else if (key === 'committer') commit.committer = parseSignature(value);
  }
  return commit;
}

const AUTHOR = Buffer.from('author ');
const NL_AUTHOR = Buffer.from('\nauthor ');

/**
 * The author of a commit from its header bytes alone, as `parseCommit(data).author` says it
 * (the last `author` line): for listings of many commits, which need nothing else (log's
 * provenance of 50,000 versions decoded and split every header for one line).
 */
export function commitAuthor(data: Buffer): Signature {
  const split = data.indexOf('\n\n');
  const end = split < 0 ? data.length : split;
  let line = data.subarray(0, AUTHOR.length).equals(AUTHOR) ? 0 : -1;
  for (let at = data.indexOf(NL_AUTHOR); at >= 0 && at < end; at = data.indexOf(NL_AUTHOR, at + 1)) line = at + 1;
  if (line < 0) return parseSignature('');
  const nl = data.indexOf(10, line);
  return parseSignature(data.toString('utf8', line + AUTHOR.length, nl < 0 || nl > end ? end : nl));
}

export function serializeCommit(c: Commit): Buffer {
  const lines = [`tree ${c.tree}`, ...c.parents.map((p) => `parent ${p}`)];
  lines.push(`author ${formatSignature(c.author)}`, `committer ${formatSignature(c.committer)}`);
  return Buffer.from(`${lines.join('\n')}\n\n${c.message}`, 'utf8');
}

/** Trailers are read by the one commit-message reader (pure, in core/). */
export { parseTrailers } from '../core/commit-message.js';
