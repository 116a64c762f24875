/**
 * The one lock: a file published whole with link(2), naming its owner (pid, host, since, and
 * when that process started), and one rule for when a lock can no longer belong to a live
 * process. The relay's per-version
 * locks and the clone's sync lock are taken here; git's own ref locks (which name no owner)
 * are judged by the same rule (../git/ref-locks.ts).
 */
import { closeSync, linkSync, mkdirSync, openSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { dirname } from 'node:path';
import { processHolding, processStartToken } from '../process/proc.js';
import { temporaryPath } from './atomic-write.js';
import { readStateFile } from './bounded-file.js';

export interface LockOwner {
  pid: number;
  host: string;
  since: string;
  /**
   * When the owner process started (processStartToken), so that a later process given the
   * same pid is not taken for it; null where the owner could not read it (no /proc). Absent
   * from locks written before it was recorded: those are judged by their pid alone.
   */
  start?: string | null;
}

export type LockResult = { acquired: true } | { acquired: false; owner: LockOwner | null };

/**
 * An ownerless lock file younger than this may belong to a live writer. git holds a ref lock
 * only while it updates the ref, and our writers give up after waiting 5 s (HandoffStore.commit);
 * a lock of ours is never ownerless while held (link(2) publishes it with its owner inside).
 */
export const OWNERLESS_STALE_MS = 5000;

/**
 * A lock whose owner's pid is alive but whose start time cannot be compared (recorded where
 * there is no /proc, or the process is hidden from us) is stale once it has gone this long
 * without a refresh. Its holder refreshes it every LOCK_REFRESH_MS while it lives, so only an
 * owner that died and left its pid to another process lets it age that far.
 */
export const OWNED_STALE_MS = 10 * 60_000;
export const LOCK_REFRESH_MS = 60_000;

export interface LockFacts {
  /** the owner the lock names, or null (git's ref locks; a damaged lock) */
  owner: LockOwner | null;
  ageMs: number;
  /** a process that has the file open (Linux), or null */
  heldBy: number | null;
  /** when the process now holding the owner's pid started, where the owner recorded its own start; null when unread or unreadable */
  ownerStart?: string | null;
}

/**
 * The staleness rule, for every lock. One naming an owner on another host is never stale (its
 * owner cannot be checked); on this host it is stale when the owner's pid is gone, or is alive
 * but started at another time than the owner recorded (the owner died and its pid went to
 * another process). A live owner keeps its lock however long it holds it: a relay waits as long
 * as the session it started. Where the start times cannot be compared, a lock not refreshed for
 * OWNED_STALE_MS is stale; one recording no start at all (the format before it) is judged by its
 * pid alone, as it was. An ownerless lock is stale when it is older than OWNERLESS_STALE_MS and
 * no process has it open.
 */
export function isStaleLock(f: LockFacts): boolean {
  if (!f.owner) return f.ageMs >= OWNERLESS_STALE_MS && f.heldBy === null;
  const { host, pid, start } = f.owner;
  if (host !== hostname()) return false;
  if (!processAlive(pid)) return true;
  if (start === undefined) return false;
  if (start !== null && f.ownerStart) return f.ownerStart !== start;
  return f.ageMs >= OWNED_STALE_MS;
}

/** Whether a process with this pid exists (one we may not signal exists too). */
export function processAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * The owner a lock file names: `{"pid","host","since","start"}` (`start` absent in locks of
 * earlier versions), or the `<pid> <token>` line sync
 * locks of older versions hold (on this host: the lock lives in the clone's git dir). Null
 * when the file is gone, empty or damaged, and when it is no regular file (a FIFO in its place
 * is never waited on, a symlink never followed).
 */
export function readLockOwner(path: string): LockOwner | null {
  const bytes = readStateFile(path, 64 * 1024);
  if (bytes === null) return null;
  const text = bytes.toString('utf8');
  const legacy = /^(\d+) \S*\n?$/.exec(text);
  if (legacy) return { pid: Number(legacy[1]), host: hostname(), since: '' };
  try {
    const v = JSON.parse(text) as Partial<LockOwner> | null;
    if (!v || typeof v.pid !== 'number' || typeof v.host !== 'string') return null;
    const owner: LockOwner = { pid: v.pid, host: v.host, since: String(v.since ?? '') };
    if ('start' in v) owner.start = typeof v.start === 'string' ? v.start : null;
    return owner;
  } catch {
    return null;
  }
}

/** What the staleness rule needs to know of the lock at `path`; null when there is none. */
export function lockFacts(path: string, nowMs = Date.now()): LockFacts | null {
  let mtime: number;
  try {
    mtime = statSync(path).mtimeMs;
  } catch {
    return null;
  }
  const owner = readLockOwner(path);
  const ownerStart = typeof owner?.start === 'string' && owner.host === hostname() ? processStartToken(owner.pid) : null;
  return { owner, ageMs: Math.max(0, nowMs - mtime), heldBy: owner ? null : processHolding(path), ownerStart };
}

/** Creates `path` holding `text` unless it exists, atomically (link(2)); false when it existed. */
export function linkNew(path: string, text: string): boolean {
  const tmp = temporaryPath(path);
  try {
    writeFileSync(tmp, text);
    linkSync(tmp, path);
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw e;
  } finally {
    rmSync(tmp, { force: true });
  }
}

/** Takes the lock at `path` for this process; takes over a stale one. Held, it is refreshed until `unlock`. */
export function tryLock(path: string): LockResult {
  mkdirSync(dirname(path), { recursive: true });
  const me: LockOwner = { pid: process.pid, host: hostname(), since: new Date().toISOString(), start: processStartToken(process.pid) };
  for (let i = 0; i < 2; i++) {
    if (linkNew(path, JSON.stringify(me))) {
      keepFresh(path, me);
      return { acquired: true };
    }
    const facts = lockFacts(path);
    if (!facts) continue; // released meanwhile
    if (!isStaleLock(facts) || !takeOver(path, facts.owner)) return { acquired: false, owner: facts.owner };
  }
  return { acquired: false, owner: readLockOwner(path) };
}

/** Removes a stale lock; a second-level lock keeps two takers from both succeeding. */
function takeOver(path: string, owner: LockOwner | null): boolean {
  const guard = `${path}.takeover`;
  try {
    closeSync(openSync(guard, 'wx'));
  } catch {
    // Another taker is at it, or died at it: its guard is ownerless, so the same rule applies.
    const facts = lockFacts(guard);
    if (facts && isStaleLock(facts)) rmSync(guard, { force: true });
    return false;
  }
  try {
    if (JSON.stringify(readLockOwner(path)) !== JSON.stringify(owner)) return false;
    rmSync(path, { force: true });
    return true;
  } finally {
    rmSync(guard, { force: true });
  }
}

const refreshing = new Map<string, ReturnType<typeof setInterval>>();

/**
 * Touches a held lock every LOCK_REFRESH_MS, so its age says how long ago its holder was last
 * alive (the rule's fallback where start times cannot be compared). Stops once the file no
 * longer names this holder; never keeps the process alive by itself.
 */
function keepFresh(path: string, me: LockOwner): void {
  stopRefresh(path);
  const timer = setInterval(() => {
    const o = readLockOwner(path);
    if (!o || o.pid !== me.pid || o.host !== me.host || o.since !== me.since) return stopRefresh(path);
    try {
      const now = new Date();
      utimesSync(path, now, now);
    } catch {
      // released or taken meanwhile: the next tick sees it
    }
  }, LOCK_REFRESH_MS);
  timer.unref?.();
  refreshing.set(path, timer);
}

function stopRefresh(path: string): void {
  const timer = refreshing.get(path);
  if (timer !== undefined) clearInterval(timer);
  refreshing.delete(path);
}

/** Releases the lock at `path` if this process holds it. */
export function unlock(path: string): void {
  stopRefresh(path);
  const owner = readLockOwner(path);
  if (owner && owner.pid === process.pid && owner.host === hostname()) rmSync(path, { force: true });
}
