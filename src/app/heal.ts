/**
 * Squash and rebase merges done on a forge heal themselves. After `git pull`
 * (or a checkout) brings commits that carry the tree (a squash merge) or the patch (a
 * rebase merge) of commits whose handoffs are not on this branch, each such handoff
 * follows onto its new commit as a new version of the current branch, so `show` there
 * finds the handoff written on the feature branch. Run by the post-merge and
 * post-checkout hooks that `init` installs; the placement rules are doctor's
 * (`placeOrphans`). A note whose old commit is still on a branch here is copied, one on no
 * branch any more is moved, exactly as `doctor --fix` would.
 *
 * Cheap when there is nothing to do: one `git log` of the new commits, an in-process scan
 * of the most recent notes, and only then patch ids and ancestry.
 */
import type { Repo } from '../git/repo.js';
import { HandoffStore } from '../git/handoff-store.js';
import { findNote, setNote } from '../git/notes-tree.js';
import { ancestorsOf, commitsBetween, unreachableFromLiveRefs } from '../git/orphans.js';
import { operationInProgress } from '../git/in-progress.js';
import { placeOrphans, type Orphan } from '../core/orphans.js';
import { isObjectId } from '../core/object-id.js';

/** New commits looked at per pull, and recent versions whose notes may have moved. */
const MAX_NEW_COMMITS = 200;
const MAX_RECENT_VERSIONS = 300;

export interface Healed {
  from: string;
  to: string;
  by: 'patch-id' | 'tree';
  /** the old commit is on no branch any more: the note left it */
  moved: boolean;
  version: string;
}

const field = (text: string, key: string) => new RegExp(`^${key}:[ \\t]*"?([^"\\n]*?)"?[ \\t]*$`, 'm').exec(text)?.[1] ?? null;
const oid = (v: string | null) => (isObjectId(v) ? v : null);

/**
 * `duringRebase`: called by post-rewrite at the end of `git pull --rebase` (the rebase is
 * still recorded as in progress then); otherwise a rebase, merge or cherry-pick under way
 * is left to finish first.
 */
export async function healMergedNotes(repo: Repo, from: string | null, to: string | null, opts: { duringRebase?: boolean } = {}): Promise<Healed[]> {
  if (!from || !to || from === to || /^0+$/.test(from)) return [];
  if (!opts.duringRebase && operationInProgress(repo.gitDir)) return [];
  const store = new HandoffStore(repo);
  const tip = await store.tip();
  if (!tip) return [];
  const { commits, patchIds } = await commitsBetween(repo, from, to, MAX_NEW_COMMITS);
  if (!commits.length) return [];
  const fresh = new Set(commits.map((c) => c.id));
  const trees = new Set(commits.map((c) => c.tree));
  const root = (await store.readCommit(tip)).tree;

  // The notes of recent versions, as they stand at the tip, with the facts that place them.
  const notes: Orphan[] = [];
  const looked = new Set<string>();
  let n = 0;
  for await (const v of store.versions(tip)) {
    if (++n > MAX_RECENT_VERSIONS) break;
    if (looked.has(v.target) || fresh.has(v.target)) continue;
    looked.add(v.target);
    const note = await findNote(repo.objects, root, v.target);
    const blob = note && (await repo.objects.read(note.blob));
    if (!note || !blob) continue;
    const text = blob.data.subarray(0, 64 * 1024).toString('utf8');
    const date = Date.parse(field(text, 'date') ?? '');
    notes.push({
      target: v.target,
      blob: note.blob,
      timestamp: Number.isFinite(date) ? date / 1000 : v.timestamp,
      patchId: oid(field(text, 'head_patch_id')),
      tree: oid(field(text, 'head_tree')),
    });
  }
  let wanted = notes.filter((o) => o.tree && trees.has(o.tree));
  if (notes.some((o) => o.patchId)) {
    await patchIds();
    const patches = new Set(commits.map((c) => c.patchId).filter(Boolean));
    wanted = notes.filter((o) => (o.tree && trees.has(o.tree)) || (o.patchId && patches.has(o.patchId)));
  }
  if (!wanted.length) return [];
  // A handoff whose commit is already on this branch (an ordinary merge) stays where it is.
  const onBranch = await ancestorsOf(
    repo,
    wanted.map((o) => o.target),
    to,
  );
  const orphans = wanted.filter((o) => !onBranch.has(o.target));
  if (!orphans.length) return [];

  const noted = new Set<string>();
  for (const c of commits) if (await findNote(repo.objects, root, c.id)) noted.add(c.id);
  const placements = placeOrphans(orphans, commits, noted);
  const gone = await unreachableFromLiveRefs(
    repo,
    orphans.map((o) => o.target),
  );
  const branch = repo.headBranch();
  const out: Healed[] = [];
  // Oldest first, so the newest handoff ends up the newest version, as in doctor --fix.
  for (const p of [...placements].sort((x, y) => x.orphan.timestamp - y.orphan.timestamp)) {
    if (p.to === null) continue;
    const to = p.to;
    const old = p.orphan.target;
    const moved = gone.has(old);
    const version = await store.commit(
      'version',
      async (tree) => {
        const placed = await setNote(repo.objects, tree, to, p.orphan.blob);
        return moved ? setNote(repo.objects, placed, old, null) : placed;
      },
      {
        subject: `handoff ${to.slice(0, 7)}${branch ? ` on ${branch}` : ''}: carried over from ${old.slice(0, 7)} (same ${p.by}: merged on the forge)`,
        trailers: { 'Handoff-Target': to, ...(branch ? { 'Handoff-Branch': branch } : {}), 'Handoff-Reattached-From': old },
      },
    );
    out.push({ from: old, to, by: p.by, moved, version });
  }
  return out;
}
