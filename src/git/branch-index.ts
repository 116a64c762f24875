/**
 * Which branches have a version, kept for the value of `refs/notes/handoff` it was computed
 * at. `show` on a branch with no version yet (every new agent session) otherwise
 * walks the whole notes history to learn that; with this cache it reads one small file and,
 * when the ref moved, only the commits since.
 *
 * A cache, not a source of truth: the notes history stays what native git sees. It is kept
 * under `.git/handoff/` keyed by the ref's value, so a native `git notes add`, a fetch or a
 * `purge` (which rewrites the history) simply makes it out of date: a tip that no longer
 * descends from the cached one never meets it in the walk, and the walk then covers the
 * whole history again.
 */
import { join } from 'node:path';
import type { Repo } from './repo.js';
import { readJsonFile, writeJsonFile } from '../state/json-file.js';

const FORMAT = 1;

export interface BranchIndex {
  tip: string;
  /** branches with at least one version (null: written on a detached HEAD) */
  branches: (string | null)[];
  /** invalid versions that name no branch (they belong to every branch's listing) */
  unplaced: number;
}

export function branchIndexPath(repo: Repo): string {
  return join(repo.paths.commonDir, 'handoff', 'branch-index.json');
}

export function readBranchIndex(repo: Repo): BranchIndex | null {
  let v: (Partial<BranchIndex> & { format?: unknown }) | null;
  try {
    v = readJsonFile(branchIndexPath(repo));
  } catch {
    return null; // a repository without paths (the in-memory store of the tests) has no index
  }
  if (v?.format !== FORMAT || typeof v.tip !== 'string' || !/^[0-9a-f]{40,64}$/.test(v.tip)) return null;
  if (!Array.isArray(v.branches) || !v.branches.every((b: unknown) => b === null || typeof b === 'string')) return null;
  if (typeof v.unplaced !== 'number' || !Number.isInteger(v.unplaced) || v.unplaced < 0) return null;
  return { tip: v.tip, branches: v.branches, unplaced: v.unplaced };
}

/** Saves the index; a repository we may not write to just goes without (read-only, full disk). */
export function writeBranchIndex(repo: Repo, index: BranchIndex): void {
  try {
    writeJsonFile(branchIndexPath(repo), { format: FORMAT, ...index }, { compact: true });
  } catch {
    /* not written: the next reader walks the history */
  }
}
