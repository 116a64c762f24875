/**
 * Whether the last fetched remote history holds versions this clone lacks, for `show`'s
 * one-line notice (issue 6). Cheap on purpose: two ref reads, and git runs only when the
 * tips differ.
 */
import type { Repo } from '../git/repo.js';
import type { HandoffStore } from '../git/handoff-store.js';
import { defaultRemote, trackingRef } from '../git/remote.js';
import { countVersions, isAncestor, uniqueCommits } from '../git/notes-history.js';

export interface RemoteAhead {
  remote: string;
  versions: number;
}

export async function remoteAhead(repo: Repo, store: HandoffStore): Promise<RemoteAhead | null> {
  const remote = await defaultRemote(repo);
  if (!remote) return null;
  const [tracked, local] = await Promise.all([repo.resolveRef(trackingRef(remote)), store.tip()]);
  if (!tracked || tracked === local) return null;
  if (local && (await isAncestor(repo, tracked, local))) return null;
  const versions = await countVersions(store, await uniqueCommits(repo, tracked, [local]));
  return versions ? { remote, versions } : null;
}
