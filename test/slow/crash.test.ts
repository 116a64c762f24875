import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { existsSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { handoff, cliPath } from '../helpers/cli.js';
import { TestRepo } from '../helpers/repo.js';

const ROUNDS = 40;
const WRITERS = 2;

/** A small seeded generator, so a failing run can be repeated with its seed. */
function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** Runs `git handoff write`, killing its whole process group (git, node, git's children) after `killAfterMs`. */
function writeKilledAfter(repo: TestRepo, summary: string, killAfterMs: number): Promise<{ code: number | null; killed: boolean; ms: number }> {
  const start = Date.now();
  return new Promise((resolve) => {
    const child = spawn('git', ['handoff', 'write', '--summary', summary], {
      cwd: repo.dir,
      env: { ...repo.tick(), PATH: cliPath() },
      detached: true,
      stdio: 'ignore',
    });
    let killed = false;
    const timer = setTimeout(() => {
      try {
        process.kill(-child.pid!, 'SIGKILL');
        killed = true;
      } catch {
        // already gone
      }
    }, killAfterMs);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, killed: killed && code === null, ms: Date.now() - start });
    });
  });
}

describe('crash safety: writers killed with SIGKILL at random moments', () => {
  it('leaves the ref on a complete version, fsck clean, and the next write working', async () => {
    const seed = Number(process.env.HANDOFF_KILL_SEED ?? Date.now() % 1e9);
    const random = prng(seed);
    const repo = TestRepo.init();
    const head = repo.commit('feat: start', { 'a.txt': 'a\n' });
    const lock = join(repo.dir, '.git', 'refs', 'notes', 'handoff.lock');

    // How long concurrent writes take here; kill points spread over the second half of a
    // write's life, where objects are written and the ref moves (start-up is less telling).
    const calibration = await Promise.all(Array.from({ length: WRITERS }, (_, i) => writeKilledAfter(repo, `baseline ${i}`, 30_000)));
    expect(calibration.map((r) => r.code)).toEqual(calibration.map(() => 0));
    let span = Math.max(...calibration.map((r) => r.ms));

    const completed: string[] = calibration.map((_, i) => `baseline ${i}`);
    const attempted = new Set(completed);
    let killed = 0;
    for (let round = 0; round < ROUNDS; round++) {
      const runs = Array.from({ length: WRITERS }, (_, i) => {
        const summary = `round ${round} writer ${i}`;
        attempted.add(summary);
        return writeKilledAfter(repo, summary, span * (0.4 + 0.8 * random())).then((r) => ({ ...r, summary }));
      });
      for (const r of await Promise.all(runs)) {
        if (r.killed) killed++;
        else if (r.code === 0) {
          completed.push(r.summary);
          span = 0.7 * span + 0.3 * r.ms;
        } else expect.fail(`seed ${seed}: a write that was not killed exited ${r.code}`);
      }
      // A writer killed inside git update-ref leaves the lock: doctor removes it once stale.
      if (existsSync(lock)) {
        const old = Date.now() / 1000 - 60;
        utimesSync(lock, old, old);
        const fix = handoff(repo, ['doctor', '--fix']);
        expect(fix.code, `seed ${seed}: ${fix.stdout}${fix.stderr}`).toBe(0);
      }
      // The ref always points at a complete version that native git reads.
      const note = repo.nativeNote(head);
      expect(note, `seed ${seed}, round ${round}`).toMatch(/^schema: 1\n/);
      expect(note).toMatch(/^summary: (baseline \d|round \d+ writer \d+)$/m);
    }
    expect(killed, `seed ${seed}: no write was ever killed`).toBeGreaterThan(0);

    repo.fsck();
    const log = handoff(repo, ['log', '--json']).json.versions as { summary: string; valid: boolean }[];
    expect(log.every((v) => v.valid)).toBe(true);
    const logged = new Set(log.map((v) => v.summary));
    for (const s of completed) expect(logged.has(s), `seed ${seed}: completed write '${s}' is missing`).toBe(true);
    for (const s of logged) expect(attempted.has(s)).toBe(true);
    const after = handoff(repo, ['write', '--summary', 'after the storm', '--json']);
    expect(after.code, after.stderr).toBe(0);
    expect(handoff(repo, ['show', '--json']).json.handoff.summary).toBe('after the storm');
    repo.fsck();
  });
});
