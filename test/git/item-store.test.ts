/**
 * Work-item bookkeeping under concurrency, in-process against a real repository: a writer
 * that read an older tip must build on the tip it lands on, losing nothing another wrote.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestRepo, isolatedEnv } from '../helpers/repo.js';
import { Repo } from '../../src/git/repo.js';
import { ItemStore } from '../../src/git/item-store.js';

const saved = { ...process.env };
beforeAll(() => {
  for (const k of Object.keys(process.env)) delete process.env[k];
  Object.assign(process.env, isolatedEnv({ GIT_COMMITTER_DATE: '@1767225600 +0000', GIT_AUTHOR_DATE: '@1767225600 +0000' }));
});
afterAll(() => {
  for (const k of Object.keys(process.env)) delete process.env[k];
  Object.assign(process.env, saved);
});

describe('policy approvals', () => {
  it('a stale writer keeps an approval made meanwhile', async () => {
    const repo = TestRepo.init();
    repo.commit('init');
    const [x, y] = ['1'.repeat(40), '2'.repeat(40)];
    const stale = await Repo.discover(repo.dir);
    const other = await Repo.discover(repo.dir);
    try {
      const a = new ItemStore(stale);
      expect(await a.approvedPolicies()).toEqual([]); // a has read the (empty) tip
      await new ItemStore(other).apply({ kind: 'policy', subject: 'approve x', approvePolicy: x });
      await a.apply({ kind: 'policy', subject: 'approve y', approvePolicy: y });
      expect(repo.git('show', 'refs/notes/handoff:policy/approved')).toBe(`${x}\n${y}\n`);
      await new ItemStore(other).apply({ kind: 'policy', subject: 'approve x again', approvePolicy: x });
      expect(repo.git('show', 'refs/notes/handoff:policy/approved')).toBe(`${x}\n${y}\n`);
    } finally {
      stale.close();
      other.close();
    }
  });
});
