/**
 * One sync at a time in a clone (issue 14): the pre-push hook and a manual `sync` (or an
 * agent and a person) would otherwise race on `refs/notes/remotes/<remote>/handoff` and fail
 * each other with git's "cannot lock ref". A lock file under the git common dir holding the
 * holder's pid; a holder that died (killed, crashed) is recognised by its pid and replaced.
 */
import { mkdirSync, readFileSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Repo } from './repo.js';
import { LockHeld } from '../errors.js';

/** A lock older than this is taken over even when its pid is alive (pid reuse, another machine's mount). */
const MAX_HOLD_MS = 10 * 60_000;

export interface SyncLock {
  release(): void;
}

export function syncLockPath(repo: Repo): string {
  return join(repo.paths.commonDir, 'handoff', 'sync.lock');
}

function holderAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Takes the lock file if it is free or its holder is gone; false when a live sync holds it. */
function tryTake(path: string, token: string): boolean {
  try {
    writeFileSync(path, token, { flag: 'wx' });
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
  }
  let pid = NaN;
  let age = 0;
  try {
    pid = Number(readFileSync(path, 'utf8').split(' ')[0]);
    age = Date.now() - statSync(path).mtimeMs;
  } catch {
    return false; // released meanwhile: the next try takes it
  }
  if (holderAlive(pid) && age < MAX_HOLD_MS) return false;
  try {
    unlinkSync(path);
  } catch {}
  return false;
}

/**
 * Waits (jittered, until `deadline`, epoch ms) for the clone's sync lock. `onWait` is called
 * once if it has to wait.
 */
export async function acquireSyncLock(repo: Repo, deadline: number, onWait?: (pid: number | null) => void): Promise<SyncLock> {
  const path = syncLockPath(repo);
  mkdirSync(join(repo.paths.commonDir, 'handoff'), { recursive: true });
  const token = `${process.pid} ${Date.now()}-${Math.random().toString(36).slice(2)}\n`;
  let waited = false;
  for (;;) {
    if (tryTake(path, token)) break;
    if (!waited) {
      waited = true;
      let pid: number | null = null;
      try {
        pid = Number(readFileSync(path, 'utf8').split(' ')[0]) || null;
      } catch {}
      onWait?.(pid);
    }
    if (Date.now() >= deadline) {
      let holder = '';
      try {
        holder = ` (process ${readFileSync(path, 'utf8').split(' ')[0]})`;
      } catch {}
      throw new LockHeld(`another 'git handoff sync' of this clone${holder} is still running; run 'git handoff sync' again once it is done (its lock: ${path})`, { path });
    }
    await new Promise((res) => setTimeout(res, 20 + Math.random() * 60));
  }
  return {
    release() {
      try {
        if (readFileSync(path, 'utf8') === token) unlinkSync(path);
      } catch {}
    },
  };
}
