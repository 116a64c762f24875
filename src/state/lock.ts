/**
 * The one lock: a file published whole with link(2), naming its owner (pid, host, since), and
 * one rule for when a lock can no longer belong to a live process. The relay's per-version
 * locks and the clone's sync lock are taken here; git's own ref locks (which name no owner)
 * are judged by the same rule (../git/ref-locks.ts).
 */
import { closeSync, linkSync, mkdirSync, openSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { dirname } from 'node:path';
import { processHolding } from '../process/proc.js';
import { temporaryPath } from './atomic-write.js';

export interface LockOwner {
  pid: number;
  host: string;
  since: string;
}

export type LockResult = { acquired: true } | { acquired: false; owner: LockOwner | null };

/**
 * An ownerless lock file younger than this may belong to a live writer. git holds a ref lock
 * only while it updates the ref, and our writers give up after waiting 5 s (HandoffStore.commit);
 * a lock of ours is never ownerless while held (link(2) publishes it with its owner inside).
 */
export const OWNERLESS_STALE_MS = 5000;

export interface LockFacts {
  /** the owner the lock names, or null (git's ref locks; a damaged lock) */
  owner: LockOwner | null;
  ageMs: number;
  /** a process that has the file open (Linux), or null */
  heldBy: number | null;
}

/**
 * The staleness rule, for every lock: one naming an owner is stale when the owner ran on this
 * host and is gone (another host's owner cannot be checked, so its lock is never taken, and a
 * live owner keeps its lock however long it holds it: a relay waits as long as the session it
 * started); an ownerless one when it is older than OWNERLESS_STALE_MS and no process has it open.
 */
export function isStaleLock(f: LockFacts): boolean {
  if (f.owner) return f.owner.host === hostname() && !processAlive(f.owner.pid);
  return f.ageMs >= OWNERLESS_STALE_MS && f.heldBy === null;
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
 * The owner a lock file names: `{"pid","host","since"}`, or the `<pid> <token>` line sync
 * locks of older versions hold (on this host: the lock lives in the clone's git dir). Null
 * when the file is gone, empty or damaged.
 */
export function readLockOwner(path: string): LockOwner | null {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return null;
  }
  const legacy = /^(\d+) \S*\n?$/.exec(text);
  if (legacy) return { pid: Number(legacy[1]), host: hostname(), since: '' };
  try {
    const v = JSON.parse(text) as Partial<LockOwner> | null;
    return v && typeof v.pid === 'number' && typeof v.host === 'string' ? { pid: v.pid, host: v.host, since: String(v.since ?? '') } : null;
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
  return { owner, ageMs: Math.max(0, nowMs - mtime), heldBy: owner ? null : processHolding(path) };
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

/** Takes the lock at `path` for this process; takes over a stale one. */
export function tryLock(path: string): LockResult {
  mkdirSync(dirname(path), { recursive: true });
  const me: LockOwner = { pid: process.pid, host: hostname(), since: new Date().toISOString() };
  for (let i = 0; i < 2; i++) {
    if (linkNew(path, JSON.stringify(me))) return { acquired: true };
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

/** Releases the lock at `path` if this process holds it. */
export function unlock(path: string): void {
  const owner = readLockOwner(path);
  if (owner && owner.pid === process.pid && owner.host === hostname()) rmSync(path, { force: true });
}
