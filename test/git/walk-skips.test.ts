/**
 * The region finder of src/git/walk-skips.ts against real git: from a commit that records
 * nothing, git streams the raw commits and the finder names every way out of the region (the
 * first commits met that record something, or none), and how many commits it holds; a region
 * too small to be worth a record, or left through too many commits, is none. And the walk
 * stops at this process's read deadline (src/git/read-budget.ts), keeping the line it read.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { TestRepo, isolatedEnv } from '../helpers/repo.js';
import { Repo } from '../../src/git/repo.js';
import { HandoffStore } from '../../src/git/handoff-store.js';
import { WalkSkips } from '../../src/git/walk-skips.js';
import { setReadDeadline } from '../../src/git/read-budget.js';
import { walkVersions } from '../../src/history/walk.js';

const saved = { ...process.env };
beforeAll(() => {
  for (const k of Object.keys(process.env)) delete process.env[k];
  Object.assign(process.env, isolatedEnv());
});
afterAll(() => {
  for (const k of Object.keys(process.env)) delete process.env[k];
  Object.assign(process.env, saved);
});
afterEach(() => setReadDeadline(Infinity));

const data = (text: string) => `data ${Buffer.byteLength(text)}\n${text}`;
const at = (n: number) => `committer M <m@example.com> ${1767225600 + n} +0000\n`;

/** A root commit `base` without our trailers (to the finder's rule, one that may record something: a way out), then `build`'s commits on refs/notes/handoff. */
function repoWith(build: (s: string[]) => void): { repo: TestRepo; tip: string; base: string } {
  const repo = TestRepo.init();
  const s = [`commit refs/notes/handoff\nmark :1\n${at(0)}${data('base\n')}\nM 100644 inline x\n${data('x\n')}\n`];
  build(s);
  const r = repo.gitRaw(['fast-import', '--quiet'], { input: s.join('') });
  expect(r.status, r.stderr).toBe(0);
  return { repo, tip: repo.git('rev-parse', 'refs/notes/handoff').trim(), base: repo.git('rev-list', '--max-parents=0', 'refs/notes/handoff').trim() };
}

/** `n` receipts on refs/notes/handoff, marks from `first` on, the first on `from`. */
function receipts(s: string[], n: number, first: number, from: string): void {
  for (let i = 0; i < n; i++)
    s.push(`commit refs/notes/handoff\nmark :${first + i}\n${at(first + i)}${data(`r ${i}\n\nHandoff-Kind: receipt\n`)}${i ? '' : `from ${from}\n`}\n`);
}

async function find(repo: TestRepo, top: string, deadline?: number) {
  const r = await Repo.discover(repo.dir);
  try {
    return await new WalkSkips(r).find(top, deadline);
  } finally {
    r.close();
  }
}

describe('WalkSkips.find', () => {
  it('a line of receipts: left at the commit below it', async () => {
    const { repo, tip, base } = repoWith((s) => receipts(s, 300, 2, ':1'));
    expect(await find(repo, tip)).toEqual({ below: [base], length: 300 });
  });

  it('a chain of merges, each with a receipt beside it: one region, left at the commit below both', async () => {
    const { repo, tip, base } = repoWith((s) => {
      for (let i = 0; i < 150; i++) {
        const [r, m] = [2 + 2 * i, 3 + 2 * i];
        s.push(`commit refs/heads/side\nmark :${r}\n${at(r)}${data('r\n\nHandoff-Kind: receipt\n')}from :1\n\n`);
        s.push(
          `commit refs/notes/handoff\nmark :${m}\n${at(m)}${data(i % 2 ? 'merge\n' : 'merge\n\nHandoff-Kind: merge\n')}${i ? '' : 'from :1\n'}merge :${r}\n\n`,
        );
      }
    });
    expect(await find(repo, tip)).toEqual({ below: [base], length: 300 });
  });

  it('stops at a version and at a plain commit (only its trees tell), and names both', async () => {
    const { repo, tip, base } = repoWith((s) => {
      s.push(`commit refs/heads/plain\nmark :2\n${at(2)}${data('tidy\n')}from :1\n\n`);
      s.push(`commit refs/notes/handoff\nmark :3\n${at(3)}${data(`v\n\nHandoff-Kind: version\nHandoff-Target: ${'a'.repeat(40)}\n`)}from :1\n\n`);
      s.push(`commit refs/notes/handoff\nmark :4\n${at(4)}${data('join\n')}merge :2\n\n`);
      receipts(s, 300, 5, ':4');
    });
    const plain = repo.git('rev-parse', 'refs/heads/plain').trim();
    const version = repo.git('rev-parse', 'refs/notes/handoff~301').trim();
    const found = await find(repo, tip);
    expect(found?.length).toBe(301);
    expect(new Set(found?.below)).toEqual(new Set([plain, version]));
    expect(found?.below).not.toContain(base);
  });

  it('a region under 256 commits, or one with more than 64 ways out, is none; past the deadline it names what it has not read', async () => {
    const small = repoWith((s) => receipts(s, 100, 2, ':1'));
    expect(await find(small.repo, small.tip)).toBeNull();
    const wide = repoWith((s) => {
      for (let i = 0; i < 65; i++) s.push(`commit refs/heads/p${i}\nmark :${2 + i}\n${at(2 + i)}${data(`p ${i}\n`)}from :1\n\n`);
      s.push(`commit refs/notes/handoff\nmark :100\n${at(100)}${data('octopus\n')}${Array.from({ length: 65 }, (_, i) => `merge :${2 + i}\n`).join('')}\n`);
      receipts(s, 300, 101, ':100');
    });
    expect(await find(wide.repo, wide.tip)).toBeNull();
    const long = repoWith((s) => receipts(s, 1500, 2, ':1'));
    const part = await find(long.repo, long.tip, 0);
    expect(part!.length).toBeGreaterThanOrEqual(256);
    expect(part!.length).toBeLessThan(1500);
    expect(part!.below).toEqual([long.repo.git('rev-parse', `refs/notes/handoff~${part!.length}`).trim()]);
  });
});

describe('the walk past the read deadline', () => {
  it('stops, and keeps the line it read for the next walk', async () => {
    const { repo, tip } = repoWith((s) => {
      for (let i = 0; i < 400; i++)
        s.push(`commit refs/notes/handoff\nmark :${2 + i}\n${at(2 + i)}${data(`tidy ${i}\n`)}\nM 100644 inline y\n${data(`${i}\n`)}\n`);
    });
    const r = await Repo.discover(repo.dir);
    try {
      let read = 0;
      setReadDeadline(Date.now() + 60_000);
      const walk = async () => {
        for await (const _ of walkVersions(new HandoffStore(r), tip)) if (++read === 300) setReadDeadline(0);
      };
      await expect(walk()).rejects.toMatchObject({ name: 'ReadOverBudget' });
      const file = join(repo.gitDir(), 'handoff', 'walk-skips.json');
      expect(existsSync(file)).toBe(true);
      const [[top, below, length]] = JSON.parse(readFileSync(file, 'utf8')).skips as [string, string[], number][];
      expect(top).toBe(tip);
      expect(length).toBeGreaterThanOrEqual(300);
      expect(below).toEqual([repo.git('rev-parse', `refs/notes/handoff~${length}`).trim()]);
    } finally {
      r.close();
    }
  });
});
