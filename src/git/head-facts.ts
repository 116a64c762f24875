/**
 * What the tool fills in from HEAD at write time (docs/format.md "The note"): the
 * commit, its tree, its `git patch-id --stable`, the recent commits and content hashes.
 */
import { existsSync, statSync } from 'node:fs';
import { insidePath, MAX_WORK_TREE_FILE_BYTES } from '../state/bounded-file.js';
import type { Repo } from './repo.js';
import type { Commit } from './objects.js';
import { readCommit } from './read-objects.js';
import { subjectLine } from '../core/commit-message.js';

export const RECENT_COMMITS = 5;
export const DEFAULT_HASH_PATHS = ['cadence/_INDEX.md', 'cadence/_ACTIVE.md'];

export interface HeadFacts {
  head: string;
  commit: Commit;
  headTree: string;
  branch: string | null;
  /** [short id, subject] of the last commits, newest first */
  recent: [string, string][];
}

/** HEAD's facts, or null on an unborn branch. */
export async function headFacts(repo: Repo, count = RECENT_COMMITS): Promise<HeadFacts | null> {
  const head = await repo.headCommit();
  if (!head) return null;
  const commit = await readCommit(repo.objects, head);
  if (!commit) return null;
  const abbrev = Number(await repo.configGet('core.abbrev')) || 7;
  const recent: [string, string][] = [[head.slice(0, abbrev), subjectLine(commit.message)]];
  let cur = commit;
  while (recent.length < count && cur.parents.length) {
    const id = cur.parents[0];
    const next = await readCommit(repo.objects, id);
    if (!next) break;
    recent.push([id.slice(0, abbrev), subjectLine(next.message)]);
    cur = next;
  }
  return { head, commit, headTree: commit.tree, branch: repo.headBranch(), recent };
}

/** `git diff-tree -p <commit> | git patch-id --stable`; null for a commit with no diff. */
export function patchIdDiffArgs(head: string, commit: Commit): string[] {
  return commit.parents.length ? ['diff-tree', '-p', '--no-color', commit.parents[0], head] : ['diff-tree', '-p', '--no-color', '--root', head];
}

/** `git hash-object` of the content-hash paths that exist (filters and line endings honoured). */
export async function contentHashes(repo: Repo): Promise<Record<string, string>> {
  const extra = (await repo.configAll('handoff.hashPaths')).flatMap((v) => v.split(/[\s,]+/)).filter(Boolean);
  // git reads each path whole, through a symlink: only regular files inside the work tree,
  // of a bounded size (a tracked cadence/_ACTIVE.md linked to /dev/zero would read forever).
  const paths = [...new Set([...DEFAULT_HASH_PATHS, ...extra])].filter((p) => {
    const abs = repo.workPath(p);
    return abs !== null && existsSync(abs) && boundedRegularInside(repo.workTree!, p);
  });
  if (!paths.length) return {};
  const out = await repo.git(['hash-object', '--', ...paths], { readOnly: true });
  const ids = out.trim().split('\n');
  const map: Record<string, string> = {};
  paths.forEach((p, i) => (map[p] = ids[i]));
  return map;
}

function boundedRegularInside(top: string, rel: string): boolean {
  try {
    const st = statSync(insidePath(top, rel));
    return st.isFile() && st.size <= MAX_WORK_TREE_FILE_BYTES;
  } catch {
    return false;
  }
}
