/**
 * HEAD, read in one place: which branch a work tree is on (`Repo.headBranch`), what
 * `includeIf "onbranch:"` matches (config-file.ts), whether a folder has a HEAD git would take
 * (discovery), and the first step of resolving `HEAD` (`Repo.resolveRef`). A HEAD file is
 * `ref: <refname>` or an object id (refs/files-backend.c); an old-style symlink to the ref
 * (core.preferSymlinkRefs) still counts. Each linked worktree has a HEAD of its own, in its own
 * git dir. With refs not kept as files (reftable), git answers (`headViaGit`).
 */
import { closeSync, lstatSync, openSync, readlinkSync, readSync } from 'node:fs';
import { join } from 'node:path';
import { isObjectId } from '../core/object-id.js';

/**
 * What HEAD says: a symbolic ref (`ref`, bytes as git stores them; `branch` when it is a
 * branch whose name is UTF-8, else null), or a detached commit.
 */
export type Head = { kind: 'symbolic'; ref: Buffer; branch: string | null } | { kind: 'detached'; oid: string };

/** git's own limit for reading HEAD and other ref files (refs/files-backend.c reads more, but a longer HEAD is no HEAD we write or meet). */
const MAX_HEAD = 4096;
const utf8 = new TextDecoder('utf-8', { fatal: true });

/** A ref name as text, or null when its bytes are not UTF-8 (git allows such names; a path or a note's `branch:` made of them would name another ref). */
export function refText(ref: Buffer): string | null {
  try {
    return utf8.decode(ref);
  } catch {
    return null;
  }
}

/** A branch name from a full ref name, or null: not under refs/heads/, or not UTF-8. */
export function branchOfRef(ref: Buffer): string | null {
  const prefix = 'refs/heads/';
  if (ref.length <= prefix.length || ref.toString('latin1', 0, prefix.length) !== prefix) return null;
  return refText(ref.subarray(prefix.length));
}

/** What git trims and skips around a HEAD file's contents (isspace). */
const BLANKS = /^[ \t\n\r\v\f]+|[ \t\n\r\v\f]+$/g;

/**
 * The contents of a HEAD file as git reads them (refs/files-backend.c): `ref:`, blanks and a
 * ref name under refs/, or an object id; undefined for anything else (a name with a control
 * character or a space, which no ref may have, included).
 */
export function parseHead(bytes: Buffer): Head | undefined {
  const text = bytes.toString('latin1').replace(BLANKS, '');
  if (text.startsWith('ref:')) {
    const name = text.slice(4).replace(BLANKS, '');
    if (!name.startsWith('refs/') || /[\x00-\x20\x7f]/.test(name)) return undefined;
    const ref = Buffer.from(name, 'latin1');
    return { kind: 'symbolic', ref, branch: branchOfRef(ref) };
  }
  return isObjectId(text) ? { kind: 'detached', oid: text } : undefined;
}

/** setup.c validate_headref: whether git takes a folder with this HEAD for a git dir (a looser test than reading it: an id in capitals, text after it). */
export function hasValidHead(gitDir: string): boolean {
  const path = join(gitDir, 'HEAD');
  const st = lstatSync(path, { throwIfNoEntry: false });
  if (!st) return false;
  try {
    if (st.isSymbolicLink()) return readlinkSync(path).startsWith('refs/');
    if (!st.isFile()) return false;
    const fd = openSync(path, 'r');
    const buf = Buffer.alloc(255);
    const n = readSync(fd, buf, 0, 255, 0);
    closeSync(fd);
    const text = buf.toString('latin1', 0, n);
    return /^ref:\s*refs\//.test(text) || /^[0-9a-fA-F]{40}/.test(text);
  } catch {
    return false;
  }
}

/**
 * The HEAD of a git dir (a linked worktree's own), read from the file system; null when
 * there is none, undefined when it cannot be read or holds something git would not take.
 */
export function readHead(gitDir: string): Head | null | undefined {
  const path = join(gitDir, 'HEAD');
  try {
    const st = lstatSync(path, { throwIfNoEntry: false });
    if (!st) return null;
    if (st.isSymbolicLink()) {
      const target = readlinkSync(path, { encoding: 'buffer' });
      if (target.toString('latin1', 0, 5) !== 'refs/') return undefined;
      return { kind: 'symbolic', ref: target, branch: branchOfRef(target) };
    }
    if (!st.isFile()) return undefined;
    const fd = openSync(path, 'r');
    try {
      const buf = Buffer.alloc(MAX_HEAD);
      const n = readSync(fd, buf, 0, MAX_HEAD, 0);
      return n === MAX_HEAD ? undefined : parseHead(buf.subarray(0, n));
    } finally {
      closeSync(fd);
    }
  } catch {
    return undefined;
  }
}

/** HEAD as git says it, for refs git keeps other than as files: the branch (null when detached or not a branch). */
export async function headViaGit(runGit: (args: string[]) => Promise<{ code: number | null; stdout: Buffer }>): Promise<string | null> {
  const r = await runGit(['symbolic-ref', '-q', 'HEAD']);
  return r.code === 0 ? branchOfRef(r.stdout.subarray(0, r.stdout.length - (r.stdout.at(-1) === 0x0a ? 1 : 0))) : null;
}
