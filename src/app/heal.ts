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
import { VersionReader } from '../history/reader.js';
import { findNote, setNote } from '../git/notes-tree.js';
import { ancestorsOf, commitFacts, commitsBetween, unreachableFromLiveRefs } from '../git/orphans.js';
import { isArmoredAge } from '../core/age.js';
import { carriedNote } from './carried-note.js';
import { operationInProgress } from '../git/in-progress.js';
import { placeOrphans, type Orphan } from '../core/orphans.js';
import { isObjectId } from '../core/object-id.js';
import { reattachLineage } from '../core/lineage.js';
import { readCommit } from '../git/read-objects.js';
import { headReflogSince, headReflogSize, squashedCommits } from '../git/in-progress.js';
import { readLocalState, removeLocalState, writeLocalState } from '../state/local-state.js';

/** New commits looked at per pull, and recent versions whose notes may have moved. */
const MAX_NEW_COMMITS = 200;
const MAX_RECENT_VERSIONS = 300;

export interface Healed {
  from: string;
  to: string;
  /** how the new commit was matched: the same patch, the same tree, or a local squash merge that listed it */
  by: 'patch-id' | 'tree' | 'squash';
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
  const sealed: Orphan[] = [];
  const looked = new Set<string>();
  let n = 0;
  for await (const v of store.versions(tip)) {
    if (++n > MAX_RECENT_VERSIONS) break;
    if (looked.has(v.target) || fresh.has(v.target)) continue;
    looked.add(v.target);
    const note = await findNote(repo.objects, root, v.target);
    const blob = note && (await repo.objects.read(note.blob));
    if (!note || !blob) continue;
    // An encrypted note's fields are not read (no key may read them here): its commit's tree
    // and patch id, in the clear, stand for them (src/app/carried-note.ts).
    if (isArmoredAge(blob.data)) {
      sealed.push({ target: v.target, blob: note.blob, timestamp: v.timestamp, patchId: null, tree: null });
      continue;
    }
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
  if (sealed.length) {
    const facts = await commitFacts(
      repo,
      sealed.map((o) => o.target),
      true,
    );
    for (const o of sealed) {
      const f = facts.get(o.target);
      if (f) notes.push({ ...o, tree: f.tree, patchId: f.patchId });
    }
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
  const reader = new VersionReader(repo);
  const out: Healed[] = [];
  // Oldest first (by lineage), so the newest handoff ends up the newest version, as in
  // doctor --fix: each continues the version it carries and the one written before it.
  const ordered = await reader.reattachOrder(
    placements.filter((p) => p.to !== null).map((p) => ({ ...p, blob: p.orphan.blob, timestamp: p.orphan.timestamp })),
  );
  let previous: string | null = null;
  for (const { item: p, carried } of ordered) {
    if (p.to === null) continue;
    const to = p.to;
    const old = p.orphan.target;
    const moved = gone.has(old);
    const { trailers } = await carriedNote(reader, p.orphan.blob, (await repo.objects.read(p.orphan.blob))!.data);
    const version = await store.commit(
      'version',
      async (tree) => {
        const placed = await setNote(repo.objects, tree, to, p.orphan.blob);
        return moved ? setNote(repo.objects, placed, old, null) : placed;
      },
      {
        subject: `handoff ${to.slice(0, 7)}${branch ? ` on ${branch}` : ''}: carried over from ${old.slice(0, 7)} (same ${p.by}: merged on the forge)`,
        trailers: {
          'Handoff-Target': to,
          ...(branch ? { 'Handoff-Branch': branch } : {}),
          'Handoff-Reattached-From': old,
          ...trailers,
          ...reattachLineage(carried, previous, await reader.headIds(branch)),
        },
      },
    );
    previous = version;
    out.push({ from: old, to, by: p.by, moved, version });
  }
  return out;
}

/** The local record of a pending `git merge --squash` (post-merge writes it, post-commit reads it). */
const SQUASH_STATE = 'squash-merge';

interface SquashRecord {
  /** HEAD when the squash merge was made: the squash commit's parent */
  onto: string;
  /** the commits it squashes, as SQUASH_MSG lists them */
  commits: string[];
  /** the size of HEAD's reflog then: the squash commit must be the one entry after it */
  reflog: number;
}

/**
 * post-merge after `git merge --squash`: remembers which commits the next commit squashes,
 * so post-commit can carry their handoff onto it (git makes no commit yet, and by the time
 * post-commit runs SQUASH_MSG is gone).
 */
export function recordSquash(repo: Repo, head: string | null): void {
  const commits = squashedCommits(repo.gitDir);
  if (!head || !commits.length) return;
  writeLocalState(repo.gitDir, SQUASH_STATE, { onto: head, commits, reflog: headReflogSize(repo.gitDir) } satisfies SquashRecord);
}

/**
 * post-commit: the commit that concludes a local `git merge --squash` takes the newest
 * handoff among the squashed commits' notes, as a new version of the current branch (the
 * note blob unchanged, `Handoff-Reattached-From` the squashed commit), so `show` on the
 * branch merged into gives it with no "due" notice. The squashed commits keep their notes.
 * One file test when no squash merge is pending; a record left by an abandoned squash (HEAD
 * moved otherwise since) is dropped unused.
 */
export async function landSquash(repo: Repo): Promise<Healed | null> {
  const rec = readLocalState<SquashRecord>(repo.gitDir, SQUASH_STATE);
  if (!rec) return null;
  // Dropped once used or found stale, not before: a landing that failed partway is tried again
  // by the next commit's hook (which finds it stale if HEAD moved otherwise since).
  const landed = await landSquashOf(repo, rec);
  removeLocalState(repo.gitDir, SQUASH_STATE);
  return landed;
}

async function landSquashOf(repo: Repo, rec: SquashRecord): Promise<Healed | null> {
  const head = await repo.headCommit();
  const since = headReflogSince(repo.gitDir, rec.reflog);
  if (!head || !Array.isArray(rec.commits) || since.length !== 1 || since[0].old !== rec.onto || since[0].new !== head) return null;
  const commit = await readCommit(repo.objects, head);
  if (!commit || commit.parents.length !== 1 || commit.parents[0] !== rec.onto) return null;
  const store = new HandoffStore(repo);
  const tip = await store.tip();
  if (!tip) return null;
  const root = (await store.readCommit(tip)).tree;
  if (await findNote(repo.objects, root, head)) return null;
  let best: { target: string; blob: string; date: number } | null = null;
  const found: { target: string; blob: string }[] = [];
  for (const c of rec.commits.filter(isObjectId)) {
    const note = await findNote(repo.objects, root, c);
    const blob = note && (await repo.objects.read(note.blob));
    if (!note || !blob) continue;
    found.push({ target: c, blob: note.blob });
    const date = Date.parse(field(blob.data.subarray(0, 64 * 1024).toString('utf8'), 'date') ?? '') || 0;
    if (!best || date > best.date) best = { target: c, blob: note.blob, date };
  }
  // The newest by lineage; by date only among notes no version of ours wrote.
  const newest = found.length > 1 ? await new VersionReader(repo).newestOf(found.map((f) => f.blob)) : null;
  const chosen = found.find((f) => f.blob === newest) ?? best;
  if (!chosen) return null;
  const { target: old, blob } = chosen;
  const branch = repo.headBranch();
  const reader = new VersionReader(repo);
  const { trailers } = await carriedNote(reader, blob, (await repo.objects.read(blob))!.data);
  const [{ carried }] = await reader.reattachOrder([{ blob, timestamp: 0 }]);
  const version = await store.commit('version', (tree) => setNote(repo.objects, tree, head, blob), {
    subject: `handoff ${head.slice(0, 7)}${branch ? ` on ${branch}` : ''}: carried over from ${old.slice(0, 7)} (squash merge)`,
    trailers: {
      'Handoff-Target': head,
      ...(branch ? { 'Handoff-Branch': branch } : {}),
      'Handoff-Reattached-From': old,
      ...trailers,
      ...reattachLineage(carried, null, await reader.headIds(branch)),
    },
  });
  return { from: old, to: head, by: 'squash', moved: false, version };
}
