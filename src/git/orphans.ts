/**
 * Notes whose commit is gone or reachable from no branch, tag or remote branch (after a
 * server-side squash or rebase merge, a force push, a deleted branch and `git gc`), and the
 * reachable commits they may belong to now.
 */
import type { Repo } from './repo.js';
import type { NoteRef } from './notes-tree.js';
import type { Candidate } from '../core/orphans.js';
import { objectTypes } from './object-types.js';

/** What counts as "still in use": every branch, tag, remote branch and HEAD. */
const LIVE_REFS = ['--branches', '--tags', '--remotes', 'HEAD'];

export interface OrphanNote extends NoteRef {
  why: 'missing' | 'unreachable';
}

/** The notes among `notes` (all of a notes tree) whose commit is missing or unreachable. */
export async function findOrphanNotes(repo: Repo, notes: NoteRef[]): Promise<OrphanNote[]> {
  const out: OrphanNote[] = [];
  const present: NoteRef[] = [];
  const head = await repo.headCommit();
  const unreachableFrom = (of: NoteRef[]) =>
    repo.runGit(['rev-list', '--stdin', '--not', ...(head ? LIVE_REFS : LIVE_REFS.slice(0, -1))], {
      input: of.map((n) => `${n.target}\n`).join(''),
      readOnly: true,
    });
  // Both git processes at once: rev-list is given every note's object (a blob or tree
  // among them changes nothing it prints about the commits). Only when one is missing it
  // fails, and is asked again with the commits alone, as it always was.
  const [types, optimistic] = await Promise.all([
    objectTypes(
      repo,
      notes.map((n) => n.target),
    ),
    notes.length ? unreachableFrom(notes) : null,
  ]);
  for (const n of notes) {
    const type = types.get(n.target) ?? null;
    if (!type) out.push({ ...n, why: 'missing' });
    else if (type === 'commit') present.push(n);
  }
  if (present.length) {
    const r = optimistic && optimistic.code === 0 && out.length === 0 ? optimistic : await unreachableFrom(present);
    const unreachable = new Set(r.code === 0 ? r.stdout.toString().split('\n') : []);
    for (const n of present) if (unreachable.has(n.target)) out.push({ ...n, why: 'unreachable' });
  }
  return out.sort((a, b) => (a.target < b.target ? -1 : 1));
}

/**
 * Where each of `branches` still lives here: the local branch or a remote-tracking branch
 * (`refs/remotes/<remote>/<name>`) of that name, else absent. A note's commit missing from
 * this clone while its branch is still known may only be waiting for a fetch.
 */
