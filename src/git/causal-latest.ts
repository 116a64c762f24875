/**
 * The causal check behind `HandoffStore.latest`. The walk finds the newest
 * version by date; when the notes history between the tip and it holds a merge (a sync
 * joined two clones' histories), versions on the other side are concurrent with it and may
 * continue its work although their clock says older. Those are gathered with one
 * `git rev-list` and compared by their heads with one `git merge-base --independent`. A
 * linear history (the common case) costs no git process at all.
 */
import type { Repo } from './repo.js';
import type { HandoffStore, ReadVersion } from './handoff-store.js';
import { chooseLatest, type ConcurrentVersion } from '../core/latest.js';
import { isObjectId } from '../core/object-id.js';

/** How many notes commits beside the first match are looked at, at most. */
const MAX_CONCURRENT = 500;

export interface CausalLatest {
  version: ReadVersion;
  /** concurrent versions of other sessions whose work neither continues the other */
  diverged: ReadVersion[];
}

const headOf = (v: ReadVersion) => (isObjectId(v.handoff.head) ? v.handoff.head : v.target);

/** Whether a merge commit lies between `tip` and `first` in the notes history (then concurrent versions may exist). */
async function mergeAbove(store: HandoffStore, tip: string, first: string): Promise<boolean> {
  for await (const { id, commit } of store.walk(tip)) {
    if (id === first) return false;
    if (commit.parents.length > 1) return true;
  }
  return false;
}

export async function causalLatest(repo: Repo, store: HandoffStore, first: ReadVersion, accept: (v: ReadVersion) => boolean): Promise<CausalLatest> {
  const tip = await store.tip();
  if (!tip || tip === first.id || !(await mergeAbove(store, tip, first.id))) return { version: first, diverged: [] };
  const r = await repo.runGit(['rev-list', '--parents', `--max-count=${MAX_CONCURRENT}`, tip, `^${first.id}`], { readOnly: true });
  if (r.code !== 0) return { version: first, diverged: [] };
  const parents = new Map<string, string[]>();
  for (const line of r.stdout.toString('utf8').split('\n')) {
    const [id, ...ps] = line.trim().split(' ');
    if (id) parents.set(id, ps);
  }
  // Versions of the selection among the commits `first` does not have.
  const found: ReadVersion[] = [];
  for (const id of parents.keys()) {
    const info = await store.versionOf(id, await store.readCommit(id));
    if (!info) continue;
    const v = await store.read(info);
    if (accept(v)) found.push(v);
  }
  if (!found.length) return { version: first, diverged: [] };
  // Within these commits, a version that another of them descends from was seen by its writer: not concurrent.
  const seen = new Set<string>();
  const below = (start: string) => {
    const stack = [...(parents.get(start) ?? [])];
    while (stack.length) {
      const id = stack.pop()!;
      if (seen.has(id) || !parents.has(id)) continue;
      seen.add(id);
      stack.push(...parents.get(id)!);
    }
  };
  for (const v of found) below(v.id);
  const concurrent = [first, ...found.filter((v) => !seen.has(v.id))];
  if (concurrent.length === 1) return { version: first, diverged: [] };

  const heads = [...new Set(concurrent.map(headOf))];
  let maximal: Set<string> | null = null;
  const present = await Promise.all(heads.map(async (h) => (await repo.objects.read(h))?.type === 'commit'));
  if (present.every(Boolean)) {
    const m =
      heads.length === 1 ? { code: 0, stdout: Buffer.from(heads[0]) } : await repo.runGit(['merge-base', '--independent', ...heads], { readOnly: true });
    if (m.code === 0) maximal = new Set(m.stdout.toString('utf8').split(/\s+/).filter(Boolean));
  }
  const byId = new Map(concurrent.map((v) => [v.id, v]));
  const pick = chooseLatest(
    concurrent.map((v): ConcurrentVersion => ({ id: v.id, timestamp: v.timestamp, head: headOf(v) })),
    maximal,
  );
  return { version: byId.get(pick.chosen)!, diverged: pick.diverged.map((id) => byId.get(id)!) };
}
