/**
 * Notes trees exactly as native git lays them out: a note for commit C is a blob at path C,
 * or under fan-out subtrees (`ab/cdef...`, `ab/cd/ef...`) at any depth. Entries that are not
 * notes (`receipts/`, `items/`, `policy/`) are kept as they are. Only the subtrees on the
 * path of a change are rewritten, so a write costs the same with 5 notes or 50,000.
 */
import { BLOB_MODE, EMPTY_TREE_OID, TREE_MODE, isTreeMode, serializeTree, type ObjectStore, type TreeEntry } from './objects.js';
import { readTree } from './read-objects.js';
import { ObjectMissing } from '../errors.js';

export { readTree };

/** A container with more notes than this is split into 2-hex fan-out subtrees. */
export const FANOUT_THRESHOLD = 256;

const HEX2 = /^[0-9a-f]{2}$/;
const HEX = /^[0-9a-f]+$/;

export interface NoteRef {
  target: string;
  blob: string;
  /** path of the blob inside the notes tree, e.g. `ab/cdef...` */
  path: string;
}

/**
 * The entries named `blobName` (not a tree) and `treeName` (a tree) of a raw tree object,
 * found without parsing the rest: a fan-out level holds 256 entries and a walk over every
 * version reads two levels per version.
 */
function pick(data: Buffer, blobName: string, treeName: string): { blob: string | null; tree: string | null } {
  let blob: string | null = null;
  let tree: string | null = null;
  let i = 0;
  while (i < data.length) {
    const sp = data.indexOf(0x20, i);
    const nul = sp < 0 ? -1 : data.indexOf(0, sp);
    if (sp < 0 || nul < 0 || nul + 21 > data.length) throw new Error('corrupt tree object');
    const len = nul - sp - 1;
    if (len === blobName.length || len === treeName.length) {
      const name = data.toString('latin1', sp + 1, nul);
      if (name === blobName || name === treeName) {
        const isTree = isTreeMode(data.toString('latin1', i, sp));
        if (!isTree && name === blobName) blob ??= data.toString('hex', nul + 1, nul + 21);
        if (isTree && name === treeName) tree ??= data.toString('hex', nul + 1, nul + 21);
      }
    }
    i = nul + 21;
  }
  return { blob, tree };
}

/** Finds the note for `target` at whatever fan-out depth it sits. */
export async function findNote(store: ObjectStore, root: string, target: string): Promise<NoteRef | null> {
  let tree = root;
  let rest = target;
  let prefix = '';
  for (;;) {
    if (tree === EMPTY_TREE_OID) return null;
    const obj = await store.read(tree);
    if (!obj || obj.type !== 'tree') throw new ObjectMissing(`tree ${tree} is missing`);
    const found = pick(obj.data, rest, rest.slice(0, 2));
    if (found.blob) return { target, blob: found.blob, path: prefix + rest };
    if (!found.tree || rest.length <= 2) return null;
    tree = found.tree;
    prefix += `${rest.slice(0, 2)}/`;
    rest = rest.slice(2);
  }
}

/**
 * Every copy of the note for `target`, shallowest first: an older writer or a merge can
 * leave one at the root and one under its fan-out folder. git reads them all (`git notes
 * show` prints each); `findNote` reads the first.
 */
export async function noteCopies(store: ObjectStore, root: string, target: string): Promise<NoteRef[]> {
  const out: NoteRef[] = [];
  let tree = root;
  let rest = target;
  let prefix = '';
  while (tree !== EMPTY_TREE_OID) {
    const obj = await store.read(tree);
    if (!obj || obj.type !== 'tree') throw new ObjectMissing(`tree ${tree} is missing`);
    const found = pick(obj.data, rest, rest.slice(0, 2));
    if (found.blob) out.push({ target, blob: found.blob, path: prefix + rest });
    if (!found.tree || rest.length <= 2) break;
    tree = found.tree;
    prefix += `${rest.slice(0, 2)}/`;
    rest = rest.slice(2);
  }
  return out;
}

/** Every note in the tree (any depth); non-note entries are skipped. */
export async function listNotes(store: ObjectStore, root: string, rootHex = ''): Promise<NoteRef[]> {
  const out: NoteRef[] = [];
  async function walk(tree: string, prefix: string, hex: string): Promise<void> {
    for (const e of await readTree(store, tree)) {
      if (isTreeMode(e.mode)) {
        if (HEX2.test(e.name) && hex.length + 2 < 40) await walk(e.oid, `${prefix}${e.name}/`, hex + e.name);
      } else if (HEX.test(e.name) && hex.length + e.name.length === 40) {
        out.push({ target: hex + e.name, blob: e.oid, path: prefix + e.name });
      }
    }
  }
  await walk(root, '', rootHex);
  return out;
}

