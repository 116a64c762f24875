/**
 * Commits the notes ref once held and no longer reaches. Our own writers only ever move
 * `refs/notes/handoff` by a compare-and-swap that appends (docs/format.md "Refs"), but a
 * writer that updates it without checking the old value (native `git notes add`, a forced
 * fetch, `git update-ref`, a force push fetched into the ref) can drop what was written in
 * between. The ref's reflog still names those commits: this reads it and asks git which of
 * them the tip no longer reaches.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Repo } from './repo.js';
import { readCommit } from './read-objects.js';
import { isObjectId, ZERO_OID } from '../core/object-id.js';
import { GitFailed } from '../errors.js';

export interface ReflogEntry {
  old: string;
  new: string;
  message: string;
}

/** Reflog messages of our own compare-and-swap appends (`HandoffStore.commit`): they never drop a commit. */
const APPENDS = /^handoff: (version|receipt|item|policy|merge|repair)$/;

/**
 * The reflog of `ref`, oldest first; empty when it has none. Read in-process from
 * `<common dir>/logs/<ref>`; where that file is absent (refs not stored as files) git
 * answers, and each entry's old value is the entry before it.
 */
export async function readReflog(repo: Repo, ref: string): Promise<ReflogEntry[]> {
  let text: string | null = null;
  try {
    text = readFileSync(join(repo.paths.commonDir, 'logs', ref), 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  }
  if (text !== null) {
    const out: ReflogEntry[] = [];
    for (const line of text.split('\n')) {
      const m = /^([0-9a-f]{40}) ([0-9a-f]{40}) [^\t]*(?:\t(.*))?$/.exec(line);
      if (m) out.push({ old: m[1], new: m[2], message: m[3] ?? '' });
    }
    return out;
  }
  const r = await repo.runGit(['log', '-g', '--format=%H%x09%gs', ref, '--'], { readOnly: true });
  if (r.code !== 0) return [];
  const newest = r.stdout
    .toString('utf8')
    .split('\n')
    .map((l) => l.split('\t'))
    .filter(([id]) => isObjectId(id));
  const out: ReflogEntry[] = [];
  for (let i = newest.length - 1; i >= 0; i--) out.push({ old: newest[i + 1]?.[0] ?? ZERO_OID, new: newest[i][0], message: newest[i][1] ?? '' });
  return out;
}

/**
 * The commits `ref`'s reflog names that `tip` no longer reaches, with their parents, newest
 * first (as `git rev-list --parents` gives them). Only an update that did not append
 * (its new commit does not have the old value as a parent) can have dropped anything; the
 * old values of those are asked of git in one `rev-list`. A commit gc already removed is
 * left out.
 */
export async function lostCommits(repo: Repo, ref: string, tip: string): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  const candidates = new Set<string>();
  for (const e of await readReflog(repo, ref)) {
    if (e.old === ZERO_OID || e.old === e.new || candidates.has(e.old) || APPENDS.test(e.message)) continue;
    const made = await readCommit(repo.objects, e.new);
    if (made?.parents.includes(e.old)) continue;
    if ((await repo.objects.read(e.old))?.type === 'commit') candidates.add(e.old);
  }
  candidates.delete(tip);
  if (!candidates.size) return out;
  const r = await repo.runGit(['rev-list', '--parents', '--stdin', '--not', tip], {
    input: [...candidates].map((c) => `${c}\n`).join(''),
    readOnly: true,
  });
  if (r.code !== 0) throw new GitFailed(`git rev-list of the commits ${ref}'s reflog names failed: ${r.stderr.toString().trim() || `exit ${r.code}`}`);
  for (const line of r.stdout.toString('utf8').split('\n')) {
    const [id, ...parents] = line.trim().split(' ');
    if (isObjectId(id)) out.set(id, parents);
  }
  return out;
}
