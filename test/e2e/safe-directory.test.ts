/**
 * Git's ownership rule. A repository another user owns is refused by git
 * ("detected dubious ownership") unless safe.directory, read only from the system, global
 * and command-line config, names it. Every command must give git's verdict, every hook
 * must stay silent there, and nothing may be written. The suite runs as root here: it
 * creates the repositories, hands them to `nobody` and asks git itself for the verdict.
 * Elsewhere git's own test switch GIT_TEST_ASSUME_DIFFERENT_OWNER plays the other user.
 */
import { describe, expect, it } from 'vitest';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { TestRepo, tempDir } from '../helpers/repo.js';
import { handoff } from '../helpers/cli.js';

const asRoot = process.getuid?.() === 0;
/** Hands `dir` (or just its git dir) to another user: really as root, through git's test switch otherwise. */
function giveAway(path: string): NodeJS.ProcessEnv {
  if (asRoot) {
    execFileSync('chown', ['-R', 'nobody', path]);
    return {};
  }
  return { GIT_TEST_ASSUME_DIFFERENT_OWNER: '1' };
}

/** git's own verdict: does `git status` (or rev-parse in a bare repository) refuse here? */
function gitRefuses(repo: TestRepo, env: NodeJS.ProcessEnv, cwd = repo.dir, bare = false): boolean {
  const r = spawnSync('git', bare ? ['rev-parse', '--git-dir'] : ['status', '--porcelain'], { cwd, env: { ...repo.env, ...env }, encoding: 'utf8' });
  if (r.status !== 0) expect(r.stderr).toMatch(/dubious ownership|cannot use bare repository/);
  return r.status !== 0;
}

/** The notes ref, read past the ownership check (git -c safe.directory=*). */
function notesRef(repo: TestRepo): string | null {
  const r = spawnSync('git', ['-c', 'safe.directory=*', 'rev-parse', '-q', '--verify', 'refs/notes/handoff'], {
    cwd: repo.dir,
    env: repo.env,
    encoding: 'utf8',
  });
  return r.status === 0 ? r.stdout.trim() : null;
}

function globalConfig(text: string): string {
  const f = join(tempDir(), 'gitconfig');
  writeFileSync(f, text);
  return f;
}

function ownedByOther(): { repo: TestRepo; env: NodeJS.ProcessEnv } {
  const repo = TestRepo.init();
  repo.commit('feat: start', { 'a/b/c.txt': 'x\n' });
  return { repo, env: giveAway(repo.dir) };
}

