/**
 * The note blobs a push sends, as the outgoing scan finds them (src/git/pushed-blobs.ts:
 * what each commit introduces against all its parents), against what git itself would send
 * (`git rev-list --objects tip ^remote`): on random histories with branches, merges whose
 * trees differ from both parents, notes at both fan-out depths, deletions, blobs that come
 * back, and bookkeeping files beside the notes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { TestRepo, isolatedEnv } from '../helpers/repo.js';
import { Repo } from '../../src/git/repo.js';
import { introducedBlobs, isNotePath } from '../../src/git/pushed-blobs.js';

const saved = { ...process.env };
beforeAll(() => {
  for (const k of Object.keys(process.env)) delete process.env[k];
  Object.assign(process.env, isolatedEnv());
});
afterAll(() => {
  for (const k of Object.keys(process.env)) delete process.env[k];
  Object.assign(process.env, saved);
});

/** A small deterministic generator (the histories are the same on every run). */
function random(seed: number): (n: number) => number {
  let s = seed >>> 0;
  return (n) => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s % n;
  };
}

const data = (text: string) => `data ${Buffer.byteLength(text)}\n${text}\n`;

/** A history of 80 commits on refs/notes/x; the marks' commit ids, oldest first. */
function build(seed: number): { repo: TestRepo; commits: string[] } {
  const rnd = random(seed);
  const repo = TestRepo.init();
  const targets = Array.from({ length: 8 }, (_, i) => (i + 1).toString(16).repeat(40).slice(0, 40));
  const paths = [...targets, ...targets.map((t) => `${t.slice(0, 2)}/${t.slice(2)}`), 'items/local/1.json', 'receipts/r.json'];
  let s = '';
  for (let i = 1; i <= 80; i++) {
    s += `commit refs/notes/x\nmark :${i}\ncommitter T <t@example.com> ${1767225600 + i} +0000\n${data(`c ${i}`)}`;
    if (i > 1) s += `from :${i - 1 - rnd(Math.min(i - 1, 6))}\n`;
    if (i > 3 && rnd(4) === 0) s += `merge :${1 + rnd(i - 1)}\n`;
    for (let k = rnd(3); k >= 0; k--) {
      const path = paths[rnd(paths.length)];
      // Contents name their path (a blob is at one path) and come back (a blob met before).
      s += rnd(6) === 0 ? `D ${path}\n` : `M 100644 inline ${path}\n${data(`${path} ${rnd(3)}`)}`;
    }
    s += '\n';
  }
  const r = spawnSync('git', ['fast-import', '--quiet', '--export-marks=marks'], { cwd: repo.dir, input: s, env: process.env });
  expect(r.status, String(r.stderr)).toBe(0);
  const marks = new Map(
    readFileSync(join(repo.dir, 'marks'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => l.split(' ') as [string, string]),
  );
  return { repo, commits: Array.from({ length: 80 }, (_, i) => marks.get(`:${i + 1}`)!) };
}

describe('introducedBlobs', () => {
  it('holds every note blob git would push, and nothing but notes', async () => {
    for (const seed of [1, 2, 3, 4, 5]) {
      const { repo, commits } = build(seed);
      const r = await Repo.discover(repo.dir);
      const rnd = random(seed * 7);
      for (let round = 0; round < 4; round++) {
        const tip = commits[40 + rnd(40)];
        const not = round === 0 ? null : commits[rnd(60)];
        const range = repo
          .git('rev-list', tip, ...(not ? [`^${not}`] : []), '--')
          .trim()
          .split('\n')
          .filter(Boolean);
        const found = await introducedBlobs(r, range);
        const got = new Set(found.map((b) => b.blob));
        const sent = repo
          .git('rev-list', '--objects', tip, ...(not ? [`^${not}`] : []), '--')
          .split('\n')
          .map((l) => l.split(' '))
          .filter(([oid, path]) => path && isNotePath(path) && repo.git('cat-file', '-t', oid).trim() === 'blob')
          .map(([oid]) => oid);
        for (const oid of sent) expect(got.has(oid), `seed ${seed} round ${round}: ${oid}`).toBe(true);
        for (const b of found) {
          expect(isNotePath(b.path)).toBe(true);
          expect(range).toContain(b.commit);
          expect(repo.git('rev-parse', `${b.commit}:${b.path}`).trim()).toBe(b.blob);
        }
      }
    }
  });

  it('takes a note path at any fan-out depth, and nothing else', () => {
    const t = 'ab'.repeat(20);
    for (const p of [t, `ab/${t.slice(2)}`, `ab/ab/${t.slice(4)}`, 'c'.repeat(64)]) expect(isNotePath(p), p).toBe(true);
    for (const p of ['items/local/1.json', `${t}x`, `abc/${t.slice(3)}`, t.toUpperCase(), `ab/${t}`, '', `/${t}`]) expect(isNotePath(p), p).toBe(false);
  });
});
