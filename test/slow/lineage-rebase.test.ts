/**
 * Issue 22, many runs: a rebased branch with a handoff per commit, 2, 3 and 5 commits,
 * eight seeds each (24 runs), so that the hex order of the copied notes' targets varies.
 * Every reader must name the last handoff written, every time; no handoff is due after it.
 */
import { describe, expect, it } from 'vitest';
import { handoff } from '../helpers/cli.js';
import { expectAllSay, installedRepo, rebasedBranch } from '../helpers/lineage-scenarios.js';

const SEEDS = [1, 2, 3, 4, 5, 6, 7, 8];

describe('rebases, run after run', () => {
  for (const n of [2, 3, 5]) {
    it(`a ${n}-commit branch rebased onto main, ${SEEDS.length} times with varied content`, () => {
      const repo = installedRepo();
      for (const seed of SEEDS) {
        const { last, summary, note } = rebasedBranch(repo, n, seed);
        expectAllSay(repo, last, summary);
        const show = handoff(repo, ['show', '--json']).json;
        expect(show.due, `seed ${seed}: no handoff due`).toBe(false);
        expect(show.target).toBe(repo.head());
        expect(show.diverged).toBe(false);
        const w = handoff(repo, ['write', '--json', '--summary', `after rebase ${seed}`]);
        expect(w.json.handoff.soft_context.notes).toContain(note);
        repo.git('checkout', '-q', 'main');
      }
      repo.fsck();
    });
  }
});
