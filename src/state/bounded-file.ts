/**
 * Reading and writing files that repository content can name or replace (DESIGN.md "Trust":
 * paths stay inside; files read from the work tree are regular files under a size bound;
 * state files under .git/handoff/ are opened without following links or blocking). A tracked
 * `CLAUDE.md` may be a symlink to `~/.bashrc` or to `/dev/zero`, a `.claude/` folder a link to
 * the user's own, a state file a FIFO: each is refused in one line naming the path, or, where
 * the caller treats the file as a convenience (a hook's opt-in, a cache), read as absent.
 */
import { closeSync, constants, fstatSync, lstatSync, openSync, readSync, realpathSync } from 'node:fs';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import { UnsafePath } from '../errors.js';

/** A file of the work tree we read (instruction files, policy, cadence, tasks): far above any real one. */
export const MAX_WORK_TREE_FILE_BYTES = 8 * 1024 * 1024;
/** A state file under .git/handoff/ (the search index of 50,000 versions is some tens of MB). */
export const MAX_STATE_FILE_BYTES = 512 * 1024 * 1024;

const NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const NONBLOCK = constants.O_NONBLOCK ?? 0;

/** Whether `p` is `root` or inside it (both absolute, already resolved). */
export function isInside(root: string, p: string): boolean {
  const rel = relative(root, p);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

function realOrSelf(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
}

/** The bytes of an open file that must be a regular file of at most `maxBytes`; the reason otherwise. */
function readOpen(fd: number, maxBytes: number): Buffer | string {
  const st = fstatSync(fd);
  if (!st.isFile())
    return st.isFIFO() ? 'a FIFO' : st.isCharacterDevice() || st.isBlockDevice() ? 'a device' : st.isDirectory() ? 'a folder' : 'not a regular file';
  if (st.size > maxBytes) return `larger than ${maxBytes} bytes`;
  const buf = Buffer.alloc(st.size);
  let off = 0;
  while (off < buf.length) {
    const n = readSync(fd, buf, off, buf.length - off, off);
    if (n === 0) break;
    off += n;
  }
  return off === buf.length ? buf : buf.subarray(0, off);
}

/**
 * A state file's bytes, or null when it is absent, a symlink, a FIFO, a device, a folder or
 * larger than `maxBytes`: never followed, never waited on (a FIFO opened non-blocking).
 */
export function readStateFile(path: string, maxBytes = MAX_STATE_FILE_BYTES): Buffer | null {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | NOFOLLOW | NONBLOCK);
  } catch {
    return null;
  }
  try {
    const r = readOpen(fd, maxBytes);
    return typeof r === 'string' ? null : r;
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}

/**
 * Where `rel` (a path from repository content or a command line) lands under `root`, refused
 * when it leaves `root` by `..`, an absolute path or a symlink anywhere on the way. `what`
 * names the file in the message. The path need not exist; its deepest existing ancestor must
 * resolve inside `root`.
 */
export function insidePath(root: string, rel: string, what = rel): string {
  const realRoot = realOrSelf(root);
  const abs = resolve(root, rel);
  if (!isInside(resolve(root), abs) && !isInside(realRoot, abs)) throw new UnsafePath(`refusing ${what}: ${rel} is outside the work tree`, { path: rel });
  let probe = abs;
  for (;;) {
    let exists = true;
    try {
      lstatSync(probe);
    } catch {
      exists = false;
    }
    if (exists) {
      const real = realOrSelf(probe);
      if (!isInside(realRoot, real)) {
        const by = probe === abs ? (what === rel ? 'it' : rel) : relative(root, probe) || '.';
        throw new UnsafePath(`refusing ${what}: ${by} leads outside the work tree (to ${real})`, { path: rel, target: real });
      }
      return abs;
    }
    const up = dirname(probe);
    if (up === probe) return abs;
    probe = up;
  }
}

/**
 * A work-tree file's bytes: null when it does not exist; refused (UnsafePath) when it leads
 * outside `root`, is not a regular file (a FIFO, `/dev/zero`) or is larger than `maxBytes`.
 * A symlink that stays inside the work tree is followed (AGENTS.md -> CLAUDE.md is common).
 */
export function readWorkTreeFile(root: string, rel: string, maxBytes = MAX_WORK_TREE_FILE_BYTES): Buffer | null {
  return readRegularFile(insidePath(root, rel), rel, maxBytes);
}

/** The bytes of the file at `abs` (shown as `rel`): null when it does not exist; refused when it is no regular file or larger than `maxBytes`. */
export function readRegularFile(abs: string, rel: string, maxBytes = MAX_WORK_TREE_FILE_BYTES): Buffer | null {
  let fd: number;
  try {
    fd = openSync(abs, constants.O_RDONLY | NONBLOCK);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return null;
    throw new UnsafePath(`refusing ${rel}: cannot be read (${code ?? (e as Error).message})`, { path: rel });
  }
  try {
    const r = readOpen(fd, maxBytes);
    if (typeof r === 'string') throw new UnsafePath(`refusing ${rel}: it is ${r}`, { path: rel, why: `it is ${r}` });
    return r;
  } finally {
    closeSync(fd);
  }
}

/** Like readWorkTreeFile, but null for a file that is refused too: for a caller to which the file is only a hint. */
export function readWorkTreeFileOrNull(root: string, rel: string, maxBytes = MAX_WORK_TREE_FILE_BYTES): Buffer | null {
  try {
    return readWorkTreeFile(root, rel, maxBytes);
  } catch {
    return null;
  }
}

/**
 * Checks a file we are about to write under `root` (agent settings, the instruction file, an
 * export): inside `root` all the way (no symlink leading out), and, when it exists, a regular
 * file or a symlink to one inside. Returns the absolute path to write.
 */
export function writablePath(root: string, rel: string, what = rel): string {
  const abs = insidePath(root, rel, what);
  let st;
  try {
    st = lstatSync(abs);
  } catch {
    return abs;
  }
  if (st.isSymbolicLink()) {
    try {
      st = lstatSync(realpathSync(abs));
    } catch {
      throw new UnsafePath(`refusing ${what}: ${rel} is a dangling symlink`, { path: rel });
    }
  }
  if (!st.isFile()) throw new UnsafePath(`refusing ${what}: ${rel} is not a regular file`, { path: rel });
  return abs;
}
