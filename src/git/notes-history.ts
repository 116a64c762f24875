/**
 * Questions about two handoff histories that a sync asks: their merge base, the commits
 * one has and the other lacks, and which version wrote a given content of an entry.
 */
import type { Repo } from './repo.js';
import type { HandoffStore } from './handoff-store.js';
import { EMPTY_TREE_OID } from './objects.js';
import { diffEntries } from './notes-merge.js';
import type { EntryKey, Written } from '../core/notes-merge.js';
import { GitFailed } from '../errors.js';

/** The best common ancestor of two commits, or null for unrelated histories. */
export async function mergeBase(repo: Repo, a: string, b: string): Promise<string | null> {
  const r = await repo.runGit(['merge-base', a, b], { readOnly: true });
  if (r.code === 0) return r.stdout.toString().trim() || null;
  if (r.code === 1) return null;
  throw new GitFailed(`git merge-base failed: ${r.stderr.trim()}`);
}

/** Whether `ancestor` is reachable from `tip` (false when either object is missing). */
export async function isAncestor(repo: Repo, ancestor: string, tip: string): Promise<boolean> {
  const r = await repo.runGit(['merge-base', '--is-ancestor', ancestor, tip], { readOnly: true });
  return r.code === 0;
}

/** Commits reachable from `tip` and from none of `not`, newest first. */
export async function uniqueCommits(repo: Repo, tip: string | null, not: (string | null)[]): Promise<string[]> {
  if (!tip) return [];
  const excl = not.filter((n): n is string => Boolean(n)).map((n) => `^${n}`);
  const out = await repo.git(['rev-list', tip, ...excl], { readOnly: true });
  return out.split('\n').filter(Boolean);
}

/**
 * How many versions `tip` has that none of `not` has (bookkeeping and merge commits are
 * not versions). One git process reads every commit's `Handoff-Kind` trailer; only a
 * commit without one (native `git notes`) is read here, to see whether it changed a note.
 * `maxCommits` reads only that many of the newest commits (a count of the versions among them).
 */
export async function countVersions(store: HandoffStore, tip: string | null, not: (string | null)[], opts: { maxCommits?: number } = {}): Promise<number> {
  if (!tip) return 0;
  const excl = not.filter((n): n is string => Boolean(n)).map((n) => `^${n}`);
  const max = opts.maxCommits ? [`--max-count=${opts.maxCommits}`] : [];
  const out = await store.repo.git(
    ['rev-list', ...max, '--no-commit-header', '--format=%H %P%x09%(trailers:key=Handoff-Kind,valueonly,separator=%x2C)', tip, ...excl],
    { readOnly: true },
  );
  let n = 0;
  for (const line of out.split('\n')) {
    if (!line) continue;
    const [ids, kinds = ''] = line.split('\t');
    const [id, ...parents] = ids.trim().split(' ');
    if (kinds) n += kinds.split(',')[0] === 'version' ? 1 : 0;
    else if (parents.length <= 1 && (await store.versionOf(id, await store.readCommit(id)))) n++;
  }
  return n;
}

/**
 * An index of which commit wrote each content of each entry among `commits`, built on
 * first use: merge commits are skipped, since they only pass on what a parent wrote.
 */
export function writtenIndex(store: HandoffStore, commits: () => Promise<string[]>): (key: EntryKey, blob: string) => Promise<Written | null> {
  let index: Promise<Map<string, Written>> | null = null;
  const build = async () => {
    const map = new Map<string, Written>();
    for (const id of await commits()) {
      const c = await store.readCommit(id);
      if (c.parents.length > 1) continue;
      const parentTree = c.parents.length ? (await store.readCommit(c.parents[0])).tree : EMPTY_TREE_OID;
      for (const [key, change] of await diffEntries(store.repo.objects, parentTree, c.tree)) {
        if (!change.blob) continue;
        const k = `${key}\0${change.blob}`;
        const prev = map.get(k);
        if (!prev || prev.timestamp < c.committer.timestamp) map.set(k, { version: id, timestamp: c.committer.timestamp });
      }
    }
    return map;
  };
  return async (key, blob) => {
    index ??= build();
    return (await index).get(`${key}\0${blob}`) ?? null;
  };
}

/**
 * How many versions reachable from `tip` were written before lineage (docs/format.md
 * "Lineage"): ours (`Handoff-Kind: version`) without a `Handoff-Continues` trailer, other
 * than a note moved after a rewrite (`Handoff-Reattached-From`: it carries a note, it
 * writes none). One git process reads the trailers of every commit, as `countVersions` reads the kind.
 */
export async function versionsWithoutLineage(repo: Repo, tip: string): Promise<number> {
  const out = await repo.git(
    [
      'rev-list',
      '--no-commit-header',
      '--format=%(trailers:key=Handoff-Kind,valueonly,separator=%x2C)%x09%(trailers:key=Handoff-Continues,valueonly,separator=%x2C)%(trailers:key=Handoff-Reattached-From,valueonly,separator=%x2C)',
      tip,
    ],
    { readOnly: true },
  );
  let n = 0;
  for (const line of out.split('\n')) {
    const tab = line.indexOf('\t');
    if (tab > 0 && line.slice(0, tab).split(',')[0] === 'version' && tab === line.length - 1) n++;
  }
  return n;
}
