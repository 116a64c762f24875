/**
 * `doctor`: notes stored more than once (at the root and under their fan-out folder, as an
 * older writer or a merge can leave them). git reads every copy and `git notes show`
 * prints each; git-handoff reads the shallowest. `--fix` keeps that one and removes the
 * others in one repair commit (the removed blobs stay in the history before it).
 */
import type { Repo } from '../git/repo.js';
import { HandoffStore } from '../git/handoff-store.js';
import { listNotes, noteCopies, writePath } from '../git/notes-tree.js';
import type { Finding } from './doctor-finding.js';

export async function checkNoteCopies(repo: Repo, fix: boolean): Promise<Finding[]> {
  const store = new HandoffStore(repo);
  const tip = await store.tip();
  if (!tip) return [];
  const root = (await store.readCommit(tip)).tree;
  const seen = new Map<string, number>();
  for (const n of await listNotes(repo.objects, root)) seen.set(n.target, (seen.get(n.target) ?? 0) + 1);
  const twice = [...seen].filter(([, n]) => n > 1).map(([t]) => t);
  if (!twice.length) return [];
  const copies = new Map<string, string[]>();
  for (const t of twice)
    copies.set(
      t,
      (await noteCopies(repo.objects, root, t)).map((c) => c.path),
    );
  let version: string | undefined;
  if (fix) {
    version = await store.commit(
      'repair',
      async (tree) => {
        let out = tree;
        for (const t of twice) for (const c of (await noteCopies(repo.objects, out, t)).slice(1)) out = await writePath(repo.objects, out, c.path, null);
        return out;
      },
      { subject: `handoff: keep one copy of each note stored twice (${twice.map((t) => t.slice(0, 7)).join(', ')})` },
    );
  }
  return twice.map((t) => {
    const paths = copies.get(t)!;
    const where = (p: string) => (p.includes('/') ? `under ${p.slice(0, p.lastIndexOf('/') + 1)}` : 'at the root');
    const others = paths.slice(1).map(where).join(' and ');
    return {
      kind: 'copies' as const,
      subject: t,
      message: `the note of ${t.slice(0, 7)} ${fix ? 'was' : 'is'} stored ${paths.length === 2 ? 'twice' : `${paths.length} times`} in refs/notes/handoff (${paths.map(where).join(' and ')}); git-handoff reads the one ${where(paths[0])}, 'git notes show' prints each`,
      action: fix ? `kept the one ${where(paths[0])}, removed the copy ${others}` : `--fix keeps the one ${where(paths[0])} and removes the copy ${others}`,
      fixable: true,
      fixed: fix,
      ...(version ? { version } : {}),
    };
  });
}
