/**
 * Facts about commits and branches that work-item transitions rest on: does a commit exist,
 * which branch contains it, what is the current branch's upstream.
 */
import type { Repo } from './repo.js';
import { isObjectId } from '../core/object-id.js';

/** The full id of `rev` as a commit, or null when it names none. */
export async function resolveCommit(repo: Repo, rev: string): Promise<string | null> {
  if (rev.startsWith('-')) return null;
  const r = await repo.runGit(['rev-parse', '-q', '--verify', '--end-of-options', `${rev}^{commit}`], { readOnly: true });
  const out = r.stdout.toString().trim();
  return r.code === 0 && isObjectId(out) ? out : null;
}

/** A branch (local first, then remote-tracking) that contains `commit`, or null. */
export async function branchContaining(repo: Repo, commit: string): Promise<string | null> {
  for (const refs of ['refs/heads', 'refs/remotes']) {
    const r = await repo.runGit(['for-each-ref', '--count=1', '--format=%(refname:short)', `--contains=${commit}`, refs], { readOnly: true });
    const name = r.stdout.toString().trim();
    if (r.code === 0 && name) return name;
  }
  return null;
}

/**
 * The branch a handoff on `commit` belongs to: the current branch when it contains the
 * commit, else a local branch that does, else the name of a remote-tracking branch that does
 * (`origin/main` gives `main`), else null. Where a squash or rebase merge put work on a
 * branch, this names that branch, not the one the work was written on.
 */
export async function branchOf(repo: Repo, commit: string): Promise<string | null> {
  const head = repo.headBranch();
  if (head && (await repo.runGit(['merge-base', '--is-ancestor', commit, 'HEAD'], { readOnly: true })).code === 0) return head;
  for (const [refs, strip] of [
    ['refs/heads', 2],
    ['refs/remotes', 3],
  ] as const) {
    const r = await repo.runGit(['for-each-ref', '--format=%(refname:lstrip=' + strip + ')', `--contains=${commit}`, refs], { readOnly: true });
    const name =
      r.code === 0
        ? r.stdout
            .toString()
            .split('\n')
            .find((n) => n && n !== 'HEAD')
        : undefined;
    if (name) return name;
  }
  return null;
}

/** The upstream of `branch` from config (`origin/main`, or `main` for a local upstream), or null. */
export async function upstreamOf(repo: Repo, branch: string | null): Promise<string | null> {
  if (!branch) return null;
  const remote = await repo.configGet(`branch.${branch}.remote`);
  const merge = await repo.configGet(`branch.${branch}.merge`);
  // a name git would take for an option is no upstream (it reaches `git rev-parse` and `git log`)
  if (!remote || !merge || remote.startsWith('-') || merge.startsWith('-')) return null;
  const short = merge.replace(/^refs\/heads\//, '');
  return remote === '.' ? short : `${remote}/${short}`;
}
