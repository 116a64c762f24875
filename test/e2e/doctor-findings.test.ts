import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { handoff, type CliResult } from '../helpers/cli.js';
import { writeVersion } from '../helpers/fleet.js';
import { TestRepo } from '../helpers/repo.js';

/** A finding's level and `healthy`, the exit code and the printed lines always agree. */
function expectAgreement(json: CliResult, text: CliResult): void {
  const levels = json.json.findings.map((f: any) => f.level);
  const healthy = levels.every((l: string) => l === 'fixed' || l === 'note');
  expect(json.json.healthy).toBe(healthy);
  expect(json.code).toBe(healthy ? 0 : 1);
  expect(text.code).toBe(json.code);
  const lines = text.stdout.trim().split('\n');
  expect(lines.some((l) => l.startsWith('problem:'))).toBe(levels.includes('problem'));
  for (const f of json.json.findings) expect(f.action, f.message).toMatch(/\S/);
}

describe('doctor: findings and healthy agree', () => {
  it('one amend, one rebase and one squash leave notes, not problems; healthy, exit 0, --fix changes nothing', () => {
    const repo = TestRepo.init();
    repo.commit('feat: start', { 'a.txt': 'a\n' });
    expect(handoff(repo, ['init']).code).toBe(0);
    const step = (name: string) => {
      repo.commit(`feat: ${name}`, { [`${name}.txt`]: `${name}\n` });
      writeVersion(repo, `after ${name}`);
    };
    step('b');
    repo.git('commit', '-q', '--amend', '-m', 'feat: b, amended');
    repo.git('checkout', '-q', '-b', 'topic');
    step('t1');
    repo.git('checkout', '-q', 'main');
    step('m1');
    repo.git('checkout', '-q', 'topic');
    repo.git('rebase', '-q', 'main');
    step('s1');
    step('s2');
    const squash = repo.gitRaw(['rebase', '-q', '-i', 'HEAD~2'], { env: { GIT_SEQUENCE_EDITOR: "sed -i '2s/^pick/squash/'", GIT_EDITOR: 'true' } });
    expect(squash.status, squash.stderr).toBe(0);
    expect(repo.git('log', '--format=%s', '-1')).toMatch(/feat: s1/);

    const json = handoff(repo, ['doctor', '--json']);
    const text = handoff(repo, ['doctor']);
    expectAgreement(json, text);
    expect(json.code).toBe(0);
    expect(json.json.findings.length).toBeGreaterThanOrEqual(3);
    expect(json.json.findings.every((f: any) => f.level === 'note' && f.action === 'nothing to do')).toBe(true);
    expect(text.stdout).not.toMatch(/^(problem|fixable):/m);
    // One line for all of them, not one per rewritten commit.
    expect(text.stdout.split('\n').filter((l) => l.includes('amend, rebase or squash'))).toEqual([
      expect.stringMatching(
        new RegExp(`^note: ${json.json.findings.length} notes stay on commits a local amend, rebase or squash replaced .*\\(nothing to do\\)$`),
      ),
    ]);
    const tip = repo.notesRef();
    const fix = handoff(repo, ['doctor', '--fix']);
    expect(fix.code).toBe(0);
    expect(repo.notesRef()).toBe(tip);
  });

  it('a stale lock is fixable and says what --fix does; a writer holding its lock too long is a problem: exit 1, healthy false', async () => {
    const repo = TestRepo.init();
    repo.commit('feat: start');
    writeVersion(repo, 'first');
    const lock = join(repo.dir, '.git', 'refs', 'notes', 'handoff.lock');
    writeFileSync(lock, '');
    const old = Date.now() / 1000 - 60;
    utimesSync(lock, old, old);
    const stale = handoff(repo, ['doctor', '--json']);
    expectAgreement(stale, handoff(repo, ['doctor']));
    expect(stale.json.findings).toEqual([expect.objectContaining({ level: 'fixable', action: '--fix removes the lock' })]);

    // A process holds the lock open (a hung writer): only the user can decide.
    const holder = spawn('sh', ['-c', 'exec 3<"$0"; sleep 20', lock], { stdio: 'ignore' });
    try {
      let held: CliResult | null = null;
      for (let i = 0; i < 50; i++) {
        held = handoff(repo, ['doctor', '--json']);
        if (held.json.findings[0]?.level === 'problem') break;
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(held!.json.findings).toEqual([expect.objectContaining({ level: 'problem', kind: 'lock' })]);
      expect(held!.json.findings[0].action).toMatch(/^let process \d+ finish or stop it/);
      const text = handoff(repo, ['doctor']);
      expectAgreement(held!, text);
      expect(text.stdout).toMatch(/^problem: .*handoff\.lock.*\(let process \d+ finish or stop it/m);
    } finally {
      holder.kill('SIGKILL');
    }
  });
});
