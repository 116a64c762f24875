/**
 * Who committed a line of a tracked file: `git blame --porcelain` of that one line. Null
 * for a line not committed yet (the user's own edit in the work tree), an untracked file,
 * or anything git cannot answer.
 */
import type { Repo } from './repo.js';
import { isObjectId, ZERO_OID } from '../core/object-id.js';

export async function lineAuthor(repo: Repo, path: string, line: number): Promise<{ name: string; email: string; commit: string } | null> {
  if (!Number.isInteger(line) || line < 1) return null;
  const r = await repo.runGit(['blame', '--porcelain', '-L', `${line},${line}`, '--', path], { readOnly: true });
  if (r.code !== 0) return null;
  const lines = r.stdout.toString('utf8').split('\n');
  const commit = lines[0]?.split(' ')[0];
  if (!isObjectId(commit) || commit === ZERO_OID) return null;
  const name = lines.find((l) => l.startsWith('author '))?.slice(7) ?? '';
  const email = (lines.find((l) => l.startsWith('author-mail '))?.slice(12) ?? '').replace(/^<|>$/g, '');
  return { name, email, commit };
}
