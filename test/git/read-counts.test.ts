/**
 * What the readers cost, counted in object reads rather than timed (speed goals are
 * `npm run bench`'s): telling git's note copies from new notes lists the parent notes tree
 * once per walk, not once per native commit (a rebase at 50,000 versions made `show` list
 * 50,000 notes per copy), and `log`'s bulk reader hands each version's commit to the
 * provenance reader instead of it inflating every commit again, and `show` looks for a
 * second copy of the note it shows in the tree it has just read, not reading it again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { TestRepo, isolatedEnv } from '../helpers/repo.js';
import { handoff } from '../helpers/cli.js';
import { Repo } from '../../src/git/repo.js';
import { HandoffStore, type NoteMove } from '../../src/git/handoff-store.js';
import { EMPTY_TREE_OID } from '../../src/git/objects.js';
import { diffNotes, listNotes } from '../../src/git/notes-tree.js';
import { walkVersions } from '../../src/history/walk.js';
import { logVersions } from '../../src/app/log.js';
import { showLatest } from '../../src/app/show.js';
import { VersionReader } from '../../src/history/reader.js';

const saved = { ...process.env };
beforeAll(() => {
  for (const k of Object.keys(process.env)) delete process.env[k];
  Object.assign(process.env, isolatedEnv());
});
afterAll(() => {
  for (const k of Object.keys(process.env)) delete process.env[k];
  Object.assign(process.env, saved);
});

const data = (text: string) => `data ${Buffer.byteLength(text)}\n${text}\n`;
const NOTES = 400;
const COPIES = 8;

/** NOTES versions of ours (a fanned-out notes tree), then COPIES native `git notes copy` commits on top. */
function build(): TestRepo {
  const repo = TestRepo.init();
  const base = 1767225600;
  let s = '';
  for (let i = 1; i <= NOTES + COPIES; i++)
    s += `commit refs/heads/main\nmark :${i}\ncommitter T <t@example.com> ${base + i} +0000\n${data(`c ${i}`)}${i > 1 ? `from :${i - 1}\n` : ''}\n`;
  const r1 = spawnSync('git', ['fast-import', '--quiet', '--export-marks=marks'], { cwd: repo.dir, input: s, env: process.env });
  expect(r1.status, String(r1.stderr)).toBe(0);
  const targets = repo.git('rev-list', '--reverse', 'main').trim().split('\n');
  let n = '';
  for (let i = 0; i < NOTES; i++) {
    n += `commit refs/notes/handoff\ncommitter T <t@example.com> ${base + 1000 + i} +0000\n`;
    n += data(`handoff ${i}\n\nHandoff-Kind: version\nHandoff-Target: ${targets[i]}\nHandoff-Branch: main\nHandoff-Continues: none\n`);
    n += `N inline ${targets[i]}\n${data(`schema: 1\nsession_id: s-${i}\nstatus: active\nsummary: version ${i}\nbranch: main\n`)}\n`;
  }
  const r2 = spawnSync('git', ['fast-import', '--quiet'], { cwd: repo.dir, input: n, env: process.env });
  expect(r2.status, String(r2.stderr)).toBe(0);
  for (let i = 0; i < COPIES; i++) repo.gitRaw(['notes', '--ref=handoff', 'copy', targets[NOTES - 1 - i], targets[NOTES + i]], { env: repo.tick() });
  return repo;
}

/** Counts the reads of `repo.objects`, by the type of what was read. */
function counting(r: Repo): Record<string, number> {
  const counts: Record<string, number> = {};
  const read = r.objects.read.bind(r.objects);
  r.objects.read = async (oid: string) => {
    const o = await read(oid);
    counts[o?.type ?? 'missing'] = (counts[o?.type ?? 'missing'] ?? 0) + 1;
    return o;
  };
  return counts;
}

describe('object reads of the readers', () => {
  const repo = build();

  it('lists the parent notes tree at most once per walk to tell git copies from new notes, with the same answer', async () => {
    const r = await Repo.discover(repo.dir);
    try {
      const store = new HandoffStore(r);
      const tip = (await store.tip())!;
      // What a listing of every parent tree says (the rule itself, read the slow way first).
      const expected: NoteMove[][] = [];
      let c = tip;
      for (let i = 0; i < COPIES; i++) {
        const commit = await store.readCommit(c);
        const parentTree = (await store.readCommit(commit.parents[0])).tree;
        const held = new Map<string, string[]>();
        for (const note of await listNotes(r.objects, parentTree)) held.set(note.blob, [...(held.get(note.blob) ?? []), note.target]);
        const changed = (await diffNotes(r.objects, parentTree === EMPTY_TREE_OID ? EMPTY_TREE_OID : parentTree, commit.tree)).filter((d) => d.newBlob);
        expected.push(changed.filter((d) => held.has(d.newBlob!)).map((d) => ({ blob: d.newBlob!, from: held.get(d.newBlob!)!, target: d.target })));
        c = commit.parents[0];
      }
      expect(expected.every((m) => m.length === 1)).toBe(true);

      const fresh = await Repo.discover(repo.dir);
      try {
        const counts = counting(fresh);
        const s = new HandoffStore(fresh);
        const got: NoteMove[][] = [];
        let walked = 0;
        for await (const { id, commit } of s.walk(tip)) {
          if (walked++ === COPIES) break;
          const k = await s.classify(id, commit);
          expect(k.version).toBeNull();
          got.push(k.moves);
        }
        expect(got).toEqual(expected);
        // A listing of a fanned-out tree of 400 notes reads some 200 trees; once per copy that
        // was more than 1,600. Now: the diffs, and at most one listing.
        expect(counts.tree ?? 0).toBeLessThan(250);
      } finally {
        fresh.close();
      }

      // The walk the reader makes still moves each copied version to where its note went.
      const walked = [];
      for await (const w of walkVersions(store, tip)) if (w.version) walked.push(w.version);
      expect(walked).toHaveLength(NOTES);
    } finally {
      r.close();
    }
  });

  it("log's bulk listing does not read each version's commit again for its provenance", async () => {
    const r = await Repo.discover(repo.dir);
    try {
      const counts = counting(r);
      const rows = [];
      for await (const e of await logVersions(r, { checkBranch: false, bulk: true, all: true })) rows.push(e);
      expect(rows).toHaveLength(NOTES);
      expect(rows.every((e) => e.provenance.author.name === 'T' && e.provenance.signature === 'unsigned')).toBe(true);
      // The reader's walk to the latest and the copies on top read a few dozen; before, one more per version (400).
      expect(counts.commit ?? 0).toBeLessThan(60);
    } finally {
      r.close();
    }
  });

  it('show looks for a double note of the tip it has just read without reading a tree again', async () => {
    const small = TestRepo.init();
    small.commit('one', { 'a.txt': 'a\n' });
    const write = (summary: string) => expect(handoff(small, ['write', '--summary', summary]).code).toBe(0);
    write('first');
    small.commit('two', { 'a.txt': 'b\n' });
    write('second');
    const r = await Repo.discover(small.dir);
    try {
      const reader = new VersionReader(r);
      const picked = await reader.latest({ branch: 'main' });
      expect(picked.version?.handoff.summary).toBe('second');
      const counts = counting(r);
      const shown = await showLatest(r, reader, picked);
      expect(shown.noteCopies).toBeUndefined();
      expect(counts.tree ?? 0).toBe(0);
    } finally {
      r.close();
    }
  });
});
