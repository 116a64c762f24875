/**
 * The user's environment refusing a write: a full disk, no inodes left, a
 * read-only file system, a permission denied. These are not our bugs, so they are named in
 * one line instead of surfacing as `internal error: ENOSPC ...` with exit 3.
 */

export type FsCause = 'no-space' | 'no-inodes' | 'quota' | 'read-only' | 'permission';

/** The errno codes that mean "the environment refused", and what each means. */
const BY_ERRNO: Record<string, FsCause> = {
  ENOSPC: 'no-space',
  EDQUOT: 'quota',
  EROFS: 'read-only',
  EACCES: 'permission',
  EPERM: 'permission',
};

export function causeOfErrno(code: string | undefined): FsCause | null {
  return (code && BY_ERRNO[code]) || null;
}

/** The cause in git's (or any C program's) stderr, from strerror's English text. */
export function causeOfText(text: string): FsCause | null {
  if (/no space left on device/i.test(text)) return 'no-space';
  if (/disk quota exceeded/i.test(text)) return 'quota';
  if (/read-only file system/i.test(text)) return 'read-only';
  if (/permission denied|operation not permitted/i.test(text)) return 'permission';
  return null;
}

/** The path a git message names (`Unable to create '<path>'`, `unable to open <path>: ...`). */
export function pathInText(text: string): string | null {
  const quoted = /'(\/[^']*)'/.exec(text);
  if (quoted) return quoted[1].replace(/\/\.\//g, '/');
  const bare = /(?:open|create|write|mkdir|unlink|rename)\s+(\/[^\s:]+)/i.exec(text);
  return bare ? bare[1] : null;
}

/** One line naming the cause; `where` is the path refused, or the folder the write was for. */
export function describeCause(cause: FsCause, where: string): string {
  switch (cause) {
    case 'no-space':
      return `no space left on the device holding ${where}`;
    case 'no-inodes':
      return `no free inodes left on the device holding ${where} (too many files; free some or use a larger file system)`;
    case 'quota':
      return `disk quota exceeded on the device holding ${where}`;
    case 'read-only':
      return `read-only file system: cannot write ${where}`;
    case 'permission':
      return `permission denied on ${where}`;
  }
}
