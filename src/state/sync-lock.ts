/**
 * One sync at a time in a clone: the pre-push hook and a manual `sync` (or an
 * agent and a person) would otherwise race on `refs/notes/remotes/<remote>/handoff` and fail
 * each other with git's "cannot lock ref". The one lock of ./lock.ts under the git common dir:
 * a holder that died (killed, crashed) is recognised by its pid and start time and replaced,
 * also when another process was given its pid meanwhile.
 */
import { join } from 'node:path';
import type { RepositoryPlaces } from './repository-places.js';
import { LockHeld } from '../errors.js';
import { readLockOwner, tryLock, unlock } from './lock.js';

export interface SyncLock {
  release(): void;
}

export function syncLockPath(repo: RepositoryPlaces): string {
  return join(repo.paths.commonDir, 'handoff', 'sync.lock');
}

/**
 * Waits (jittered, until `deadline`, epoch ms) for the clone's sync lock. `onWait` is called
 * once if it has to wait.
 */
export async function acquireSyncLock(repo: RepositoryPlaces, deadline: number, onWait?: (pid: number | null) => void): Promise<SyncLock> {
  const path = syncLockPath(repo);
  let waited = false;
  for (;;) {
    const r = tryLock(path);
    if (r.acquired) break;
    if (!waited) {
      waited = true;
      onWait?.(r.owner?.pid ?? null);
    }
    if (Date.now() >= deadline) {
      const pid = readLockOwner(path)?.pid;
      const holder = pid ? ` (process ${pid})` : '';
      throw new LockHeld(
        `another 'git handoff sync' of this clone${holder} is still running; run 'git handoff sync' again once it is done (its lock: ${path})`,
        { path },
      );
    }
    await new Promise((res) => setTimeout(res, 20 + Math.random() * 60));
  }
  return { release: () => unlock(path) };
}