export async function branchHomes(repo: Repo, branches: string[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  if (!branches.length) return out;
  const r = await repo.runGit(['for-each-ref', '--format=%(refname)', 'refs/heads/', 'refs/remotes/'], { readOnly: true });
  const refs = r.code === 0 ? r.stdout.toString('utf8').split('\n').filter(Boolean) : [];
  // Any remote's `<remote>/<name>` counts (remote names may hold a slash); erring towards
  // "still known" only makes doctor more careful.
  for (const b of branches) {
    const home = refs.find((ref) => ref === `refs/heads/${b}`) ?? refs.find((ref) => ref.startsWith('refs/remotes/') && ref.endsWith(`/${b}`));
    if (home) out.set(b, home);
  }
  return out;
}

/**
 * Every commit some reflog of this clone remembers (HEAD, branches): the commits an amend,
 * rebase, squash or reset replaced here. Empty when reflogs are off or expired.
 */
export async function reflogCommits(repo: Repo): Promise<Set<string>> {
  const out = new Set<string>();
  for (const ref of ['HEAD', '--branches']) {
    const r = await repo.runGit(['log', '-g', '--format=%H', ref], { readOnly: true });
    if (r.code === 0) for (const id of r.stdout.toString().split('\n')) if (id) out.add(id);
  }
  return out;
}

/** How far back (seconds before the oldest orphan) a rewritten commit is looked for. */
const LOOKBACK_SECONDS = 30 * 86400;
const MAX_CANDIDATES = 20000;

/**
 * Non-merge commits reachable from live refs, no older than `since` less a margin, with
 * their trees and (when asked) `git patch-id --stable` computed from `git diff-tree -p`
 * exactly as `write` computed `head_patch_id`.
 */
export async function candidateCommits(repo: Repo, since: number, withPatchIds: boolean): Promise<Candidate[]> {
  const head = await repo.headCommit();
  const refs = head ? LIVE_REFS : LIVE_REFS.slice(0, -1);
  const log = await repo.runGit(
    ['log', '--no-merges', `--max-count=${MAX_CANDIDATES}`, `--since=${Math.max(0, since - LOOKBACK_SECONDS)}`, '--format=%H %T %ct', ...refs],
    { readOnly: true },
  );
  if (log.code !== 0) return [];
  const out = new Map<string, Candidate>();
  for (const line of log.stdout.toString().split('\n')) {
    const [id, tree, ct] = line.split(' ');
    if (id && tree) out.set(id, { id, tree, timestamp: Number(ct), patchId: null });
  }
  if (withPatchIds && out.size) await fillPatchIds(repo, out);
  return [...out.values()];
}

/** `git patch-id --stable` of each commit, computed as `write` computes `head_patch_id`. */
async function fillPatchIds(repo: Repo, commits: Map<string, Candidate>): Promise<void> {
  const diff = await repo.runGit(['diff-tree', '--stdin', '-p', '--root', '--no-color', '--no-ext-diff'], {
    input: [...commits.keys()].map((k) => `${k}\n`).join(''),
    readOnly: true,
  });
  const pid = await repo.runGit(['patch-id', '--stable'], { input: diff.stdout, readOnly: true });
  for (const line of pid.stdout.toString().split('\n')) {
    const [patch, commit] = line.split(' ');
    const c = commit ? commits.get(commit) : undefined;
    if (c) c.patchId = patch;
  }
}

/**
 * The non-merge commits `to` has and `from` has not (what a pull or checkout just brought),
 * at most `max`, with trees, and patch ids when asked (the heal hook).
 */
export async function commitsBetween(repo: Repo, from: string, to: string, max: number): Promise<{ commits: Candidate[]; patchIds: () => Promise<void> }> {
  const log = await repo.runGit(['log', '--no-merges', `--max-count=${max}`, '--format=%H %T %ct', to, `^${from}`, '--'], { readOnly: true });
  const out = new Map<string, Candidate>();
  if (log.code === 0) {
    for (const line of log.stdout.toString().split('\n')) {
      const [id, tree, ct] = line.split(' ');
      if (id && tree) out.set(id, { id, tree, timestamp: Number(ct), patchId: null });
    }
  }
  let filled: Promise<void> | null = null;
  return { commits: [...out.values()], patchIds: () => (filled ??= out.size ? fillPatchIds(repo, out) : Promise.resolve()) };
}

/** Which of `targets` are ancestors of (or equal to) `head`. */
export async function ancestorsOf(repo: Repo, targets: string[], head: string): Promise<Set<string>> {
  const out = new Set<string>();
  for (const t of targets) {
    if ((await repo.objects.read(t))?.type !== 'commit') continue;
    if ((await repo.runGit(['merge-base', '--is-ancestor', t, head], { readOnly: true })).code === 0) out.add(t);
  }
  return out;
}

/** Which of `targets` no branch, tag, remote branch or HEAD reaches (or are missing). */
export async function unreachableFromLiveRefs(repo: Repo, targets: string[]): Promise<Set<string>> {
  const notes = targets.map((target) => ({ target, blob: '', path: target }));
  return new Set((await findOrphanNotes(repo, notes as NoteRef[])).map((n) => n.target));
}
