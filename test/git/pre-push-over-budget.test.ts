/**
 * The pre-push hook after a merge-and-push (src/app/sync.ts): once the remote and the local
 * ref have moved, the divergence check that follows is a read of the notes history under the
 * hook's deadline (src/app/hook-budget.ts). When that read stops at the deadline, the hook
 * still says what happened (merged and pushed), never "not pushed". The deadline is forced
 * at that one read by making `currentDivergence` throw what the walk throws there.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { TestRepo, isolatedEnv } from '../helpers/repo.js';
import { handoff } from '../helpers/cli.js';
import { plainPainter } from '../../src/core/bookmark.js';
import { ReadOverBudget } from '../../src/git/read-budget.js';
import type { Io } from '../../src/app/io.js';

const over = vi.hoisted(() => ({ on: false }));
vi.mock('../../src/app/show.js', async (original) => {
  const real = await original<typeof import('../../src/app/show.js')>();
  return {
    ...real,
    currentDivergence: async (...args: Parameters<typeof real.currentDivergence>) => {
      if (over.on) throw new ReadOverBudget(4242);
      return real.currentDivergence(...args);
    },
  };
});
const { run } = await import('../../src/app/hooks/pre-push.js');

const saved = { ...process.env };
beforeAll(() => {
  for (const k of Object.keys(process.env)) delete process.env[k];
  Object.assign(process.env, isolatedEnv());
});
afterAll(() => {
  for (const k of Object.keys(process.env)) delete process.env[k];
  Object.assign(process.env, saved);
  over.on = false;
});

describe('pre-push when the divergence check after the push stops at the read deadline', () => {
  it('says it merged and pushed, not "not pushed", and the remote has the merge', async () => {
    const bare = TestRepo.init({ bare: true });
    const a = TestRepo.init();
    a.commit('feat: start', { 'a.txt': 'a\n' });
    a.git('remote', 'add', 'origin', bare.dir);
    expect(handoff(a, ['write', '--summary', 'first']).code).toBe(0);
    a.git('push', '-q', 'origin', 'main', 'refs/notes/handoff');
    const b = TestRepo.init({ branch: 'scratch' });
    b.git('remote', 'add', 'origin', bare.dir);
    b.git('fetch', '-q', 'origin', 'main:main', '+refs/notes/handoff:refs/notes/handoff');
    b.git('checkout', '-q', 'main');
    b.git('update-ref', 'refs/notes/remotes/origin/handoff', 'refs/notes/handoff');
    // a writes and pushes; b writes on its own: the two histories differ, so the hook merges
    a.commit('feat: a', { 'b.txt': 'b\n' });
    expect(handoff(a, ['write', '--summary', 'from a']).code).toBe(0);
    a.git('push', '-q', 'origin', 'refs/notes/handoff');
    b.commit('feat: b', { 'c.txt': 'c\n' });
    expect(handoff(b, ['write', '--summary', 'from b']).code).toBe(0);
    const before = bare.git('rev-parse', 'refs/notes/handoff').trim();

    const err: string[] = [];
    const io: Io = { out: () => {}, err: (l) => err.push(l), json: () => {}, color: false, paint: plainPainter, stdinIsTTY: false };
    over.on = true;
    const code = await run({ io, cwd: b.dir, args: ['origin', bare.dir], stdin: async () => '' });
    over.on = false;

    expect(code).toBe(0);
    const text = err.join('\n');
    expect(text).not.toMatch(/not pushed/);
    expect(err[0]).toBe('git-handoff: merged 1 handoff version(s) from origin and pushed the handoff history');
    expect(text).toMatch(/was not checked/);
    const after = bare.git('rev-parse', 'refs/notes/handoff').trim();
    expect(after).not.toBe(before);
    expect(after).toBe(b.git('rev-parse', 'refs/notes/handoff').trim());
    expect(b.git('rev-list', '--parents', '-1', 'refs/notes/handoff').trim().split(' ')).toHaveLength(3);
  });
});
