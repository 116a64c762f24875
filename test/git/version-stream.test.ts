/**
 * The bulk reader (src/git/version-stream.ts) against the store it stands in for: on a notes
 * history that grows from flat to fanned out (past 256 notes), with native notes, a version
 * whose note is not in its tree, a version that keeps an earlier note, bookkeeping and merge
 * commits and equal commit times, it yields what `HandoffStore.versions()` + `read()` yield,
 * in the same order, and its selections are `VersionReader.select`'s.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { TestRepo, isolatedEnv } from '../helpers/repo.js';
import { Repo } from '../../src/git/repo.js';
import { HandoffStore, type Selection } from '../../src/git/handoff-store.js';
import { streamVersions } from '../../src/git/version-stream.js';
import { VersionReader } from '../../src/history/reader.js';
import { selectBulk } from '../../src/history/bulk.js';

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
const yaml = (i: number, branch: string) =>
  `schema: 1\nsession_id: s-${i}\nstatus: active\nsummary: version ${i}\ndate: "2026-01-01T00:00:00Z"\nbranch: ${branch}\n`;

/** 300 commits, then a notes history of ~310 commits with every kind of commit `versions()` meets. */
function build(): { repo: TestRepo; targets: string[] } {
  const repo = TestRepo.init();
  const base = 1767225600;
  let s = '';
  for (let i = 1; i <= 300; i++) {
    s += `commit refs/heads/main\nmark :${i}\ncommitter T <t@example.com> ${base + i} +0000\n${data(`c ${i}`)}${i > 1 ? `from :${i - 1}\n` : ''}\n`;
  }
  const r1 = spawnSync('git', ['fast-import', '--quiet', '--export-marks=marks'], { cwd: repo.dir, input: s, env: process.env });
  expect(r1.status, String(r1.stderr)).toBe(0);
  const targets = repo.git('rev-list', '--reverse', 'main').trim().split('\n');
  let n = '';
  let mark = 1000;
  let t = base + 1000;
  const ours = (target: string, branch: string, note: string | null, time = t++) => {
    n += `commit refs/notes/handoff\nmark :${++mark}\ncommitter T <t@example.com> ${time} +0000\n`;
    n += data(`handoff ${target.slice(0, 7)}\n\nHandoff-Kind: version\nHandoff-Target: ${target}\nHandoff-Branch: ${branch}\n`);
    if (note !== null) n += `N inline ${target}\n${data(note)}`;
    n += '\n';
  };
  for (let i = 0; i < 280; i++) {
    ours(targets[i], i % 7 === 0 ? 'other' : 'main', yaml(i, i % 7 === 0 ? 'other' : 'main'), i === 5 || i === 6 ? base + 1005 : undefined);
    if (i === 100) {
      // A native note (no trailers: its branch is in the note), and an invalid one that names none.
      n += `commit refs/notes/handoff\nmark :${++mark}\ncommitter T <t@example.com> ${t++} +0000\n${data('Notes added by git notes add\n')}N inline ${targets[290]}\n${data(yaml(9000, 'main'))}\n`;
      n += `commit refs/notes/handoff\nmark :${++mark}\ncommitter T <t@example.com> ${t++} +0000\n${data('Notes added by git notes add\n')}N inline ${targets[291]}\n${data('summary: [unclosed\n')}\n`;
      // Bookkeeping, and a version whose note is not in its tree.
      n += `commit refs/notes/handoff\nmark :${++mark}\ncommitter T <t@example.com> ${t++} +0000\n${data('receipt\n\nHandoff-Kind: receipt\n')}M 100644 inline receipts/x\n${data('x\n')}\n`;
      ours(targets[295], 'main', null);
      // The same note again (a version that changed nothing in the tree).
      ours(targets[100], 'main', null);
    }
  }
  // A merge of two lines with equal commit times (sync joins histories this way).
  n += `commit refs/notes/side\nmark :${++mark}\ncommitter T <t@example.com> ${t} +0000\n${data('side\n\nHandoff-Kind: version\nHandoff-Target: ' + targets[296] + '\nHandoff-Branch: side\n')}from :${mark - 1}\nN inline ${targets[296]}\n${data(yaml(296, 'side'))}\n`;
  const side = mark;
  ours(targets[297], 'main', yaml(297, 'main'), t);
  n += `commit refs/notes/handoff\nmark :${++mark}\ncommitter T <t@example.com> ${t + 1} +0000\n${data('merge\n\nHandoff-Kind: merge\n')}merge :${side}\nN inline ${targets[296]}\n${data(yaml(296, 'side'))}\n`;
  const r2 = spawnSync('git', ['fast-import', '--quiet', '--import-marks=marks'], { cwd: repo.dir, input: n, env: process.env });
  expect(r2.status, String(r2.stderr)).toBe(0);
  return { repo, targets };
}

