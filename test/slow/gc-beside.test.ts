/**
 * Writes and reads while git packs, repacks and prunes the same repository: `git repack -d`,
 * `git repack -a -d`, `git prune-packed` and `git gc` in a loop beside a bounded loop of
 * `write`, `show` and `log`. Nothing may fail, nothing may say "corrupt", every version
 * written is there at the end and `git fsck --strict` is clean.
 */
import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { TestRepo } from '../helpers/repo.js';
import { handoffAsync } from '../helpers/cli.js';

const WRITES = 40;
const BUDGET_MS = 150_000;

describe('beside git gc, repack and prune-packed', () => {
  it(`${WRITES} writes, each followed by a show and a log, while git repacks in a loop: no failure, every version kept, fsck clean`, async () => {
    const repo = TestRepo.init();
    for (let i = 0; i < 30; i++) repo.commit(`feat: step ${i}`, { [`f${i % 5}.txt`]: `${i}\n`.repeat(50) });
    const started = Date.now();
    let stop = false;
    let gcRounds = 0;
    const gcFailures: string[] = [];
    const gitOnce = (args: string[]) =>
      new Promise<void>((resolve) => {
        const child = spawn('git', args, { cwd: repo.dir, env: repo.env, stdio: ['ignore', 'ignore', 'pipe'] });
        let err = '';
        child.stderr.on('data', (b) => (err += b));
        child.on('close', (code) => {
          // git's own lock contention between its repacks is not ours to judge
          if (code !== 0 && !/lock|another git process/i.test(err)) gcFailures.push(`git ${args.join(' ')}: ${err.trim()}`);
          resolve();
        });
      });
    const gcLoop = (async () => {
      while (!stop && Date.now() - started < BUDGET_MS) {
        await gitOnce(['repack', '-d', '-q']);
        await gitOnce(['repack', '-a', '-d', '-q']);
        await gitOnce(['prune-packed']);
        if (gcRounds % 3 === 2) await gitOnce(['gc', '--quiet']); // (--prune=now would delete what any writer has not yet referenced, git's own included)
        gcRounds++;
      }
    })();

    const failures: string[] = [];
    let written = 0;
    let attempted = 0;
    try {
      for (let i = 0; i < WRITES && Date.now() - started < BUDGET_MS; i++) {
        attempted++;
        const w = await handoffAsync(repo, ['write', '--summary', `version ${i} of the parser work`, '--json']);
        if (w.code !== 0 || /corrupt/i.test(w.stderr)) failures.push(`write ${i}: exit ${w.code} ${w.stderr.trim()}`);
        else written++;
        const s = await handoffAsync(repo, ['show', '--json']);
        if (s.code !== 0 || /corrupt/i.test(s.stderr) || s.json?.handoff?.summary !== `version ${i} of the parser work`)
          failures.push(`show after ${i}: exit ${s.code} ${s.stderr.trim()} ${s.json?.handoff?.summary}`);
        const l = await handoffAsync(repo, ['log', '--json']);
        if (l.code !== 0 || /corrupt/i.test(l.stderr)) failures.push(`log after ${i}: exit ${l.code} ${l.stderr.trim()}`);
      }
    } finally {
      stop = true;
      await gcLoop;
    }
    expect(failures).toEqual([]);
    expect(gcFailures).toEqual([]);
    // every write attempted went through (on a loaded machine the time budget may end the loop early)
    expect(written).toBe(attempted);
    expect(written).toBeGreaterThanOrEqual(10);
    expect(gcRounds).toBeGreaterThan(3);
    const log = await handoffAsync(repo, ['log', '--json']);
    expect(log.code, log.stderr).toBe(0);
    const summaries = new Set(JSON.stringify(log.json).match(/version \d+ of the parser work/g));
    expect(summaries.size).toBe(written);
    repo.fsck();
  });
});
