/**
 * The path most users take. Every other suite isolates git with
 * GIT_CONFIG_GLOBAL=/dev/null; here a realistic global config (identity, an `include`, an
 * `includeIf "gitdir:"` for work repositories, an `onbranch:` one, aliases, url rewrites)
 * drives the main commands, and each result is checked against what git itself reads.
 */
import { describe, expect, it } from 'vitest';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { TestRepo, isolatedEnv, tempDir } from '../helpers/repo.js';
import { handoff } from '../helpers/cli.js';
import { commitWithHooks, handoffLines } from '../helpers/hooks.js';

function realisticHome(): { home: string; env: NodeJS.ProcessEnv } {
  const home = tempDir('handoff-home-');
  mkdirSync(join(home, '.config/git'), { recursive: true });
  writeFileSync(
    join(home, '.gitconfig'),
    [
      '[user]',
      '\tname = Home Person',
      '\temail = home@example.com',
      '[include]',
      '\tpath = ~/.config/git/extra.inc',
      '[includeIf "gitdir:~/work/"]',
      '\tpath = ~/.config/git/work.inc',
      '[includeIf "onbranch:release/*"]',
      '\tpath = ~/.config/git/release.inc',
      '[init]',
      '\tdefaultBranch = main',
      '[alias]',
      '\tst = status -sb',
      '[pull]',
      '\trebase = true',
      '',
    ].join('\n'),
  );
  writeFileSync(join(home, '.config/git/extra.inc'), '[url "https://example.com/"]\n\tinsteadOf = ex:\n[color]\n\tui = auto\n');
  writeFileSync(join(home, '.config/git/work.inc'), '[user]\n\temail = ada@work.example\n[handoff]\n\tmaxBytes = 2000\n');
  writeFileSync(join(home, '.config/git/release.inc'), '[handoff]\n\tstaleDays = 1\n');
  const env = isolatedEnv({ HOME: home, GIT_CONFIG_GLOBAL: join(home, '.gitconfig') });
  // The identity comes from the config files, as on a user's machine.
  for (const k of ['GIT_AUTHOR_NAME', 'GIT_AUTHOR_EMAIL', 'GIT_COMMITTER_NAME', 'GIT_COMMITTER_EMAIL']) delete env[k];
  return { home, env };
}

function repoIn(dir: string, env: NodeJS.ProcessEnv): TestRepo {
  mkdirSync(dir, { recursive: true });
  const repo = new TestRepo(dir, env);
  repo.git('init', '-q');
  return repo;
}

describe('a real global config with include and includeIf', () => {
  const { home, env } = realisticHome();

  it('init, commit hooks, write, show and log read what git reads, in and out of the includeIf', () => {
    for (const [where, email, limit] of [
      ['work/app', 'ada@work.example', 2000],
      ['personal/app', 'home@example.com', 1024 * 1024],
    ] as const) {
      const repo = repoIn(join(home, where), env);
      expect(repo.git('config', 'user.email').trim()).toBe(email);
      expect(repo.git('symbolic-ref', '--short', 'HEAD').trim()).toBe('main');
      repo.commit('chore: start', { 'README.md': 'x\n' });
      expect(handoff(repo, ['init']).code).toBe(0);
      const zero = handoff(repo, ['write', '--summary', 'zero']);
      expect(zero.code, zero.stderr).toBe(0);
      const c = commitWithHooks(repo, 'feat: first real change', { 'a.txt': 'a\n' });
      expect(c.code).toBe(0);
      expect(handoffLines(c.stderr).join('\n')).toContain('git handoff write');

      const w = handoff(repo, ['write', '--json'], { input: 'summary: first\nguards:\n  - keep tests green\n' });
      expect(w.code, w.stderr).toBe(0);
      // Our notes commit is made with the identity git itself would use here.
      expect(repo.git('log', '-1', '--format=%ae', 'refs/notes/handoff').trim()).toBe(email);
      // handoff.maxBytes comes from the includeIf file in work repositories only.
      const big = handoff(repo, ['write', '--summary', 'y'.repeat(3000)]);
      expect({ where, code: big.code }).toEqual({ where, code: limit < 3000 ? 1 : 0 });
      if (limit < 3000) expect(big.stderr).toContain('2000-byte limit');

      const show = handoff(repo, ['show', '--json']);
      expect(show.code).toBe(0);
      expect(show.json.handoff.summary).toBe(limit < 3000 ? 'first' : 'y'.repeat(3000));
      expect(handoff(repo, ['log', '--json']).json.versions.length).toBe(limit < 3000 ? 2 : 3);
      expect(spawnSync('git', ['notes', '--ref=handoff', 'show', 'HEAD'], { cwd: repo.dir, env, encoding: 'utf8' }).status).toBe(0);
    }
  });

  it('an onbranch: include applies on that branch only, as git applies it', () => {
    const repo = repoIn(join(home, 'personal/rel'), env);
    repo.commit('feat: start', { 'a.txt': 'a\n' });
    expect(handoff(repo, ['write', '--summary', 'on main']).code).toBe(0);
    repo.git('checkout', '-q', '-b', 'release/1');
    expect(repo.git('config', 'handoff.staleDays').trim()).toBe('1');
    const show = handoff(repo, ['show', '--all', '--json']);
    expect(show.code, show.stderr).toBe(0);
    expect(show.json.handoff.summary).toBe('on main');
  });
});
