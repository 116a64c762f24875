/**
 * The one reader of commits and trees out of an object store (the repository's, or memfs in
 * the store tests): every walk, hook and rewrite reads them here.
 */
import { EMPTY_TREE_OID, parseCommit, parseTree, type Commit, type ObjectStore, type TreeEntry } from './objects.js';
import { ObjectMissing } from '../errors.js';

/** The commit `oid`, or null when the store has no commit by that id. */
export async function readCommit(store: ObjectStore, oid: string): Promise<Commit | null> {
  const obj = await store.read(oid);
  return obj && obj.type === 'commit' ? parseCommit(obj.data) : null;
}

/** The commit `oid`, which something in the repository points at: missing means a damaged repository. */
export async function requireCommit(store: ObjectStore, oid: string): Promise<Commit> {
  const c = await readCommit(store, oid);
  if (!c) throw new ObjectMissing(`commit ${oid} is missing from the repository`);
  return c;
}

/** The entries of tree `oid` (none for the empty tree, or for no tree at all); missing means a damaged repository. */
export async function readTree(store: ObjectStore, oid: string | null): Promise<TreeEntry[]> {
  if (!oid || oid === EMPTY_TREE_OID) return [];
  const obj = await store.read(oid);
  if (!obj || obj.type !== 'tree') throw new ObjectMissing(`tree ${oid} is missing`);
  return parseTree(obj.data);
}
