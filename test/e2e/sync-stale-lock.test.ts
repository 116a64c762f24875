/**
 * A sync killed while git fetch held the tracking ref's lock leaves
 * `refs/notes/remotes/origin/handoff.lock` behind: every later fetch is refused. The next
 * sync names that lock and the way out, at once, instead of retrying until its budget is
 * gone and reporting a remote that "kept changing".
 */
import { describe, expect, it } from 'vitest';
import { existsSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { TestRepo } from '../helpers/repo.js';
import { handoff } from '../helpers/cli.js';

describe('a stale lock on the tracking ref', () => {
  it('sync names the lock file and doctor --fix; after the fix the sync goes through', () => {
    const remote = TestRepo.init({ bare: true });
    const [a, b] = [TestRepo.init(), TestRepo.init()];
    for (const r of [a, b]) {
      r.commit('feat: start', { 'a.txt': '1\n' });
      r.git('remote', 'add', 'origin', remote.dir);
    }
    expect(handoff(a, ['write', '--summary', 'from a']).code).toBe(0);
    expect(handoff(a, ['sync']).code).toBe(0);
    expect(handoff(b, ['sync']).code).toBe(0);
    expect(handoff(a, ['write', '--summary', 'from a, again']).code).toBe(0);
    expect(handoff(a, ['sync']).code).toBe(0);

    // b's sync was killed while git fetch held the tracking ref's lock, a minute ago
    const lock = join(b.dir, '.git/refs/notes/remotes/origin/handoff.lock');
    writeFileSync(lock, '');
    const old = new Date(Date.now() - 60_000);
    utimesSync(lock, old, old);
    b.git('config', 'handoff.sync.timeout', '20');

    const started = Date.now();
    const r = handoff(b, ['sync', '--json']);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toMatch(
      new RegExp(
        `^git handoff: refs/notes/remotes/origin/handoff is locked by ${lock.replace(/[.]/g, '\\.')} \\(\\d+s old\\); if no git-handoff or git process is running, run 'git handoff doctor --fix'\\n$`,
      ),
    );
    expect(r.json.error.code).toBe('LockHeld');

    expect(handoff(b, ['doctor', '--fix']).code).toBe(0);
    expect(existsSync(lock)).toBe(false);
    const again = handoff(b, ['sync', '--json']);
    expect(again.code, again.stderr).toBe(0);
    expect(b.notesRef()).toBe(a.notesRef());
  });
});
