import { beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { FANOUT_THRESHOLD, diffNotes, findNote, listNotes, listPath, readPath, readTree, setNote, writePath } from '../../src/git/notes-tree.js';
import { BLOB_MODE, EMPTY_TREE_OID, TREE_MODE, isTreeMode } from '../../src/git/objects.js';
import { MemfsObjectStore } from '../helpers/memory-store.js';

const sha = (s: string) => createHash('sha1').update(s).digest('hex');
/** A commit id; with `prefix`, one that starts with it. */
const target = (i: number | string, prefix = '') => prefix + sha(`target ${i}`).slice(prefix.length);

let store: MemfsObjectStore;
beforeAll(async () => {
  store = await MemfsObjectStore.create();
});

/** Every entry of the tree, recursively, as [path, mode, oid]. */
async function entries(root: string, prefix = ''): Promise<[string, string, string][]> {
  const out: [string, string, string][] = [];
  for (const e of await readTree(store, root)) {
    out.push([prefix + e.name, e.mode, e.oid]);
    if (isTreeMode(e.mode)) out.push(...(await entries(e.oid, `${prefix}${e.name}/`)));
  }
  return out;
}

/** The invariants every notes tree we write keeps: no duplicate notes, no empty subtrees, no duplicate names. */
async function checkTree(root: string): Promise<Map<string, string>> {
  const notes = new Map<string, string>();
  async function walk(tree: string, hex: string, path: string): Promise<void> {
    const list = await readTree(store, tree);
    expect(new Set(list.map((e) => e.name)).size, `duplicate names in ${path || '/'}`).toBe(list.length);
    for (const e of list) {
      if (isTreeMode(e.mode)) {
        expect(e.oid, `empty subtree ${path}${e.name}`).not.toBe(EMPTY_TREE_OID);
        if (/^[0-9a-f]{2}$/.test(e.name)) await walk(e.oid, hex + e.name, `${path}${e.name}/`);
      } else if (/^[0-9a-f]+$/.test(e.name) && hex.length + e.name.length === 40) {
        const t = hex + e.name;
        expect(notes.has(t), `two notes for ${t}`).toBe(false);
        notes.set(t, e.oid);
      }
    }
  }
  await walk(root, '', '');
  return notes;
}

async function build(targets: string[], root = EMPTY_TREE_OID): Promise<{ root: string; blobs: Map<string, string> }> {
  const blobs = new Map<string, string>();
  for (const t of targets) {
    const b = await store.blob(`summary: note for ${t}\n`);
    blobs.set(t, b);
    root = await setNote(store, root, t, b);
  }
  return { root, blobs };
}

describe('flat notes trees', () => {
  it('sets, finds and lists notes by their full target', async () => {
    const ts = [0, 1, 2, 3, 4].map((i) => target(i));
    const { root, blobs } = await build(ts);
    for (const t of ts) expect(await findNote(store, root, t)).toEqual({ target: t, blob: blobs.get(t), path: t });
    expect((await listNotes(store, root)).map((n) => n.target).sort()).toEqual([...ts].sort());
    expect(await findNote(store, root, target('absent'))).toBeNull();
    expect((await entries(root)).every(([p, mode]) => mode === BLOB_MODE && p.length === 40)).toBe(true);
  });

  it('replaces a note in place rather than adding a second one', async () => {
    const t = target('replace');
    const { root } = await build([t, target('other')]);
    const b2 = await store.blob('summary: second\n');
    const root2 = await setNote(store, root, t, b2);
    const notes = await checkTree(root2);
    expect(notes.size).toBe(2);
    expect(notes.get(t)).toBe(b2);
  });

  it('writes the same tree for the same notes, whatever the order', async () => {
    const ts = [10, 11, 12, 13].map((i) => target(i));
    const a = await build(ts);
    const b = await build([...ts].reverse());
    expect(b.root).toBe(a.root);
  });

  it('removes notes and ends with the empty tree', async () => {
    const ts = [20, 21].map((i) => target(i));
    let { root } = await build(ts);
    root = await setNote(store, root, ts[0], null);
    expect((await listNotes(store, root)).map((n) => n.target)).toEqual([ts[1]]);
    root = await setNote(store, root, ts[1], null);
    expect(root).toBe(EMPTY_TREE_OID);
    // removing what is not there changes nothing
    expect(await setNote(store, root, ts[1], null)).toBe(EMPTY_TREE_OID);
  });
});

describe('fan-out', () => {
  let big: { root: string; blobs: Map<string, string> };
  let ts: string[];
  beforeAll(async () => {
    ts = Array.from({ length: FANOUT_THRESHOLD + 1 }, (_, i) => target(`fan ${i}`));
    big = await build(ts);
  });

  it(`stays flat at ${FANOUT_THRESHOLD} notes`, async () => {
    const { root } = await build(ts.slice(0, FANOUT_THRESHOLD));
    const top = await readTree(store, root);
    expect(top).toHaveLength(FANOUT_THRESHOLD);
    expect(top.every((e) => !isTreeMode(e.mode))).toBe(true);
  });

  it(`splits into 2-hex subtrees above ${FANOUT_THRESHOLD} notes, as native git lays them out`, async () => {
    const top = await readTree(store, big.root);
    expect(top.every((e) => isTreeMode(e.mode) && /^[0-9a-f]{2}$/.test(e.name))).toBe(true);
    const paths = (await entries(big.root)).filter(([, mode]) => mode === BLOB_MODE).map(([p]) => p);
    expect(paths).toHaveLength(ts.length);
    expect(paths.every((p) => /^[0-9a-f]{2}\/[0-9a-f]{38}$/.test(p))).toBe(true);
    const notes = await checkTree(big.root);
    expect(notes.size).toBe(ts.length);
  });

  it('finds every note at its fan-out path and lists them all once', async () => {
    for (const t of ts.slice(0, 40)) {
      expect(await findNote(store, big.root, t)).toEqual({ target: t, blob: big.blobs.get(t), path: `${t.slice(0, 2)}/${t.slice(2)}` });
    }
    const listed = await listNotes(store, big.root);
    expect(listed).toHaveLength(ts.length);
    expect(new Set(listed.map((n) => n.target))).toEqual(new Set(ts));
  });

  it('adds a new note under an existing fan-out subtree, and at the top when none exists for its prefix', async () => {
    const present = ts[0].slice(0, 2);
    const missing = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0')).find((p) => !ts.some((t) => t.startsWith(p)))!;
    const inSub = target('new-in-sub', present);
    const b = await store.blob('x');
    let root = await setNote(store, big.root, inSub, b);
    expect((await findNote(store, root, inSub))!.path).toBe(`${present}/${inSub.slice(2)}`);
    if (missing) {
      const top = target('new-top', missing);
      root = await setNote(store, root, top, b);
      expect(await findNote(store, root, top)).toMatchObject({ blob: b });
    }
    expect((await checkTree(root)).size).toBe(ts.length + (missing ? 2 : 1));
  });

  it('removes a note from a subtree and drops the subtree once it is empty', async () => {
    const lone = ts.find((t) => ts.filter((u) => u.startsWith(t.slice(0, 2))).length === 1);
    let root = big.root;
    if (lone) {
      root = await setNote(store, root, lone, null);
      expect((await readTree(store, root)).some((e) => e.name === lone.slice(0, 2))).toBe(false);
    }
    const shared = ts.find((t) => ts.filter((u) => u.startsWith(t.slice(0, 2))).length > 1)!;
    root = await setNote(store, root, shared, null);
    expect(await findNote(store, root, shared)).toBeNull();
    expect((await checkTree(root)).size).toBe(ts.length - (lone ? 2 : 1));
  });

  it('splits a crowded subtree again (ab/cd/...), at any depth', async () => {
    // one note under `ab/`, then enough notes with the same prefix to overflow that subtree
    const seed = target('deep seed', 'ab');
    let root = await store.tree([
      { mode: TREE_MODE, name: 'ab', oid: await store.tree([{ mode: BLOB_MODE, name: seed.slice(2), oid: await store.blob('s') }]) },
    ]);
    const crowd = Array.from({ length: FANOUT_THRESHOLD }, (_, i) => target(`deep ${i}`, 'ab'));
    const built = await build(crowd, root);
    root = built.root;
    const ab = await readTree(store, (await readTree(store, root)).find((e) => e.name === 'ab')!.oid);
    expect(ab.every((e) => isTreeMode(e.mode) && e.name.length === 2)).toBe(true);
    for (const t of [seed, ...crowd.slice(0, 20)]) expect((await findNote(store, root, t))!.path).toBe(`ab/${t.slice(2, 4)}/${t.slice(4)}`);
    expect((await checkTree(root)).size).toBe(FANOUT_THRESHOLD + 1);
    // and removing at depth 2 works
    root = await setNote(store, root, seed, null);
    expect(await findNote(store, root, seed)).toBeNull();
    expect((await checkTree(root)).size).toBe(FANOUT_THRESHOLD);
  });
});

describe('trees native git wrote', () => {
  it('reads notes at depth 2 and 3 and replaces them where they sit', async () => {
    const t2 = target('d2', 'cafe');
    const t3 = target('d3', 'beefed');
    const b = await store.blob('old');
    const root = await store.tree([
      {
        mode: TREE_MODE,
        name: 'ca',
        oid: await store.tree([{ mode: TREE_MODE, name: 'fe', oid: await store.tree([{ mode: BLOB_MODE, name: t2.slice(4), oid: b }]) }]),
      },
      {
        mode: TREE_MODE,
        name: 'be',
        oid: await store.tree([
          {
            mode: TREE_MODE,
            name: 'ef',
            oid: await store.tree([{ mode: TREE_MODE, name: 'ed', oid: await store.tree([{ mode: BLOB_MODE, name: t3.slice(6), oid: b }]) }]),
          },
        ]),
      },
    ]);
    expect(await findNote(store, root, t2)).toEqual({ target: t2, blob: b, path: `ca/fe/${t2.slice(4)}` });
    expect(await findNote(store, root, t3)).toEqual({ target: t3, blob: b, path: `be/ef/ed/${t3.slice(6)}` });
    expect((await listNotes(store, root)).map((n) => n.target).sort()).toEqual([t3, t2]);
    const nb = await store.blob('new');
    const r2 = await setNote(store, await setNote(store, root, t2, nb), t3, nb);
    expect(await findNote(store, r2, t2)).toEqual({ target: t2, blob: nb, path: `ca/fe/${t2.slice(4)}` });
    expect(await findNote(store, r2, t3)).toEqual({ target: t3, blob: nb, path: `be/ef/ed/${t3.slice(6)}` });
    const r3 = await setNote(store, r2, t3, null);
    expect((await entries(r3)).map(([p]) => p)).toEqual(['ca', 'ca/fe', `ca/fe/${t2.slice(4)}`]);
  });

  it('leaves one note when a tree held a copy at two depths', async () => {
    const t = target('dup', 'dd');
    const [b1, b2, nb] = [await store.blob('flat'), await store.blob('fanned'), await store.blob('new')];
    const root = await store.tree([
      { mode: BLOB_MODE, name: t, oid: b1 },
      { mode: TREE_MODE, name: 'dd', oid: await store.tree([{ mode: BLOB_MODE, name: t.slice(2), oid: b2 }]) },
    ]);
    const fixed = await setNote(store, root, t, nb);
    const notes = await checkTree(fixed);
    expect([...notes]).toEqual([[t, nb]]);
    expect(await setNote(store, root, t, null)).toBe(EMPTY_TREE_OID);
  });

  it('merges flat notes into an existing subtree when a mixed tree fans out', async () => {
    const b = await store.blob('m');
    const inSub = [0, 1].map((i) => target(`mixed sub ${i}`, 'ab'));
    const flatAb = [0, 1, 2].map((i) => target(`mixed flat ${i}`, 'ab'));
    const flat = [...flatAb, ...Array.from({ length: FANOUT_THRESHOLD - 3 }, (_, i) => target(`mixed ${i}`))].filter(
      (t) => !t.startsWith('ab') || flatAb.includes(t),
    );
    const root = await store.tree([
      { mode: TREE_MODE, name: 'ab', oid: await store.tree(inSub.map((t) => ({ mode: BLOB_MODE, name: t.slice(2), oid: b }))) },
      ...flat.map((t) => ({ mode: BLOB_MODE, name: t, oid: b })),
    ]);
    // add flat notes of fresh prefixes until the top level splits
    let r = root;
    const fill: string[] = [];
    for (let i = 0; (await readTree(store, r)).some((e) => !isTreeMode(e.mode)) && i < 10; i++) {
      fill.push(target(`mixed fill ${i}`, `f${i}`));
      r = await setNote(store, r, fill[fill.length - 1], b);
    }
    expect((await readTree(store, r)).every((e) => isTreeMode(e.mode))).toBe(true);
    const notes = await checkTree(r);
    expect(notes.size).toBe(inSub.length + flat.length + fill.length);
    for (const t of [...inSub, ...flatAb]) expect((await findNote(store, r, t))?.path, t).toBe(`ab/${t.slice(2)}`);
  });

  it('does not take bookkeeping paths or odd names for notes', async () => {
    const t = target('real');
    const b = await store.blob('b');
    const root = await store.tree([
      { mode: BLOB_MODE, name: t, oid: b },
      { mode: BLOB_MODE, name: 'deadbeef', oid: b },
      { mode: BLOB_MODE, name: 'README', oid: b },
      { mode: TREE_MODE, name: 'receipts', oid: await store.tree([{ mode: BLOB_MODE, name: `${sha('r')}.json`, oid: b }]) },
      { mode: TREE_MODE, name: 'ab', oid: await store.tree([{ mode: BLOB_MODE, name: 'short', oid: b }]) },
    ]);
    expect((await listNotes(store, root)).map((n) => n.target)).toEqual([t]);
  });
});

describe('bookkeeping paths', () => {
  it('are written, read and listed by plain path, and kept through note writes and fan-out', async () => {
    const receipt = await store.blob('{"id":"r1"}\n');
    const item = await store.blob('{"state":"backlog"}\n');
    const policy = await store.blob('sha\n');
    let root = await writePath(store, EMPTY_TREE_OID, 'receipts/r1.json', receipt);
    root = await writePath(store, root, 'items/github/12.json', item);
    root = await writePath(store, root, 'policy/approved', policy);
    const before = (await entries(root)).filter(([p]) => !/^[0-9a-f]{2}(\/|$)/.test(p));
    const ts = Array.from({ length: FANOUT_THRESHOLD + 5 }, (_, i) => target(`bk ${i}`));
    root = (await build(ts, root)).root;
    const after = (await entries(root)).filter(([p]) => /^(receipts|items|policy)/.test(p));
    expect(after).toEqual(before);
    expect(await readPath(store, root, 'receipts/r1.json')).toBe(receipt);
    expect(await readPath(store, root, 'items/github/12.json')).toBe(item);
    expect(await readPath(store, root, 'policy/approved')).toBe(policy);
    expect(await readPath(store, root, 'receipts')).toBeNull();
    expect(await readPath(store, root, 'receipts/none.json')).toBeNull();
    expect((await listPath(store, root, 'items/github')).map((e) => e.name)).toEqual(['12.json']);
    expect(await listPath(store, root, 'items/gitlab')).toEqual([]);
    expect((await checkTree(root)).size).toBe(ts.length);
    // removing notes keeps them; removing a bookkeeping blob keeps the notes
    for (const t of ts) root = await setNote(store, root, t, null);
    expect((await entries(root)).filter(([p]) => /^(receipts|items|policy)/.test(p))).toEqual(before);
    root = (await build(ts.slice(0, 3), root)).root;
    root = await writePath(store, root, 'receipts/r1.json', null);
    expect((await readTree(store, root)).some((e) => e.name === 'receipts')).toBe(false);
    expect(await listNotes(store, root)).toHaveLength(3);
  });
});

describe('diffNotes', () => {
  it('reports added, changed and removed notes between flat trees', async () => {
    const [a, b, c] = ['x', 'y', 'z'].map((s) => target(`diff ${s}`));
    const { root: r1, blobs } = await build([a, b]);
    const nb = await store.blob('changed');
    let r2 = await setNote(store, r1, b, nb);
    r2 = await setNote(store, r2, a, null);
    const { root: r3, blobs: cb } = await build([c], r2);
    const d = await diffNotes(store, r1, r3);
    const expected = [
      { target: a, oldBlob: blobs.get(a), newBlob: null },
      { target: b, oldBlob: blobs.get(b), newBlob: nb },
      { target: c, oldBlob: null, newBlob: cb.get(c) },
    ].sort((x, y) => (x.target < y.target ? -1 : 1));
    expect(d).toEqual(expected);
    expect(await diffNotes(store, r3, r3)).toEqual([]);
    expect(await diffNotes(store, EMPTY_TREE_OID, r1)).toHaveLength(2);
  });

  it('reports only the new note when the write fanned the tree out', async () => {
    const ts = Array.from({ length: FANOUT_THRESHOLD + 1 }, (_, i) => target(`split ${i}`));
    const flat = await build(ts.slice(0, FANOUT_THRESHOLD));
    const last = ts[FANOUT_THRESHOLD];
    const b = await store.blob('last');
    const fanned = await setNote(store, flat.root, last, b);
    expect((await readTree(store, fanned)).every((e) => isTreeMode(e.mode))).toBe(true);
    expect(await diffNotes(store, flat.root, fanned)).toEqual([{ target: last, oldBlob: null, newBlob: b }]);
    // and a change inside a subtree of a fanned tree
    const nb = await store.blob('again');
    expect(await diffNotes(store, fanned, await setNote(store, fanned, ts[3], nb))).toEqual([{ target: ts[3], oldBlob: flat.blobs.get(ts[3]), newBlob: nb }]);
  });

  it('ignores bookkeeping changes', async () => {
    const { root } = await build([target('bk diff')]);
    const r2 = await writePath(store, root, 'receipts/x.json', await store.blob('{}'));
    expect(await diffNotes(store, root, r2)).toEqual([]);
  });
});

describe('property: any sequence of writes and removals', () => {
  it('keeps exactly the notes of a model map, with no duplicate entry, at any depth', async () => {
    // A shared start above the threshold, so operations hit flat, fanned and mixed layouts.
    const pool = [
      ...Array.from({ length: 30 }, (_, i) => target(`pool ${i}`)),
      ...Array.from({ length: 10 }, (_, i) => target(`pool ab ${i}`, 'ab')),
      ...Array.from({ length: 5 }, (_, i) => target(`pool abcd ${i}`, 'abcd')),
    ];
    const startTargets = Array.from({ length: FANOUT_THRESHOLD - 3 }, (_, i) => target(`start ${i}`));
    const start = await build(startTargets);
    const contents = await Promise.all(['one', 'two', 'three'].map((s) => store.blob(s)));
    const receipt = await store.blob('{"id":"r"}');
    const startRoot = await writePath(store, start.root, 'receipts/r.json', receipt);
    const op = fc.record({ t: fc.constantFrom(...pool), blob: fc.option(fc.constantFrom(...contents), { nil: null }) });
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 20 }), async (ops) => {
        const model = new Map(start.blobs);
        let root = startRoot;
        for (const { t, blob } of ops) {
          root = await setNote(store, root, t, blob);
          if (blob) model.set(t, blob);
          else model.delete(t);
        }
        const notes = await checkTree(root);
        expect(notes).toEqual(model);
        for (const { t } of ops) expect((await findNote(store, root, t))?.blob ?? null).toBe(model.get(t) ?? null);
        expect(await readPath(store, root, 'receipts/r.json')).toBe(receipt);
        const d = await diffNotes(store, startRoot, root);
        const changed = [...new Set([...model.keys(), ...start.blobs.keys()])].filter((t) => model.get(t) !== start.blobs.get(t));
        expect(d.map((x) => x.target).sort()).toEqual(changed.sort());
      }),
      { numRuns: 30 },
    );
  });
});
