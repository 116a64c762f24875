/**
 * Issue 23, point 5: no code from the checkout. A branch that ships its own
 * `node_modules/.bin/git-handoff` (or a tracked `node_modules` symlink to a folder that holds
 * one) must not run on `git checkout` or `git commit` when git-handoff is not on PATH (an
 * IDE, a cron job); an untracked project install still runs. Doctor names a shim of an older
 * release that would, and --fix refreshes it. Real git, the packed CLI.
 */
import { describe, expect, it } from 'vitest';
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { inject } from 'vitest';
import { TestRepo, tempDir } from '../helpers/repo.js';
import { handoff } from '../helpers/cli.js';
import { commitWithHooks, gitWithHooks, pathWithout } from '../helpers/hooks.js';

/** A PATH with node and git but no git-handoff. */
function bareMachinePath(): string {
  const bin = pathWithout('git-handoff');
  if (!existsSync(join(bin, 'node'))) symlinkSync(process.execPath, join(bin, 'node'));
  return bin;
}

function victim(): { repo: TestRepo; marker: string } {
  const marker = join(tempDir(), 'ran');
  const repo = TestRepo.init();
  repo.commit('feat: start', { 'a.txt': 'a\n' });
  expect(handoff(repo, ['init']).code).toBe(0);
  expect(handoff(repo, ['write', '--summary', 'start']).code).toBe(0);
  const evil = `#!/bin/sh\necho "$@" >> ${marker}\n`;
  // the attacker's branch ships the file itself ...
  repo.git('checkout', '-q', '-b', 'evil-bin');
  mkdirSync(join(repo.dir, 'node_modules/.bin'), { recursive: true });
  writeFileSync(join(repo.dir, 'node_modules/.bin/git-handoff'), evil);
  chmodSync(join(repo.dir, 'node_modules/.bin/git-handoff'), 0o755);
  repo.git('add', '-f', 'node_modules/.bin/git-handoff');
  repo.git('commit', '-q', '-m', 'chore: vendored tools');
  repo.git('rm', '-rq', '--cached', 'node_modules');
  repo.git('commit', '-q', '-m', 'chore: drop them');
  // ... or a tracked node_modules that is a symlink to a tracked folder holding it
  repo.git('checkout', '-q', '-b', 'evil-link', 'main');
  spawnRm(join(repo.dir, 'node_modules'));
  mkdirSync(join(repo.dir, 'tools/.bin'), { recursive: true });
  writeFileSync(join(repo.dir, 'tools/.bin/git-handoff'), evil);
  chmodSync(join(repo.dir, 'tools/.bin/git-handoff'), 0o755);
  symlinkSync('tools', join(repo.dir, 'node_modules'));
  repo.git('add', 'tools', 'node_modules');
  repo.git('commit', '-q', '-m', 'chore: tools');
  repo.git('checkout', '-q', 'main');
  spawnRm(join(repo.dir, 'node_modules'));
  spawnRm(join(repo.dir, 'tools'));
  return { repo, marker };
}

/** Removes a file, a folder or a symlink (never what a symlink points to). */
function spawnRm(p: string): void {
  rmSync(p, { recursive: true, force: true });
}