/** Notes whose blob differs between two trees (added, changed or removed), skipping equal subtrees. */
export async function diffNotes(
  store: ObjectStore,
  oldRoot: string,
  newRoot: string,
): Promise<{ target: string; oldBlob: string | null; newBlob: string | null }[]> {
  const out: { target: string; oldBlob: string | null; newBlob: string | null }[] = [];
  async function collect(tree: string | null, hex: string, into: Map<string, { tree?: string; blob?: string }>) {
    if (!tree) return;
    for (const e of await readTree(store, tree)) {
      if (isTreeMode(e.mode) && HEX2.test(e.name)) into.set(`${hex}${e.name}/`, { tree: e.oid });
      else if (!isTreeMode(e.mode) && HEX.test(e.name) && hex.length + e.name.length === 40) into.set(hex + e.name, { blob: e.oid });
    }
  }
  async function walk(a: string | null, b: string | null, hex: string): Promise<void> {
    if (a === b) return;
    const left = new Map<string, { tree?: string; blob?: string }>();
    const right = new Map<string, { tree?: string; blob?: string }>();
    await collect(a, hex, left);
    await collect(b, hex, right);
    // A note may move between depths when a subtree fans out: compare by full target.
    const blobsA = new Map<string, string>();
    const blobsB = new Map<string, string>();
    for (const [k, v] of left) if (v.blob) blobsA.set(k, v.blob);
    for (const [k, v] of right) if (v.blob) blobsB.set(k, v.blob);
    const subtrees = new Set<string>();
    for (const [k, v] of left) if (v.tree) subtrees.add(k);
    for (const [k, v] of right) if (v.tree) subtrees.add(k);
    for (const dir of subtrees) {
      const ta = left.get(dir)?.tree ?? null;
      const tb = right.get(dir)?.tree ?? null;
      if (ta === tb) continue;
      if (ta && tb) {
        await walk(ta, tb, dir.replace(/\//g, ''));
      } else {
        for (const n of await listNotes(store, (ta ?? tb)!, dir.replace(/\//g, ''))) (ta ? blobsA : blobsB).set(n.target, n.blob);
      }
    }
    for (const t of new Set([...blobsA.keys(), ...blobsB.keys()])) {
      const oa = blobsA.get(t) ?? null;
      const ob = blobsB.get(t) ?? null;
      if (oa !== ob) out.push({ target: t, oldBlob: oa, newBlob: ob });
    }
  }
  await walk(oldRoot, newRoot, '');
  // A note that only moved depth shows up once as removed and once as added: fold them.
  const byTarget = new Map<string, { target: string; oldBlob: string | null; newBlob: string | null }>();
  for (const d of out) {
    const prev = byTarget.get(d.target);
    if (!prev) byTarget.set(d.target, { ...d });
    else byTarget.set(d.target, { target: d.target, oldBlob: prev.oldBlob ?? d.oldBlob, newBlob: prev.newBlob ?? d.newBlob });
  }
  return [...byTarget.values()].filter((d) => d.oldBlob !== d.newBlob).sort((x, y) => (x.target < y.target ? -1 : 1));
}

/**
 * Sets (or with `blob` null removes) the note for `target`, removing any copy at another
 * depth so the tree never holds two notes for one commit, and returns the new root tree.
 */
export async function setNote(store: ObjectStore, root: string, target: string, blob: string | null): Promise<string> {
  async function update(tree: string, rest: string, depth: number): Promise<string> {
    let entries = await readTree(store, tree);
    // Drop a note for this target at this level, whatever depth it was written at.
    entries = entries.filter((e) => !(e.name === rest && !isTreeMode(e.mode)));
    const subName = rest.slice(0, 2);
    const subIdx = entries.findIndex((e) => e.name === subName && isTreeMode(e.mode));
    if (subIdx >= 0 && rest.length > 2) {
      const newSub = await update(entries[subIdx].oid, rest.slice(2), depth + 1);
      if (newSub === EMPTY_TREE_OID) entries.splice(subIdx, 1);
      else entries[subIdx] = { mode: TREE_MODE, name: subName, oid: newSub };
    } else if (blob) {
      entries.push({ mode: BLOB_MODE, name: rest, oid: blob });
      entries = await maybeFanOut(store, entries, rest.length);
    }
    if (entries.length === 0) return EMPTY_TREE_OID;
    return store.write('tree', serializeTree(entries));
  }
  const newRoot = await update(root, target, 0);
  return newRoot === EMPTY_TREE_OID ? store.write('tree', serializeTree([])) : newRoot;
}

/** Splits a container whose note blobs exceed FANOUT_THRESHOLD into 2-hex subtrees. */
async function maybeFanOut(store: ObjectStore, entries: TreeEntry[], nameLength: number): Promise<TreeEntry[]> {
  const isNote = (e: TreeEntry) => !isTreeMode(e.mode) && e.name.length === nameLength && HEX.test(e.name);
  const notes = entries.filter(isNote);
  if (notes.length <= FANOUT_THRESHOLD || nameLength <= 2) return entries;
  const groups = new Map<string, TreeEntry[]>();
  for (const n of notes) {
    const key = n.name.slice(0, 2);
    const list = groups.get(key) ?? [];
    list.push({ mode: n.mode, name: n.name.slice(2), oid: n.oid });
    groups.set(key, list);
  }
  const kept = entries.filter((e) => !isNote(e));
  for (const [key, list] of groups) {
    const existing = kept.findIndex((e) => e.name === key && isTreeMode(e.mode));
    if (existing >= 0) {
      // A fan-out subtree already exists for this prefix: merge into it.
      const sub = await readTree(store, kept[existing].oid);
      const names = new Set(list.map((l) => l.name));
      const merged = [...sub.filter((e) => !names.has(e.name)), ...list];
      kept[existing] = { mode: TREE_MODE, name: key, oid: await store.write('tree', serializeTree(merged)) };
    } else {
      kept.push({ mode: TREE_MODE, name: key, oid: await store.write('tree', serializeTree(list)) });
    }
  }
  return kept;
}

/** Reads a bookkeeping blob (`receipts/<id>.json`, ...) by plain path. */
export async function readPath(store: ObjectStore, root: string, path: string): Promise<string | null> {
  const parts = path.split('/');
  let tree = root;
  for (let i = 0; i < parts.length; i++) {
    const e = (await readTree(store, tree)).find((x) => x.name === parts[i]);
    if (!e) return null;
    if (i === parts.length - 1) return isTreeMode(e.mode) ? null : e.oid;
    if (!isTreeMode(e.mode)) return null;
    tree = e.oid;
  }
  return null;
}

/** Lists the entries of a bookkeeping folder (`receipts`, `items/local`). */
export async function listPath(store: ObjectStore, root: string, path: string): Promise<TreeEntry[]> {
  let tree = root;
  for (const part of path.split('/')) {
    const e = (await readTree(store, tree)).find((x) => x.name === part && isTreeMode(x.mode));
    if (!e) return [];
    tree = e.oid;
  }
  return readTree(store, tree);
}

/** Writes (or with null removes) a bookkeeping blob by plain path; returns the new root. */
export async function writePath(store: ObjectStore, root: string, path: string, blob: string | null): Promise<string> {
  async function update(tree: string | null, parts: string[]): Promise<string | null> {
    let entries = tree ? await readTree(store, tree) : [];
    const [head, ...rest] = parts;
    const idx = entries.findIndex((e) => e.name === head);
    if (rest.length === 0) {
      entries = entries.filter((_, i) => i !== idx);
      if (blob) entries.push({ mode: BLOB_MODE, name: head, oid: blob });
    } else {
      const sub = idx >= 0 && isTreeMode(entries[idx].mode) ? entries[idx].oid : null;
      const newSub = await update(sub, rest);
      entries = entries.filter((_, i) => i !== idx);
      if (newSub) entries.push({ mode: TREE_MODE, name: head, oid: newSub });
    }
    if (entries.length === 0) return null;
    return store.write('tree', serializeTree(entries));
  }
  return (await update(root, path.split('/'))) ?? store.write('tree', serializeTree([]));
}

export interface NoteEntryChange {
  /** the entry's path in the notes tree (`ab/cdef...`), as `listNotes` names it */
  path: string;
  target: string;
  oldBlob: string | null;
  newBlob: string | null;
}

/**
 * The note entries that differ between two trees, path by path (a note that moved depth is
 * one entry removed and one added), skipping equal subtrees: what turns `listNotes` of one
 * tree into `listNotes` of the other, with the same rules for what is a note.
 */
export async function diffNoteEntries(store: ObjectStore, oldRoot: string, newRoot: string): Promise<NoteEntryChange[]> {
  const out: NoteEntryChange[] = [];
  const split = (entries: TreeEntry[], hex: string) => {
    const notes = new Map<string, string>();
    const subs = new Map<string, string>();
    for (const e of entries) {
      if (isTreeMode(e.mode)) {
        if (HEX2.test(e.name) && hex.length + 2 < 40) subs.set(e.name, e.oid);
      } else if (HEX.test(e.name) && hex.length + e.name.length === 40) notes.set(e.name, e.oid);
    }
    return { notes, subs };
  };
  async function walk(a: string | null, b: string | null, prefix: string, hex: string): Promise<void> {
    if (a === b) return;
    const l = split(await readTree(store, a), hex);
    const r = split(await readTree(store, b), hex);
    for (const name of new Set([...l.notes.keys(), ...r.notes.keys()])) {
      const oa = l.notes.get(name) ?? null;
      const ob = r.notes.get(name) ?? null;
      if (oa !== ob) out.push({ path: prefix + name, target: hex + name, oldBlob: oa, newBlob: ob });
    }
    for (const name of new Set([...l.subs.keys(), ...r.subs.keys()])) {
      await walk(l.subs.get(name) ?? null, r.subs.get(name) ?? null, `${prefix}${name}/`, hex + name);
    }
  }
  await walk(oldRoot, newRoot, '', '');
  return out;
}
