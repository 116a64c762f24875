/**
 * Whether the last fetched remote history holds versions this clone lacks, for `show`'s
 * one-line notice. Cheap on purpose: two ref reads; when the tips differ, a short
 * in-process walk; git runs only when the remote really has something new (or the walk is long).
 */
import type { Repo } from '../git/repo.js';
import type { HandoffStore } from '../git/handoff-store.js';
import { defaultRemote, trackingRef } from '../git/remote.js';
import { countVersions, isAncestor } from '../git/notes-history.js';

export interface RemoteAhead {
  remote: string;
  versions: number;
}

export async function remoteAhead(repo: Repo, store: HandoffStore): Promise<RemoteAhead | null> {
  const remote = await defaultRemote(repo);
  if (!remote) return null;
  const [tracked, local] = await Promise.all([repo.resolveRef(trackingRef(remote)), store.tip()]);
  if (!tracked || tracked === local) return null;
  if (local) {
    const found = await reaches(store, local, tracked);
    if (found === true || (found === null && (await isAncestor(repo, tracked, local)))) return null;
  }
  const versions = await countVersions(store, tracked, [local]);
  return versions ? { remote, versions } : null;
}

/** How many of our commits `show` reads looking for the tracking tip before asking git. */
const WALK_LIMIT = 64;

/**
 * Whether `from` reaches `target`, read in-process: the usual case, a few local writes since
 * the last sync, costs no git process. null when the walk stops undecided (long history).
 */
async function reaches(store: HandoffStore, from: string, target: string): Promise<boolean | null> {
  const seen = new Set<string>();
  const queue = [from];
  while (queue.length) {
    const id = queue.pop()!;
    if (id === target) return true;
    if (seen.has(id)) continue;
    seen.add(id);
    if (seen.size > WALK_LIMIT) return null;
    const c = await store.readCommit(id).catch(() => null);
    if (!c) return null;
    queue.push(...c.parents);
  }
  return false;
}