const strip = <T extends { commit?: unknown; blob?: unknown }>(v: T) => {
  const { commit: _, blob: __, ...rest } = v;
  return rest;
};

describe('the bulk version reader', () => {
  const { repo } = build();

  it('yields what the store walk and read yield, in the same order', async () => {
    const r = await Repo.discover(repo.dir);
    try {
      const store = new HandoffStore(r);
      const tip = (await store.tip())!;
      const expected = [];
      for await (const v of store.versions()) expected.push(strip(await store.read(v)));
      const got = [];
      for await (const v of streamVersions(r, tip)) got.push(v);
      expect(expected.length).toBeGreaterThan(280);
      // The history does hold flat and fanned-out notes, and the odd cases.
      expect(
        repo
          .git('ls-tree', 'refs/notes/handoff~200')
          .split('\n')
          .some((l) => /\t[0-9a-f]{40}$/.test(l)),
      ).toBe(true);
      expect(
        repo
          .git('ls-tree', 'refs/notes/handoff')
          .split('\n')
          .some((l) => /\t[0-9a-f]{2}$/.test(l)),
      ).toBe(true);
      expect(expected.some((v) => v.native && !v.valid)).toBe(true);
      expect(expected.some((v) => v.problems[0] === 'the note is missing from this version')).toBe(true);
      expect(got).toEqual(expected);
    } finally {
      r.close();
    }
  });

  it('leaves out what another commit has (the versions a remote lacks), in rev-list order', async () => {
    const r = await Repo.discover(repo.dir);
    try {
      const store = new HandoffStore(r);
      const tip = (await store.tip())!;
      const base = repo.git('rev-parse', 'refs/notes/handoff~150').trim();
      const lacking = repo.git('rev-list', tip, `^${base}`).trim().split('\n');
      const expected = [];
      for (const id of lacking) {
        const v = await store.versionOf(id, await store.readCommit(id));
        if (v) expected.push(strip(await store.read(v)));
      }
      const got = [];
      for await (const v of streamVersions(r, tip, undefined, base)) got.push(v);
      expect(expected.length).toBeGreaterThan(100);
      expect(got).toEqual(expected);
    } finally {
      r.close();
    }
  });

  it('hands on the versions whose note is not wanted as their commit says them', async () => {
    const r = await Repo.discover(repo.dir);
    try {
      const tip = (await new HandoffStore(r).tip())!;
      const got = [];
      for await (const v of streamVersions(r, tip, (u) => u.branch === 'other')) got.push(v);
      const plain = got.filter((v) => !('valid' in v));
      expect(plain.length).toBeGreaterThan(200);
      expect(plain.every((v) => v.branch !== 'other' && !v.native)).toBe(true);
      expect(got.filter((v) => v.branch === 'other').every((v) => 'valid' in v)).toBe(true);
    } finally {
      r.close();
    }
  });

  it('selects as VersionReader.select does, and stops cleanly when the reader stops early', async () => {
    for (const sel of [{ all: true }, { branch: 'main' }, { branch: 'other' }, { branch: 'none-yet' }, { branch: null }] as Selection[]) {
      const r = await Repo.discover(repo.dir);
      try {
        const a = await new VersionReader(r).select(sel);
        const expected = [];
        for await (const v of a.versions) expected.push(strip(v));
        const b = await selectBulk(r, sel);
        const got = [];
        for await (const v of b.versions) got.push(v);
        expect({ sel, ids: got.map((v) => v.id) }).toEqual({ sel, ids: expected.map((v) => v.id) });
        expect(got).toEqual(expected);
        expect(b.fallback()).toBe(a.fallback());
        const c = await selectBulk(r, sel);
        let k = 0;
        for await (const _ of c.versions) if (++k === 3) break;
        expect(k).toBe(Math.min(3, expected.length));
      } finally {
        r.close();
      }
    }
  });
});