describe('hook shims without git-handoff on PATH', () => {
  it('never run a node_modules/.bin/git-handoff that the checkout tracks (file or symlinked folder), on checkout or commit', () => {
    const { repo, marker } = victim();
    const env = { PATH: bareMachinePath() };
    for (const branch of ['evil-bin~1', 'evil-link']) {
      const co = gitWithHooks(repo, ['checkout', '-q', branch], { env });
      expect(co.code, co.stderr).toBe(0);
      expect(existsSync(join(repo.dir, 'node_modules/.bin/git-handoff')), branch).toBe(true);
      const c = commitWithHooks(repo, 'feat: work on their branch', { [`w-${branch.length}.txt`]: 'w\n' }, { env });
      expect(c.code, c.stderr).toBe(0);
      expect(existsSync(marker), `${branch}: ${existsSync(marker) ? readFileSync(marker, 'utf8') : ''}`).toBe(false);
      gitWithHooks(repo, ['checkout', '-q', '-f', 'main'], { env });
      spawnRm(join(repo.dir, 'node_modules'));
      spawnRm(join(repo.dir, 'tools'));
    }
  });

  it('still run an untracked project install in node_modules/.bin', () => {
    const repo = TestRepo.init();
    repo.commit('feat: start', { 'a.txt': 'a\n', '.gitignore': 'node_modules/\n' });
    expect(handoff(repo, ['init']).code).toBe(0);
    expect(handoff(repo, ['write', '--summary', 'start']).code).toBe(0);
    mkdirSync(join(repo.dir, 'node_modules/.bin'), { recursive: true });
    symlinkSync(join(inject('binDir'), 'git-handoff'), join(repo.dir, 'node_modules/.bin/git-handoff'));
    // (without the installation init recorded: the project's own install is what runs)
    rmSync(join(repo.gitDir(), 'handoff/launcher'));
    const c = commitWithHooks(repo, 'feat: found in node_modules', { 'b.txt': 'b\n' }, { env: { PATH: bareMachinePath() } });
    expect(c.code, c.stderr).toBe(0);
    expect(c.stderr).toMatch(/git-handoff: substantive commit/);
  });

  it('run the git-handoff init recorded in the git dir, which no checkout or tracked file can redirect', () => {
    const { repo, marker } = victim();
    const launcher = join(repo.gitDir(), 'handoff/launcher');
    const recorded = readFileSync(launcher, 'utf8').trim();
    expect(recorded.startsWith('/')).toBe(true);
    expect(recorded.startsWith(`${repo.dir}/`)).toBe(false);
    const env = { PATH: bareMachinePath() };
    const own = commitWithHooks(repo, 'feat: work without git-handoff on PATH', { 'c.txt': 'c\n' }, { env });
    expect(own.code, own.stderr).toBe(0);
    expect(own.stderr).toMatch(/git-handoff: substantive commit/);
    // the attacker's branch tracks its own node_modules/.bin/git-handoff and a file named like the record
    expect(gitWithHooks(repo, ['checkout', '-q', 'evil-bin~1'], { env }).code).toBe(0);
    repo.write('handoff/launcher', `${join(repo.dir, 'node_modules/.bin/git-handoff')}\n`);
    const theirs = commitWithHooks(
      repo,
      'feat: work on their branch',
      { 'handoff/launcher': readFileSync(join(repo.dir, 'handoff/launcher'), 'utf8') },
      { env },
    );
    expect(theirs.code, theirs.stderr).toBe(0);
    expect(theirs.stderr).toMatch(/git-handoff: substantive commit/);
    expect(existsSync(marker), existsSync(marker) ? readFileSync(marker, 'utf8') : '').toBe(false);
    expect(readFileSync(launcher, 'utf8').trim()).toBe(recorded);
    // a record that names a file of the work tree (or is a link) is not followed
    writeFileSync(launcher, `${join(repo.dir, 'node_modules/.bin/git-handoff')}\n`);
    const inTree = commitWithHooks(repo, 'feat: more work on their branch', { 'd.txt': 'd\n' }, { env });
    expect(inTree.code, inTree.stderr).toBe(0);
    expect(existsSync(marker), existsSync(marker) ? readFileSync(marker, 'utf8') : '').toBe(false);
    rmSync(launcher);
    symlinkSync(join(repo.dir, 'node_modules/.bin/git-handoff'), launcher);
    const linked = commitWithHooks(repo, 'feat: still more work on their branch', { 'e.txt': 'e\n' }, { env });
    expect(linked.code, linked.stderr).toBe(0);
    expect(existsSync(marker), existsSync(marker) ? readFileSync(marker, 'utf8') : '').toBe(false);
  });

  it('doctor names a shim of an older release that would run it, and --fix refreshes it', () => {
    const repo = TestRepo.init();
    repo.commit('feat: start');
    expect(handoff(repo, ['init']).code).toBe(0);
    const hook = join(repo.dir, '.git/hooks/post-checkout');
    const current = readFileSync(hook, 'utf8');
    const old = current
      .replace(/^# never code a checkout can bring.*\n/m, '')
      .replace(/elif \[ -x node_modules\/\.bin\/git-handoff \] && .*; then/, 'elif [ -x node_modules/.bin/git-handoff ]; then');
    expect(old).not.toBe(current);
    writeFileSync(hook, old, { mode: 0o755 });
    const d = handoff(repo, ['doctor']);
    expect(d.code).toBe(1);
    expect(d.stdout + d.stderr).toMatch(/post-checkout hook \(from an older release: it would run node_modules\/\.bin\/git-handoff from the work tree/);
    expect(handoff(repo, ['doctor', '--fix']).code).toBe(0);
    expect(readFileSync(hook, 'utf8')).toBe(current);
  });
});
