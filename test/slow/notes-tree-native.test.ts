/**
 * The notes-tree reader and writer against native git: fan-out trees written by
 * `git notes add` are read correctly, ours are read by `git notes list/show`, and a model
 * of random set/remove sequences agrees with what the tree holds at every step.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { TestRepo } from '../helpers/repo.js';
import { GitObjectStore } from '../../src/git/object-store.js';
import {
  EMPTY_TREE_OID,
  hashObject,
  isTreeMode,
  parseTree,
  serializeCommit,
  type GitObject,
  type ObjectStore,
  type ObjectType,
} from '../../src/git/objects.js';
import { diffNotes, findNote, listNotes, readTree, setNote, FANOUT_THRESHOLD } from '../../src/git/notes-tree.js';

class MemoryStore implements ObjectStore {
  readonly objects = new Map<string, GitObject>();
  async read(oid: string) {
    return this.objects.get(oid) ?? null;
  }
  async write(type: ObjectType, data: Buffer) {
    const oid = hashObject(type, data);
    this.objects.set(oid, { type, data });
    return oid;
  }
}

function storeOf(repo: TestRepo): GitObjectStore {
  return new GitObjectStore(join(repo.dir, '.git'), join(repo.dir, '.git', 'objects'));
}

/** `git notes list` as a map target -> note blob. */
function nativeList(repo: TestRepo): Map<string, string> {
  const out = repo.git('notes', '--ref=handoff', 'list');
  return new Map(
    out
      .split('\n')
      .filter(Boolean)
      .map((l) => [l.split(' ')[1], l.split(' ')[0]] as [string, string]),
  );
}

/** Points refs/notes/handoff at a commit of `tree`. */
async function commitTree(repo: TestRepo, store: ObjectStore, tree: string): Promise<void> {
  const parent = repo.notesRef();
  const sig = { name: 'T', email: 't@example.com', timestamp: 1767225600, tz: '+0000' };
  const oid = await store.write('commit', serializeCommit({ tree, parents: parent ? [parent] : [], author: sig, committer: sig, message: 'notes\n' }));
  repo.git('update-ref', 'refs/notes/handoff', oid);
}

/** The depth of the deepest fan-out folder, as native git or we laid it out. */
async function fanoutDepth(store: ObjectStore, tree: string, depth = 0): Promise<number> {
  let max = depth;
  for (const e of await readTree(store, tree))
    if (isTreeMode(e.mode) && /^[0-9a-f]{2}$/.test(e.name)) max = Math.max(max, await fanoutDepth(store, e.oid, depth + 1));
  return max;
}

const hex40 = fc.stringMatching(/^[0-9a-f]{40}$/);

describe('notes trees: a model of random changes', () => {
  it('holds exactly the notes set, each once, whatever the fan-out', async () => {
    let largest = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.nat(599), fc.option(fc.nat(5), { nil: null })), { minLength: 300, maxLength: 700 }),
        fc.array(hex40, { minLength: 600, maxLength: 600 }),
        async (ops, targets) => {
          const store = new MemoryStore();
          const blobs = await Promise.all([0, 1, 2, 3, 4, 5].map((i) => store.write('blob', Buffer.from(`note ${i}\n`))));
          const model = new Map<string, string>();
          let root = EMPTY_TREE_OID;
          let previous = root;
          let previousModel = new Map<string, string>();
          for (const [i, [t, b]] of ops.entries()) {
            const target = targets[t];
            root = await setNote(store, root, target, b === null ? null : blobs[b]);
            if (b === null) model.delete(target);
            else model.set(target, blobs[b]);
            largest = Math.max(largest, model.size);
            if (i % 97 === 0 || i === ops.length - 1) {
              const listed = await listNotes(store, root);
              expect(listed.length).toBe(new Set(listed.map((n) => n.target)).size);
              expect(new Map(listed.map((n) => [n.target, n.blob]))).toEqual(model);
              for (const [tg, blob] of [...model].slice(0, 25)) expect((await findNote(store, root, tg))?.blob).toBe(blob);
              const changed = (await diffNotes(store, previous, root)).map((d) => [d.target, d.oldBlob, d.newBlob]);
              const expected = [...new Set([...previousModel.keys(), ...model.keys()])]
                .filter((k) => previousModel.get(k) !== model.get(k))
                .sort()
                .map((k) => [k, previousModel.get(k) ?? null, model.get(k) ?? null]);
              expect(changed).toEqual(expected);
              previous = root;
              previousModel = new Map(model);
            }
          }
        },
      ),
      { numRuns: 25 },
    );
    // The runs went past FANOUT_THRESHOLD, so fanned-out trees were checked too.
    expect(largest).toBeGreaterThan(FANOUT_THRESHOLD);
  });
});

