/**
 * The type of each of many objects, or null where this repository does not have one, from a
 * single `git cat-file --batch-check`. `doctor` asks it of every note's commit: reading
 * 50,000 commits one by one through the object store (an inflate each) took seconds of CPU
 * and ~280 MB; git answers from the pack indexes and object headers alone.
 */
import type { Repo } from './repo.js';
import type { ObjectType } from './objects.js';
import { GitFailed } from '../errors.js';

export async function objectTypes(repo: Repo, ids: string[]): Promise<Map<string, ObjectType | null>> {
  const out = new Map<string, ObjectType | null>();
  const asked = ids.filter((id) => /^[0-9a-f]{40,64}$/.test(id));
  if (!asked.length) return out;
  // Raw objects, as the object store reads them: a replacement (`git replace`) changes nothing here.
  const r = await repo.runGit(['--no-replace-objects', 'cat-file', '--batch-check'], { input: `${asked.join('\n')}\n`, readOnly: true });
  if (r.code !== 0) throw new GitFailed(`git cat-file --batch-check failed: ${r.stderr.trim() || `exit ${r.code}`}`);
  // One line per name asked, in order: "<oid> <type> <size>", or "<name> missing".
  const lines = r.stdout.toString('latin1').split('\n');
  asked.forEach((id, i) => {
    const [oid, type] = (lines[i] ?? '').split(' ');
    out.set(id, oid === id && (type === 'commit' || type === 'tree' || type === 'blob' || type === 'tag') ? type : null);
  });
  return out;
}
