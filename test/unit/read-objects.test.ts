import { describe, expect, it } from 'vitest';
import { MemfsObjectStore } from '../helpers/memory-store.js';
import { readCommit, readTree, requireCommit } from '../../src/git/read-objects.js';
import { BLOB_MODE, EMPTY_TREE_OID, serializeCommit } from '../../src/git/objects.js';

const sig = { name: 'A', email: 'a@x', timestamp: 1, tz: '+0000' };

// readCommit was written three times (the store threw, head-facts and post-commit answered
// null) and readTree twice (one took null for "no tree"): one reader, both answers kept.
describe('the one commit and tree reader', () => {
  it('reads a commit, null for a missing one or another type; requireCommit throws ObjectMissing', async () => {
    const store = await MemfsObjectStore.create();
    const blob = await store.blob('x');
    const tree = await store.tree([{ mode: BLOB_MODE, name: 'f', oid: blob }]);
    const id = await store.write('commit', serializeCommit({ tree, parents: [], author: sig, committer: sig, message: 's\n' }));
    expect(await readCommit(store, id)).toMatchObject({ tree, parents: [], message: 's\n' });
    expect(await requireCommit(store, id)).toMatchObject({ tree });
    expect(await readCommit(store, blob)).toBeNull();
    expect(await readCommit(store, 'b'.repeat(40))).toBeNull();
    await expect(requireCommit(store, 'b'.repeat(40))).rejects.toMatchObject({ code: 'ObjectMissing', exitCode: 3 });
  });

  it('reads a tree; none for the empty tree or no tree; a missing one is ObjectMissing', async () => {
    const store = await MemfsObjectStore.create();
    const blob = await store.blob('x');
    const tree = await store.tree([{ mode: BLOB_MODE, name: 'f', oid: blob }]);
    expect(await readTree(store, tree)).toEqual([{ mode: BLOB_MODE, name: 'f', oid: blob }]);
    expect(await readTree(store, EMPTY_TREE_OID)).toEqual([]);
    expect(await readTree(store, null)).toEqual([]);
    await expect(readTree(store, blob)).rejects.toMatchObject({ code: 'ObjectMissing' });
  });
});