describe('notes trees against native git', () => {
  it('reads the fan-out trees `git notes add` writes (150 notes; native git fans out near 100)', async () => {
    const repo = TestRepo.init();
    repo.commit('init');
    const store = storeOf(repo);
    try {
      const targets: string[] = [];
      for (let i = 0; i < 150; i++) targets.push(await store.write('blob', Buffer.from(`object ${i}\n`)));
      const script = targets.map((t, i) => `git notes --ref=handoff add -m 'note ${i}' ${t}`).join(' && ');
      const r = spawnSync('sh', ['-c', script], { cwd: repo.dir, env: repo.tick(), encoding: 'utf8' });
      expect(r.status, r.stderr).toBe(0);
      const root = repo.git('rev-parse', 'refs/notes/handoff^{tree}').trim();
      expect(await fanoutDepth(store, root)).toBeGreaterThan(0);
      const native = nativeList(repo);
      expect(native.size).toBe(150);
      const ours = await listNotes(store, root);
      expect(new Map(ours.map((n) => [n.target, n.blob]))).toEqual(native);
      for (const [i, t] of targets.entries()) {
        const note = await findNote(store, root, t);
        const blob = await store.read(note!.blob);
        expect(blob!.data.toString()).toBe(`note ${i}\n`);
      }
      // And our writer on top of native git's tree: no duplicate, native git still reads all.
      let tree = root;
      for (const t of targets.slice(0, 40)) tree = await setNote(store, tree, t, await store.write('blob', Buffer.from(`ours ${t}\n`)));
      tree = await setNote(store, tree, targets[149], null);
      await commitTree(repo, store, tree);
      const after = nativeList(repo);
      expect(after.size).toBe(149);
      expect(repo.nativeNote(targets[0])).toBe(`ours ${targets[0]}\n`);
      expect(repo.nativeNote(targets[100])).toBe('note 100\n');
      repo.fsck();
    } finally {
      store.close();
    }
  });

  it('writes trees that `git notes list/show` read, across our fan-out threshold, and reads native edits back', async () => {
    const repo = TestRepo.init();
    repo.commit('init');
    const store = storeOf(repo);
    try {
      await fc.assert(
        fc.asyncProperty(fc.integer({ min: 200, max: 320 }), fc.integer({ min: 0, max: 40 }), fc.nat(), async (count, removals, salt) => {
          const targets: string[] = [];
          for (let i = 0; i < count; i++) targets.push(await store.write('blob', Buffer.from(`target ${salt} ${i}\n`)));
          let tree = EMPTY_TREE_OID;
          const model = new Map<string, string>();
          for (const t of targets) {
            const blob = await store.write('blob', Buffer.from(`handoff for ${t}\n`));
            tree = await setNote(store, tree, t, blob);
            model.set(t, blob);
          }
          for (const t of targets.slice(0, removals)) {
            tree = await setNote(store, tree, t, null);
            model.delete(t);
          }
          await commitTree(repo, store, tree);
          expect(nativeList(repo)).toEqual(model);
          const sample = targets[targets.length - 1];
          expect(repo.nativeNote(sample)).toBe(`handoff for ${sample}\n`);
          repo.fsck();

          // Native git edits our tree; we read its result exactly as it lists it.
          const fresh = targets.slice(0, 3);
          repo.git('notes', '--ref=handoff', 'add', '-f', '-m', 'native one', fresh[0]);
          repo.git('notes', '--ref=handoff', 'remove', targets[targets.length - 1]);
          const nativeRoot = repo.git('rev-parse', 'refs/notes/handoff^{tree}').trim();
          const ours = await listNotes(store, nativeRoot);
          expect(new Map(ours.map((n) => [n.target, n.blob]))).toEqual(nativeList(repo));
          // Every tree entry is sorted and unique, as fsck --strict demands.
          const top = parseTree((await store.read(nativeRoot))!.data);
          expect(new Set(top.map((e) => e.name)).size).toBe(top.length);
          repo.git('update-ref', '-d', 'refs/notes/handoff');
        }),
        { numRuns: 3 },
      );
    } finally {
      store.close();
    }
  });
});
