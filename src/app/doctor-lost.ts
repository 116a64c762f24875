/**
 * `doctor`'s check for versions lost to another writer: commits `refs/notes/handoff` once
 * held (its reflog names them) that its tip no longer reaches, because a writer updated the
 * ref without a compare-and-swap (native `git notes add` racing our writes, a forced fetch,
 * `git update-ref`). `--fix` joins them back with one `repair` commit whose parents are the
 * tip and the lost commits: every lost version keeps its id, nobody's commit is rewritten,
 * and the notes trees are merged as `sync` merges two histories. A commit that a purge
 * replaced (the purged version, or anything written on top of it) is never brought back.
 */
import type { Repo } from '../git/repo.js';
import { NOTES_REF } from '../git/repo.js';
import { HandoffStore } from '../git/handoff-store.js';
import { lostCommits } from '../git/lost-commits.js';
import { diffNotes } from '../git/notes-tree.js';
import { mergeNotesTrees } from '../git/notes-merge.js';
import { mergeBase, uniqueCommits, writtenIndex } from '../git/notes-history.js';
import { EMPTY_TREE_OID, type Commit } from '../git/objects.js';
import { purgeRecords } from './purge-history.js';
import type { Finding } from './doctor-finding.js';

export interface LostHistory {
  /** the lost versions, newest first */
  versions: string[];
  /** lost bookkeeping commits (receipts, item records, merges) that come back with them */
  others: number;
  /** the newest lost commits: the parents a repair joins back besides the tip */
  heads: string[];
}

/** What the tip no longer reaches, less anything a purge replaced. */
export async function findLostHistory(repo: Repo, store: HandoffStore, tip: string): Promise<LostHistory> {
  const lost = await lostCommits(repo, NOTES_REF, tip);
  const none = { versions: [], others: 0, heads: [] };
  if (!lost.size) return none;
  const records = await purgeRecords(repo.objects, (await store.readCommit(tip)).tree);
  const purgedIds = new Set(records.map((r) => r.version));
  const purgedBlobs = new Set(records.map((r) => r.blob));
  // Oldest first, so a commit's verdict is known before its children's.
  const order = [...lost.keys()].reverse();
  const tainted = new Set<string>();
  const versions: string[] = [];
  let others = 0;
  for (const id of order) {
    const commit = await store.readCommit(id);
    const v = await store.versionOf(id, commit);
    if (purgedIds.has(id) || lost.get(id)!.some((p) => tainted.has(p)) || (purgedBlobs.size && (await bringsBlob(store, commit, purgedBlobs)))) {
      tainted.add(id);
      continue;
    }
    if (v) versions.push(id);
    else others++;
  }
  const kept = order.filter((id) => !tainted.has(id));
  if (!kept.length) return none;
  const parentOfKept = new Set(kept.flatMap((id) => lost.get(id)!));
  return { versions: versions.reverse(), others, heads: kept.filter((id) => !parentOfKept.has(id)).reverse() };
}

/** Whether `commit` put one of `blobs` into the notes tree (a purged note, or a copy of one). */
async function bringsBlob(store: HandoffStore, commit: Commit, blobs: Set<string>): Promise<boolean> {
  const parents = commit.parents.length ? commit.parents : [null];
  for (const p of parents) {
    const before = p ? (await store.readCommit(p)).tree : EMPTY_TREE_OID;
    for (const d of await diffNotes(store.repo.objects, before, commit.tree)) if (d.newBlob && blobs.has(d.newBlob)) return true;
  }
  return false;
}

/** Joins `heads` back into the history: one `repair` commit on the tip, the notes trees merged three-way. Returns its id. */
export async function restoreLost(repo: Repo, store: HandoffStore, lost: LostHistory): Promise<string> {
  const treeOf = async (c: string | null) => (c ? (await store.readCommit(c)).tree : EMPTY_TREE_OID);
  const n = lost.versions.length;
  return store.commit(
    'repair',
    async (root, tip) => {
      let tree = root;
      for (const head of lost.heads) {
        const base = tip ? await mergeBase(repo, tip, head) : null;
        const written = {
          ours: writtenIndex(store, () => uniqueCommits(repo, tip, [head])),
          theirs: writtenIndex(store, () => uniqueCommits(repo, head, [tip])),
        };
        const merged = await mergeNotesTrees(repo.objects, base ? await treeOf(base) : null, tree, await treeOf(head), (side, key, blob) =>
          written[side](key, blob),
        );
        tree = merged.tree;
      }
      return tree;
    },
    {
      subject: `restore ${n} handoff version${n === 1 ? '' : 's'} lost to another writer`,
      trailers: { 'Handoff-Restored': String(n) },
    },
    { extraParents: lost.heads },
  );
}

/** The finding for `doctor`, restoring with `--fix`. */
export async function checkLostVersions(repo: Repo, fix: boolean): Promise<Finding[]> {
  const store = new HandoffStore(repo);
  const tip = await store.tip();
  if (!tip) return [];
  const lost = await findLostHistory(repo, store, tip);
  if (!lost.heads.length) return [];
  const n = lost.versions.length;
  const what = `${n} version${n === 1 ? '' : 's'}${lost.others ? ` and ${lost.others} bookkeeping commit${lost.others === 1 ? '' : 's'}` : ''}`;
  const ids = lost.versions.slice(0, 5).map((v) => v.slice(0, 12));
  const named = ids.length ? ` (${ids.join(', ')}${n > ids.length ? `, and ${n - ids.length} more` : ''})` : '';
  const repair = fix ? await restoreLost(repo, store, lost) : null;
  return [
    {
      kind: 'lost',
      subject: NOTES_REF,
      message: `${what}${named} ${repair ? 'were' : 'are'} no longer in the history of ${NOTES_REF}: another writer moved it without a compare-and-swap (a native 'git notes add', a forced fetch or update-ref); the reflog still names them${repair ? `; restored by ${repair.slice(0, 12)}` : ''}`,
      action: repair
        ? `joined them back with the repair commit ${repair.slice(0, 12)}; no commit was rewritten`
        : '--fix joins them back into the history with one repair commit, rewriting no commit',
      fixable: true,
      fixed: Boolean(repair),
      lost: lost.versions,
      ...(repair ? { version: repair } : {}),
    },
  ];
}
