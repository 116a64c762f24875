/**
 * Whether the last fetched remote history holds versions this clone lacks, for `show`'s
 * one-line notice. Cheap on purpose: two ref reads; when the tips differ, a short
 * in-process walk; git runs only when the remote really has something new (or the walk is long),
 * over at most MAX_COUNTED commits, once for each pair of tips (`.git/handoff/remote-ahead.json`).
 */
import type { Repo } from '../git/repo.js';
import type { HandoffStore } from '../git/handoff-store.js';
import { defaultRemote, trackingRef } from '../git/remote.js';
import { countVersions, isAncestor } from '../git/notes-history.js';
import { readJsonFile, writeJsonFile } from '../state/json-file.js';
import { join } from 'node:path';

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
  // The answer for two commits never changes: kept for the next show and hook, and counted
  // among at most MAX_COUNTED commits (a remote's 100,000 bookkeeping commits cost git 5 s).
  const path = join(repo.paths.commonDir, 'handoff', 'remote-ahead.json');
  let known: { tracked?: unknown; local?: unknown; versions?: unknown } | null = null;
  try {
    known = readJsonFile(path);
  } catch {
    /* no state folder: counted each time */
  }
  if (known?.tracked === tracked && known.local === local && Number.isInteger(known.versions)) {
    const n = known.versions as number;
    return n > 0 ? { remote, versions: n } : null;
  }
  const versions = await countVersions(store, tracked, [local], { maxCommits: MAX_COUNTED });
  try {
    writeJsonFile(path, { tracked, local, versions }, { compact: true });
  } catch {
    /* not kept: counted again next time */
  }
  return versions ? { remote, versions } : null;
}

/** How many of the remote's newest commits the notice counts versions among, at most. */
const MAX_COUNTED = 10_000;

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
