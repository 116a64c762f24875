/**
 * Three-way merge of notes trees: the notes (at any fan-out depth) and the bookkeeping
 * paths (`receipts/`, `items/`, `policy/`, `purged/`). Only what changed since the merge
 * base is read, so a merge costs what changed, not the size of the tree.
 */
import { EMPTY_TREE_OID, isTreeMode, type ObjectStore } from './objects.js';
import { diffNotes, readTree, setNote, writePath } from './notes-tree.js';
import { isItemPath, mergeItemRecords, parseItem, serializeItem } from '../core/work-item.js';
import { APPROVED_POLICY_PATH, mergeApproved } from '../core/policy.js';
import { noteKey, parseKey, pathKey, planMerge, resolveConflict, type EntryChange, type EntryKey, type Written } from '../core/notes-merge.js';

const HEX = /^[0-9a-f]+$/;
const HEX2 = /^[0-9a-f]{2}$/;

/** Root entries that belong to the notes proper (fan-out folders and note blobs). */
function isNoteEntry(name: string, mode: string): boolean {
  return isTreeMode(mode) ? HEX2.test(name) : HEX.test(name) && name.length === 40;
}

/** Bookkeeping blobs whose content differs between two trees, by plain path. */
export async function diffPaths(
  store: ObjectStore,
  oldRoot: string,
  newRoot: string,
): Promise<{ path: string; oldBlob: string | null; newBlob: string | null }[]> {
  const out: { path: string; oldBlob: string | null; newBlob: string | null }[] = [];
  async function entries(tree: string | null, root: boolean) {
    const map = new Map<string, { tree?: string; blob?: string }>();
    if (!tree) return map;
    for (const e of await readTree(store, tree)) {
      if (root && isNoteEntry(e.name, e.mode)) continue;
      map.set(e.name, isTreeMode(e.mode) ? { tree: e.oid } : { blob: e.oid });
    }
    return map;
  }
  async function walk(a: string | null, b: string | null, prefix: string): Promise<void> {
    if (a === b) return;
    const [left, right] = await Promise.all([entries(a, prefix === ''), entries(b, prefix === '')]);
    for (const name of new Set([...left.keys(), ...right.keys()])) {
      const l = left.get(name);
      const r = right.get(name);
      if (l?.tree || r?.tree) await walk(l?.tree ?? null, r?.tree ?? null, `${prefix}${name}/`);
      if ((l?.blob ?? null) !== (r?.blob ?? null)) out.push({ path: prefix + name, oldBlob: l?.blob ?? null, newBlob: r?.blob ?? null });
    }
  }
  await walk(oldRoot, newRoot, '');
  return out.sort((x, y) => (x.path < y.path ? -1 : 1));
}

/** Every entry that differs between two notes trees, keyed as the merge plan wants. */
export async function diffEntries(store: ObjectStore, oldRoot: string, newRoot: string): Promise<Map<EntryKey, EntryChange>> {
  const map = new Map<EntryKey, EntryChange>();
  if (oldRoot === newRoot) return map;
  const [notes, paths] = await Promise.all([diffNotes(store, oldRoot, newRoot), diffPaths(store, oldRoot, newRoot)]);
  for (const d of notes) map.set(noteKey(d.target), { base: d.oldBlob, blob: d.newBlob });
  for (const d of paths) map.set(pathKey(d.path), { base: d.oldBlob, blob: d.newBlob });
  return map;
}

export interface SettledConflict {
  key: EntryKey;
  kept: 'ours' | 'theirs';
  /** an item record: the receipt ids the kept record took over from the other one */
  carried: string[];
  ours: { blob: string; written: Written | null };
  theirs: { blob: string; written: Written | null };
}

export interface TreeMerge {
  tree: string;
  /** entries taken from their side */
  applied: number;
  conflicts: SettledConflict[];
}

/**
 * Merges `theirs` into `ours` against `base` (null: unrelated histories). `writtenBy`
 * says which version wrote a side's content of an entry, for settling conflicts.
 */
export async function mergeNotesTrees(
  store: ObjectStore,
  base: string | null,
  ours: string,
  theirs: string,
  writtenBy: (side: 'ours' | 'theirs', key: EntryKey, blob: string) => Promise<Written | null>,
): Promise<TreeMerge> {
  const b = base ?? EMPTY_TREE_OID;
  const [oc, tc] = await Promise.all([diffEntries(store, b, ours), diffEntries(store, b, theirs)]);
  const plan = planMerge(oc, tc);
  const apply = [...plan.apply];
  const conflicts: SettledConflict[] = [];
  for (const c of plan.conflicts) {
    const [ow, tw] = await Promise.all([writtenBy('ours', c.key, c.ours), writtenBy('theirs', c.key, c.theirs)]);
    const kept = resolveConflict(ow, tw);
    const [keptBlob, otherBlob] = kept === 'ours' ? [c.ours, c.theirs] : [c.theirs, c.ours];
    const item = (await mergeItemBlobs(store, c.key, keptBlob, otherBlob)) ?? (await mergeApprovedBlobs(store, c.key, keptBlob, otherBlob));
    conflicts.push({ key: c.key, kept, carried: item?.carried ?? [], ours: { blob: c.ours, written: ow }, theirs: { blob: c.theirs, written: tw } });
    const blob = item?.blob ?? keptBlob;
    if (blob !== c.ours) apply.push({ key: c.key, blob });
  }
  let tree = ours;
  for (const a of apply) {
    const { kind, name } = parseKey(a.key);
    tree = kind === 'note' ? await setNote(store, tree, name, a.blob) : await writePath(store, tree, name, a.blob);
  }
  return { tree, applied: apply.length, conflicts };
}

/**
 * An item record both sides changed: the kept (newer) record with the other's receipt ids
 * added, so a receipt made on either clone stays listed (its file merged anyway). Null when
 * the entry is no item record, either side is damaged, or nothing needs adding.
 */
async function mergeItemBlobs(store: ObjectStore, key: EntryKey, kept: string, other: string): Promise<{ blob: string; carried: string[] } | null> {
  const { kind, name } = parseKey(key);
  if (kind !== 'path' || !isItemPath(name)) return null;
  const [k, o] = await Promise.all([store.read(kept), store.read(other)]);
  if (!k || !o) return null;
  const [kr, or] = [parseItem(k.data.toString('utf8')), parseItem(o.data.toString('utf8'))];
  if ('problem' in kr || 'problem' in or) return null;
  const merged = mergeItemRecords(kr, or);
  if (merged === kr) return null;
  const known = new Set(kr.receipts);
  return { blob: await store.write('blob', Buffer.from(serializeItem(merged))), carried: merged.receipts.filter((id) => !known.has(id)) };
}

/** `policy/approved` both sides changed: every approval made on either clone stays. */
async function mergeApprovedBlobs(store: ObjectStore, key: EntryKey, kept: string, other: string): Promise<{ blob: string; carried: string[] } | null> {
  const { kind, name } = parseKey(key);
  if (kind !== 'path' || name !== APPROVED_POLICY_PATH) return null;
  const [k, o] = await Promise.all([store.read(kept), store.read(other)]);
  if (!k || !o) return null;
  const merged = mergeApproved(k.data.toString('utf8'), o.data.toString('utf8'));
  return merged === null ? null : { blob: await store.write('blob', Buffer.from(merged)), carried: [] };
}
