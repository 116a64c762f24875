/**
 * The merge of two handoff histories, decided on plain values (docs/format.md, "Merging two histories"): every
 * entry of the notes tree (a note, or a bookkeeping path such as `receipts/<id>.json`) is
 * merged three-way against the merge base. Where both sides changed the same entry, the
 * newer version wins whole: never concatenated, never a conflict marker. The loser stays
 * in history, so no version is lost.
 */
import { newerFirst } from './lineage.js';

/** One side's change to one entry, relative to the merge base (`blob` null: removed). */
export interface EntryChange {
  base: string | null;
  blob: string | null;
}

/** An entry key: `note:<target>` or `path:<path>`. */
export type EntryKey = string;

export interface Conflict {
  key: EntryKey;
  base: string | null;
  ours: string;
  theirs: string;
}

export interface MergePlan {
  /** entries to set (or with null remove) on top of our tree */
  apply: { key: EntryKey; blob: string | null }[];
  /** both sides changed the entry to different contents: to be settled by `resolveConflict` */
  conflicts: Conflict[];
}

/**
 * Plans a three-way merge from each side's changes. Our tree is the starting point, so only
 * their changes are applied. A removal against a change keeps the change: a removal is
 * bookkeeping (a note moved by `doctor --fix`), a change is someone's newer work.
 */
export function planMerge(ours: Map<EntryKey, EntryChange>, theirs: Map<EntryKey, EntryChange>): MergePlan {
  const plan: MergePlan = { apply: [], conflicts: [] };
  for (const key of [...theirs.keys()].sort()) {
    const t = theirs.get(key)!;
    const o = ours.get(key);
    if (!o) {
      plan.apply.push({ key, blob: t.blob });
    } else if (o.blob === t.blob) {
      continue;
    } else if (o.blob === null) {
      plan.apply.push({ key, blob: t.blob });
    } else if (t.blob === null) {
      continue;
    } else {
      plan.conflicts.push({ key, base: t.base, ours: o.blob, theirs: t.blob });
    }
  }
  return plan;
}

/** When a side's content of an entry was written: the version (commit) and its time. */
export interface Written {
  version: string;
  /** committer time, seconds */
  timestamp: number;
}

/**
 * The newer side wins (docs/format.md, "Merging two histories": a version's date is its
 * commit time), by the readers' own rule (`newerFirst`, core/lineage.ts): equal times go
 * to the smaller commit id, the version every reader shows first, and every clone settles
 * the same pair the same way. A side whose writer is unknown is taken as the older.
 */
export function resolveConflict(ours: Written | null, theirs: Written | null): 'ours' | 'theirs' {
  if (!theirs) return 'ours';
  if (!ours) return 'theirs';
  return newerFirst({ id: ours.version, timestamp: ours.timestamp }, { id: theirs.version, timestamp: theirs.timestamp }) <= 0 ? 'ours' : 'theirs';
}

export const noteKey = (target: string): EntryKey => `note:${target}`;
export const pathKey = (path: string): EntryKey => `path:${path}`;

export function parseKey(key: EntryKey): { kind: 'note' | 'path'; name: string } {
  return key.startsWith('note:') ? { kind: 'note', name: key.slice(5) } : { kind: 'path', name: key.slice(5) };
}

/** What a sync will do, from the two tips and their merge base. */
export type SyncAction = 'up-to-date' | 'push' | 'fast-forward' | 'merge';

export function syncAction(local: string | null, remote: string | null, base: string | null): SyncAction {
  if (local === remote) return 'up-to-date';
  if (!remote) return 'push';
  if (!local) return 'fast-forward';
  if (base === remote) return 'push';
  if (base === local) return 'fast-forward';
  return 'merge';
}
