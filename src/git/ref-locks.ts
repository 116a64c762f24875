/**
 * Lock files of the handoff refs (`refs/notes/handoff.lock`, the tracking refs' locks).
 * git holds a ref lock for the few milliseconds of one update; one that stays behind was
 * left by a killed writer and blocks every later write until it is removed.
 */
import { unlinkSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { Repo } from './repo.js';
import { isStaleLock, lockFacts, OWNERLESS_STALE_MS } from '../state/lock.js';
import { LockHeld } from '../errors.js';
import { entriesUnder } from '../state/file-walk.js';

/** git's ref locks name no owner: judged by the one lock rule's ownerless branch (../state/lock.ts). */
export const STALE_LOCK_MS = OWNERLESS_STALE_MS;

export interface RefLock {
  ref: string;
  path: string;
  ageMs: number;
  /** a process that has the lock file open (Linux only), or null */
  heldBy: number | null;
}

export function findRefLocks(repo: Repo, nowMs = Date.now()): RefLock[] {
  const root = join(repo.paths.commonDir, 'refs', 'notes');
  const out: RefLock[] = [];
  for (const { path, entry } of entriesUnder(root)) {
    if (entry.name !== 'handoff.lock') continue;
    const facts = lockFacts(path, nowMs);
    if (!facts) continue; // released meanwhile
    const ref = relative(repo.paths.commonDir, path)
      .replace(/\.lock$/, '')
      .split('\\')
      .join('/');
    out.push({ ref, path, ageMs: facts.ageMs, heldBy: facts.heldBy });
  }
  return out;
}

/** Whether no live writer can hold the lock: old enough, and no process has it open. */
export function isStale(lock: RefLock): boolean {
  return isStaleLock({ owner: null, ageMs: lock.ageMs, heldBy: lock.heldBy });
}

/** Removes a lock file; false when it was already gone. */
export function removeLock(lock: RefLock): boolean {
  try {
    unlinkSync(lock.path);
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw e;
  }
}

/** The one-line refusal for a lock on `ref` that outlived the wait: its path, its age, the way out. */
export function refLockHeld(repo: Repo, ref: string): LockHeld {
  const path = repo.refLockPath(ref);
  const facts = lockFacts(path, Date.now());
  const age = facts ? ` (${Math.round(facts.ageMs / 1000)}s old)` : '';
  return new LockHeld(`${ref} is locked by ${path}${age}; if no git-handoff or git process is running, run 'git handoff doctor --fix'`, { path });
}
