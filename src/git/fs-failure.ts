/**
 * Turns a refused write (an errno error from this process, or git's stderr) into one line
 * naming the cause and the place. Looks at the file system only to tell "no
 * space" from "no inodes" (both are ENOSPC) and "read-only" from a missing folder.
 */
import { accessSync, constants, statfsSync } from 'node:fs';
import { dirname } from 'node:path';
import { causeOfErrno, causeOfText, describeCause, pathInText, type FsCause } from '../core/fs-cause.js';

/** The nearest existing folder at or above `path`. */
function existing(path: string): string {
  let p = path;
  for (let i = 0; i < 64; i++) {
    try {
      accessSync(p, constants.F_OK);
      return p;
    } catch {
      const up = dirname(p);
      if (up === p) return p;
      p = up;
    }
  }
  return p;
}

function refine(cause: FsCause | null, path: string): FsCause | null {
  const at = existing(path);
  if (cause === 'no-space') {
    try {
      const s = statfsSync(at);
      if (s.files > 0 && s.ffree === 0) return 'no-inodes';
    } catch {
      // cannot tell: "no space" it is
    }
    return cause;
  }
  if (cause === null || cause === 'permission') {
    // mkdir on a read-only mount can surface as ENOENT or EACCES; access(2) says EROFS.
    try {
      accessSync(at, constants.W_OK);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'EROFS') return 'read-only';
    }
  }
  return cause;
}

/**
 * One line for an error this process got from the file system, or null when it is not the
 * environment refusing. `fallbackPath`: where we were writing (the git dir) when the error
 * names no path.
 */
export function describeFsError(e: unknown, fallbackPath: string | null): string | null {
  const err = e as NodeJS.ErrnoException | undefined;
  if (!err || typeof err !== 'object' || typeof err.code !== 'string') return null;
  const path = err.path ?? fallbackPath;
  let cause = causeOfErrno(err.code);
  if (!cause && err.code === 'ENOENT' && path && /mkdir|open/.test(err.syscall ?? '')) cause = refine(null, path);
  else if (cause && path) cause = refine(cause, path);
  if (!cause) return null;
  return describeCause(cause, path ?? 'the repository');
}

/** One line for git's stderr when it says the environment refused, else null. */
export function describeGitFsFailure(stderr: string, fallbackPath: string | null): string | null {
  const cause = causeOfText(stderr);
  if (!cause) return fullWhereGitCouldNotWrite(stderr);
  const line = stderr.split('\n').find((l) => causeOfText(l)) ?? stderr;
  const path = pathInText(line) ?? fallbackPath;
  return describeCause(path ? (refine(cause, path) ?? cause) : cause, path ?? 'the repository');
}

/**
 * git names no cause when a write into a file it created fails (`couldn't write
 * '<path>.lock'` from `git update-ref` on a full disk): the file system holding that path
 * is asked whether it is full. Null when it is not (then it is not the environment).
 */
function fullWhereGitCouldNotWrite(stderr: string): string | null {
  const m = /(?:couldn't|could not|unable to|failed to) write (?:to )?'(\/[^']+)'/i.exec(stderr);
  if (!m) return null;
  try {
    const s = statfsSync(existing(m[1]));
    if (s.files > 0 && s.ffree === 0) return describeCause('no-inodes', m[1]);
    if (s.bavail === 0) return describeCause('no-space', m[1]);
  } catch {
    // cannot tell: git's own words stand
  }
  return null;
}
