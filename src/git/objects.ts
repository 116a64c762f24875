/**
 * Git object encoding: trees and commits parsed and serialized byte-exactly, hashed with
 * `git hash-object` semantics (`<type> <len>\0<bytes>`, SHA-1). Pure: no I/O here.
 */

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
      name: data.toString('utf8', sp + 1, nul),
      oid: data.toString('hex', nul + 1, nul + 21),
    });
    i = nul + 21;
  }
  return entries;
}

/** Git's tree order: names compared bytewise, a tree's name as if it ended in '/'. */
function sortKey(e: TreeEntry): Buffer {
  return Buffer.from(isTreeMode(e.mode) ? `${e.name}/` : e.name, 'utf8');
}

export function serializeTree(entries: TreeEntry[]): Buffer {
  const sorted = [...entries].sort((a, b) => Buffer.compare(sortKey(a), sortKey(b)));
  const parts: Buffer[] = [];
  for (const e of sorted) {
    parts.push(Buffer.from(`${isTreeMode(e.mode) ? TREE_MODE : e.mode} ${e.name}\0`, 'utf8'), Buffer.from(e.oid, 'hex'));
  }
  return Buffer.concat(parts);
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

export function serializeCommit(c: Commit): Buffer {
  const lines = [`tree ${c.tree}`, ...c.parents.map((p) => `parent ${p}`)];
  lines.push(`author ${formatSignature(c.author)}`, `committer ${formatSignature(c.committer)}`);
  return Buffer.from(`${lines.join('\n')}\n\n${c.message}`, 'utf8');
}

/** Trailers are read by the one commit-message reader (pure, in core/). */
export { parseTrailers } from '../core/commit-message.js';
