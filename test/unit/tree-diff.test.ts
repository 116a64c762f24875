import { describe, expect, it } from 'vitest';
import { countChangedFiles } from '../../src/git/tree-diff.js';
import { BLOB_MODE, TREE_MODE, hashObject, serializeTree, type GitObject, type ObjectStore, type ObjectType, type TreeEntry } from '../../src/git/objects.js';

class MemoryStore implements ObjectStore {
  objects = new Map<string, GitObject>();
  reads = 0;
  async read(oid: string) {
    this.reads++;
    return this.objects.get(oid) ?? null;
  }
  async write(type: ObjectType, data: Buffer) {
    const oid = hashObject(type, data);
    this.objects.set(oid, { type, data });
    return oid;
  }
}

type Spec = { [name: string]: string | Spec };

async function tree(store: MemoryStore, spec: Spec, modes: Record<string, string> = {}): Promise<string> {
  const entries: TreeEntry[] = [];
  for (const [name, v] of Object.entries(spec)) {
    if (typeof v === 'string') entries.push({ mode: modes[name] ?? BLOB_MODE, name, oid: await store.write('blob', Buffer.from(v)) });
    else entries.push({ mode: TREE_MODE, name, oid: await tree(store, v) });
  }
  return store.write('tree', serializeTree(entries));
}

describe('countChangedFiles (the "more than 3 files" threshold)', () => {
  it.each<[string, Spec, Spec, number]>([
    ['same tree', { a: '1', d: { b: '2' } }, { a: '1', d: { b: '2' } }, 0],
    ['one modified deep down', { d: { e: { f: '1' } } }, { d: { e: { f: '2' } } }, 1],
    ['added, removed, modified', { a: '1', b: '2' }, { a: 'x', c: '3' }, 3],
    ['a folder added with 3 files', { a: '1' }, { a: '1', d: { x: '1', y: '2', z: { w: '3' } } }, 3],
    ['a folder removed with 4 files: stops past the limit', { d: { a: '1', b: '2', c: '3', e: '4' } }, {}, 4],
    ['a file replaced by a folder', { p: 'file' }, { p: { q: '1' } }, 2],
    ['a folder replaced by a file', { p: { q: '1', r: '2' } }, { p: 'file' }, 3],
  ])('%s', async (_name, a, b, want) => {
    const store = new MemoryStore();
    expect(await countChangedFiles(store, await tree(store, a), await tree(store, b), 3)).toBe(want);
  });

  it('counts a mode change, and the root commit against the empty tree', async () => {
    const store = new MemoryStore();
    const a = await tree(store, { run: '#!/bin/sh\n' });
    const b = await tree(store, { run: '#!/bin/sh\n' }, { run: '100755' });
    expect(await countChangedFiles(store, a, b, 3)).toBe(1);
    expect(await countChangedFiles(store, null, await tree(store, { a: '1', b: '2', d: { c: '3', e: '4', f: '5' } }), 3)).toBe(4);
  });

  it('does not read subtrees that did not change', async () => {
    const store = new MemoryStore();
    const big: Spec = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`d${i}`, { x: `${i}` }]));
    const a = await tree(store, { ...big, top: '1' });
    const b = await tree(store, { ...big, top: '2' });
    store.reads = 0;
    expect(await countChangedFiles(store, a, b, 3)).toBe(1);
    expect(store.reads).toBe(2);
  });
});
