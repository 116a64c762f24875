/**
 * What git says of the team's recipients list (docs/privacy.md "When the readers change"):
 * the list as committed at a commit, the commit that last changed it below HEAD, and
 * whether that commit was made in this clone (HEAD's reflog records it as a commit) or
 * arrived with a pull, a merge or a checkout.
 */
import type { Repo } from './repo.js';
import { RECIPIENTS_FILE } from './note-keys.js';

/** The recipients list as committed at `rev`, or null when that commit has none (or is not here). */
export async function readersTextAt(repo: Repo, rev: string): Promise<string | null> {
  const r = await repo.runGit(['cat-file', 'blob', `${rev}:${RECIPIENTS_FILE}`], { readOnly: true });
  return r.code === 0 ? r.stdout.toString('utf8') : null;
}

export interface ReadersCommit {
  commit: string;
  author: string;
  /** the commit is in HEAD's reflog as one this clone made (`commit`, `commit (initial)`, `commit (amend)`) */
  madeHere: boolean;
}

/** How many reflog entries are read, at most, looking for the commit. */
const MAX_REFLOG = 10_000;

/** The commit that last changed the list in HEAD's history (git log's own simplification), or null. */
export async function lastReadersCommit(repo: Repo): Promise<ReadersCommit | null> {
  const r = await repo.runGit(['log', '-1', '--format=%H%x00%an', 'HEAD', '--', RECIPIENTS_FILE], { readOnly: true });
  const [commit, author] = r.code === 0 ? r.stdout.toString('utf8').trim().split('\0') : [];
  if (!commit) return null;
  const log = await repo.runGit(['log', '-g', `-n${MAX_REFLOG}`, '--format=%H%x00%gs', 'HEAD', '--'], { readOnly: true });
  const madeHere =
    log.code === 0 &&
    log.stdout
      .toString('utf8')
      .split('\n')
      .some((line) => {
        const [id, subject = ''] = line.split('\0');
        return id === commit && /^commit( \((initial|amend)\))?:/.test(subject);
      });
  return { commit, author: author ?? '', madeHere };
}
