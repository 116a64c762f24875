/**
 * Opening the repository a use case runs in: every command and hook opens it the same way
 * (discovery with git's own trust checks, see git/repo.ts) and closes it whatever happens,
 * so the cat-file processes it started never outlive the command.
 */
import { Repo } from '../git/repo.js';
import { BareRepository, isHandoffError } from '../errors.js';

/** What runs inside an open repository: a use case given the repository it works on. */
export type InRepo<T> = (repo: Repo) => Promise<T> | T;

/** Opens the repository containing `cwd`, runs `use` on it, and closes it however `use` ends. */
export async function withRepo<T>(cwd: string, use: InRepo<T>): Promise<T> {
  const repo = await Repo.discover(cwd);
  try {
    return await use(repo);
  } finally {
    repo.close();
  }
}

/** Like `withRepo`, for a use case that also works outside any repository: `use` gets null there. */
export async function withRepoIfAny<T>(cwd: string, use: (repo: Repo | null) => Promise<T> | T): Promise<T> {
  let repo: Repo | null = null;
  try {
    repo = await Repo.discover(cwd);
  } catch (e) {
    // Only "no repository here"; a repository git refuses, or a broken one, is still refused.
    if (!isHandoffError(e, 'NotARepository')) throw e;
  }
  try {
    return await use(repo);
  } finally {
    repo?.close();
  }
}

/**
 * The work tree, or the one refusal a bare repository gets: "<what> needs a work tree"
 * (`plural` for a subject such as "work items"), exit 1.
 */
export function requireWorkTree(repo: Repo, what: string, opts: { plural?: boolean } = {}): string {
  if (repo.workTree === null) throw new BareRepository(`${what} need${opts.plural ? '' : 's'} a work tree; this is a bare repository`);
  return repo.workTree;
}