describe(`safe.directory: git's verdict on a repository another user owns (${asRoot ? 'chown nobody, as root' : 'GIT_TEST_ASSUME_DIFFERENT_OWNER: not root'})`, () => {
  it('refuses every command with one line naming the path and the fix; writes nothing', () => {
    const { repo, env } = ownedByOther();
    expect(gitRefuses(repo, env)).toBe(true);
    const before = repo.snapshot(join(repo.dir, '.git'));
    for (const args of [['write', '--summary', 'x', '--json'], ['show'], ['init'], ['doctor'], ['sweep']]) {
      const r = handoff(repo, args, { env, input: 'summary: from stdin\n' });
      expect(r.code, args.join(' ')).toBe(1);
      const lines = r.stderr.trim().split('\n');
      expect(lines, args.join(' ')).toHaveLength(1);
      expect(lines[0]).toContain(`dubious ownership in repository at '${repo.dir}'`);
      expect(lines[0]).toContain(`git config --global --add safe.directory ${repo.dir}`);
      if (args.includes('--json')) expect(r.json.error.code).toBe('UntrustedRepository');
    }
    // From a subdirectory git names the top of the work tree, and so do we.
    const sub = handoff(repo, ['show'], { env, cwd: join(repo.dir, 'a/b') });
    expect(sub.code).toBe(1);
    expect(sub.stderr).toContain(`at '${repo.dir}'`);
    expect(notesRef(repo)).toBeNull();
    expect(repo.snapshot(join(repo.dir, '.git'))).toEqual(before);
  });

  it('every hook stays silent and writes nothing (post-rewrite used to write a version there)', () => {
    const repo = TestRepo.init();
    const old = repo.commit('feat: one', { 'a.txt': 'a\n' });
    expect(handoff(repo, ['write', '--summary', 'on one']).code).toBe(0);
    repo.git('commit', '-q', '--amend', '-m', 'feat: one, amended');
    const amended = repo.head();
    const tip = notesRef(repo);
    const env = giveAway(repo.dir);
    expect(gitRefuses(repo, env)).toBe(true);
    const hooks: [string[], string][] = [
      [['hook', 'post-rewrite', 'amend'], `${old} ${amended}\n`],
      [['hook', 'post-commit'], ''],
      [['hook', 'prepare-commit-msg', '.git/COMMIT_EDITMSG'], ''],
      [['hook', 'pre-push', 'origin', 'https://example.com/x.git'], ''],
      [['hook', 'session-start', '--agent', 'claude'], JSON.stringify({ session_id: 's1', cwd: repo.dir, hook_event_name: 'SessionStart' })],
      [['hook', 'stop', '--agent', 'codex'], JSON.stringify({ session_id: 's1', cwd: repo.dir })],
    ];
    for (const [args, input] of hooks) {
      const r = handoff(repo, args, { env, input });
      expect({ args, code: r.code, stdout: r.stdout, stderr: r.stderr }).toEqual({ args, code: 0, stdout: '', stderr: '' });
    }
    expect(notesRef(repo)).toBe(tip);
  });

  it('agrees with git where safe.directory allows it, and where it does not', () => {
    const { repo, env } = ownedByOther();
    const home = tempDir();
    mkdirSync(join(home, 'x'));
    const cases: [string, NodeJS.ProcessEnv][] = [
      ['the exact path in the global config', { GIT_CONFIG_GLOBAL: globalConfig(`[safe]\n\tdirectory = ${repo.dir}\n`) }],
      ['* in the global config', { GIT_CONFIG_GLOBAL: globalConfig('[safe]\n\tdirectory = *\n') }],
      ['a later empty value resets the list', { GIT_CONFIG_GLOBAL: globalConfig(`[safe]\n\tdirectory = *\n\tdirectory =\n`) }],
      ['another path only', { GIT_CONFIG_GLOBAL: globalConfig(`[safe]\n\tdirectory = ${repo.dir}/a\n`) }],
      ['a path with a trailing slash (git compares exactly)', { GIT_CONFIG_GLOBAL: globalConfig(`[safe]\n\tdirectory = ${repo.dir}/\n`) }],
      ['~/ expanded from HOME', { HOME: join(repo.dir, '..'), GIT_CONFIG_GLOBAL: globalConfig(`[safe]\n\tdirectory = ~/${repo.dir.split('/').pop()}\n`) }],
      ['%(prefix)/ with an absolute path after it', { GIT_CONFIG_GLOBAL: globalConfig(`[safe]\n\tdirectory = %(prefix)/${repo.dir}\n`) }],
      ['the system config (GIT_CONFIG_SYSTEM)', { GIT_CONFIG_NOSYSTEM: '0', GIT_CONFIG_SYSTEM: globalConfig(`[safe]\n\tdirectory = ${repo.dir}\n`) }],
      ['git -c safe.directory (GIT_CONFIG_PARAMETERS)', { GIT_CONFIG_PARAMETERS: `'safe.directory'='${repo.dir}'` }],
      ['GIT_CONFIG_COUNT pairs', { GIT_CONFIG_COUNT: '1', GIT_CONFIG_KEY_0: 'safe.directory', GIT_CONFIG_VALUE_0: '*' }],
      ['an include in the global config', { GIT_CONFIG_GLOBAL: globalConfig(`[include]\n\tpath = ${globalConfig('[safe]\n\tdirectory = *\n')}\n`) }],
    ];
    for (const [name, extra] of cases) {
      const e = { ...env, ...extra };
      const refused = gitRefuses(repo, e);
      const r = handoff(repo, ['show'], { env: e });
      expect({ name, code: r.code, untrusted: /dubious ownership/.test(r.stderr) }).toEqual({ name, code: refused ? 1 : 0, untrusted: refused });
    }
    // Sanity: the table has both verdicts in it.
    expect(gitRefuses(repo, { ...env, GIT_CONFIG_GLOBAL: globalConfig('[safe]\n\tdirectory = *\n') })).toBe(false);
  });

  it('never trusts safe.directory from the repository’s own config: still refused, as git refuses', () => {
    const repo = TestRepo.init();
    repo.commit('feat: start', { 'a.txt': 'a\n' });
    repo.git('config', '--add', 'safe.directory', repo.dir);
    repo.git('config', '--add', 'safe.directory', '*');
    const env = giveAway(repo.dir);
    expect(gitRefuses(repo, env)).toBe(true);
    const r = handoff(repo, ['write', '--summary', 'x'], { env });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('dubious ownership');
    expect(notesRef(repo)).toBeNull();
    // Allowed globally, the same repository works, and the version is really written.
    const ok = handoff(repo, ['write', '--summary', 'x'], { env: { ...env, GIT_CONFIG_GLOBAL: globalConfig(`[safe]\n\tdirectory = ${repo.dir}\n`) } });
    expect(ok.code, ok.stderr).toBe(0);
    expect(notesRef(repo)).not.toBeNull();
  });

  it('checks the git dir too: a .git owned by another user is refused', () => {
    const repo = TestRepo.init();
    repo.commit('feat: start', { 'a.txt': 'a\n' });
    const env = giveAway(join(repo.dir, '.git'));
    expect(gitRefuses(repo, env)).toBe(true);
    expect(handoff(repo, ['show'], { env }).code).toBe(1);
  });

  it('bare repositories: ownership, and safe.bareRepository=explicit from the protected config only', () => {
    const bare = TestRepo.init({ bare: true });
    const mine = { GIT_CONFIG_GLOBAL: globalConfig('[safe]\n\tbareRepository = explicit\n') };
    expect(gitRefuses(bare, mine, bare.dir, true)).toBe(true);
    const r = handoff(bare, ['show'], { env: mine });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`cannot use bare repository '${bare.dir}'`);
    // Named explicitly it is allowed, by git and by us.
    expect(handoff(bare, ['show'], { env: { ...mine, GIT_DIR: bare.dir } }).code).toBe(0);
    // In the repository's own config it counts for nothing.
    bare.git('config', 'safe.bareRepository', 'explicit');
    expect(gitRefuses(bare, {}, bare.dir, true)).toBe(false);
    expect(handoff(bare, ['show']).code).toBe(0);
    const env = giveAway(bare.dir);
    expect(gitRefuses(bare, env, bare.dir, true)).toBe(true);
    const theirs = handoff(bare, ['log'], { env });
    expect(theirs.code).toBe(1);
    expect(theirs.stderr).toContain(`dubious ownership in repository at '${bare.dir}'`);
  });
});
