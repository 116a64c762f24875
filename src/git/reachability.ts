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

/** The upstream of `branch` from config (`origin/main`, or `main` for a local upstream), or null. */
export async function upstreamOf(repo: Repo, branch: string | null): Promise<string | null> {
  if (!branch) return null;
  const remote = await repo.configGet(`branch.${branch}.remote`);
  const merge = await repo.configGet(`branch.${branch}.merge`);
  if (!remote || !merge) return null;
  const short = merge.replace(/^refs\/heads\//, '');
  return remote === '.' ? short : `${remote}/${short}`;
}
