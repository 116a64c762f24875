import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { inject } from 'vitest';
import { TestRepo, tempDir, isolatedEnv } from '../helpers/repo.js';
import { handoff, cliPath, type CliResult } from '../helpers/cli.js';

function oneLine(r: CliResult, code: number, message: RegExp): void {
  expect(r.code, r.stderr).toBe(code);
  const lines = r.stderr.trimEnd().split('\n');
  expect(lines, r.stderr).toHaveLength(1);
  expect(lines[0]).toMatch(/^git handoff: /);
  expect(lines[0]).toMatch(message);
  expect(r.stderr).not.toMatch(/^\s+at /m);
}

describe('outside a repository', () => {
  it.each([['show'], ['log'], ['diff'], ['write']])('%s: one line, exit 1', (cmd) => {
    const dir = tempDir();
    const fake = new TestRepo(dir, isolatedEnv({ GIT_CEILING_DIRECTORIES: dir.replace(/\/[^/]+$/, '') }));
    const r = handoff(fake, cmd === 'write' ? [cmd, '--summary', 'x'] : [cmd]);
    oneLine(r, 1, /not a git repository/);
    expect(r.stdout).toBe('');
    const j = handoff(fake, [cmd, '--json']);
    expect(j.json).toEqual({ ok: false, error: { code: 'NotARepository', message: expect.stringMatching(/not a git repository/), data: expect.any(Object) } });
  });
});

describe('a bare repository', () => {
  it('show, log and diff work on a bare clone that fetched the notes; write is refused', () => {
    const src = TestRepo.init();
    src.commit('feat: one');
    expect(handoff(src, ['write', '--summary', 'first']).code).toBe(0);
    src.commit('feat: two');
    expect(handoff(src, ['write', '--summary', 'second']).code).toBe(0);
    const dir = tempDir();
    const bare = new TestRepo(dir, src.env);
    bare.clock = src.clock;
    bare.git('clone', '-q', '--bare', src.dir, dir);
    bare.git('fetch', '-q', 'origin', 'refs/notes/handoff:refs/notes/handoff');
    const show = handoff(bare, ['show', '--json']);
    expect(show.code, show.stderr).toBe(0);
    expect(show.json).toMatchObject({ ok: true, version: src.notesRef(), handoff: { summary: 'second' }, due: false });
    expect(handoff(bare, ['show']).stdout).toContain('second');
    expect(handoff(bare, ['log', '--json']).json.versions.map((v: any) => v.summary)).toEqual(['second', 'first']);
    const diff = handoff(bare, ['diff']);
    expect(diff.code, diff.stderr).toBe(0);
    expect(diff.stdout).toContain('summary:\n  - first\n  + second\n');
    oneLine(handoff(bare, ['write', '--summary', 'x']), 1, /bare repository/);
  });
});

describe('a detached HEAD', () => {
  it('writes with branch null, and show finds that version while detached', () => {
    const repo = TestRepo.init();
    repo.commit('feat: one');
    const c2 = repo.commit('feat: two');
    expect(handoff(repo, ['write', '--summary', 'on main']).code).toBe(0);
    repo.git('checkout', '-q', '--detach', 'HEAD~1');
    const w = handoff(repo, ['write', '--json', '--summary', 'detached work']);
    expect(w.code, w.stderr).toBe(0);
    expect(w.json.handoff.branch).toBeNull();
    expect(repo.nativeNote()).toMatch(/^branch: null$/m);
    expect(handoff(repo, ['write', '--summary', 'again']).stdout).toMatch(/\(detached HEAD\)\nchanged summary \(against [0-9a-f]{12}\)\n$/);
    const s = handoff(repo, ['show']);
    expect(s.stdout).toMatch(/· detached ·/);
    expect(s.stdout).toContain('again');
    expect(handoff(repo, ['log', '--json']).json.versions.map((v: any) => v.summary)).toEqual(['again', 'detached work']);
    expect(handoff(repo, ['show', '--json', '--branch', 'main']).json.target).toBe(c2);
  });
});

describe('a linked worktree', () => {
  it('writes from the worktree on its own branch; both worktrees share the history', () => {
    const repo = TestRepo.init();
    repo.commit('feat: one');
    expect(handoff(repo, ['write', '--summary', 'on main']).code).toBe(0);
    const dir = tempDir();
    repo.git('worktree', 'add', '-q', dir, '-b', 'topic');
    const wt = new TestRepo(dir, repo.env);
    wt.clock = repo.clock;
    wt.commit('feat: on topic');
    const w = handoff(wt, ['write', '--json', '--summary', 'on topic']);
    expect(w.code, w.stderr).toBe(0);
    expect(w.json.handoff.branch).toBe('topic');
    expect(handoff(wt, ['show', '--json']).json.handoff.summary).toBe('on topic');
    expect(handoff(repo, ['show', '--json']).json.handoff.summary).toBe('on main');
    expect(handoff(repo, ['show', '--json', '--branch', 'topic']).json.version).toBe(w.json.version);
    expect(repo.nativeNote('topic')).toContain('summary: on topic\n');
  });
});

describe('an unborn branch', () => {
  it('refuses write with one line and exit 1; show prints nothing', () => {
    const repo = TestRepo.init();
    const before = repo.snapshot();
    oneLine(handoff(repo, ['write', '--summary', 'x']), 1, /branch 'main' has no commit yet/);
    oneLine(handoff(repo, ['write'], { input: 'summary: x\n' }), 1, /no commit yet/);
    expect(handoff(repo, ['write', '--json', '--summary', 'x']).json.error.code).toBe('UnbornBranch');
    expect(repo.snapshot()).toEqual(before);
    expect(handoff(repo, ['show'])).toMatchObject({ code: 0, stdout: '', stderr: '' });
    expect(handoff(repo, ['log'])).toMatchObject({ code: 0, stdout: '' });
  });
});

describe('no git identity configured', () => {
  it('uses the fallback identity git-handoff <git-handoff@localhost>, never failing', () => {
    const repo = TestRepo.init();
    repo.commit('feat: one');
    const noIdentity = {
      GIT_AUTHOR_NAME: undefined,
      GIT_AUTHOR_EMAIL: undefined,
      GIT_COMMITTER_NAME: undefined,
      GIT_COMMITTER_EMAIL: undefined,
      EMAIL: undefined,
    };
    // plain git itself refuses to commit here, to prove the setting has no identity
    const gitCommit = repo.gitRaw(['-c', 'user.useConfigOnly=true', 'commit', '--allow-empty', '-m', 'x'], { env: noIdentity });
    expect(gitCommit.status).not.toBe(0);
    const w = handoff(repo, ['write', '--summary', 'ci box'], { env: { ...noIdentity, GIT_COMMITTER_DATE: undefined, GIT_AUTHOR_DATE: undefined } });
    expect(w.code, w.stderr).toBe(0);
    expect(repo.git('log', '-1', '--format=%an <%ae>|%cn <%ce>', 'refs/notes/handoff').trim()).toBe(
      'git-handoff <git-handoff@localhost>|git-handoff <git-handoff@localhost>',
    );
    const w2 = handoff(repo, ['write', '--summary', 'ci box, fixed date'], { env: noIdentity });
    expect(w2.code, w2.stderr).toBe(0);
    expect(repo.git('log', '-1', '--format=%cn <%ce> %ct', 'refs/notes/handoff').trim()).toBe(`git-handoff <git-handoff@localhost> ${repo.clock - 60}`);
  });

  it('uses the configured identity when there is one', () => {
    const repo = TestRepo.init();
    repo.commit('feat: one');
    repo.git('config', 'user.name', 'Grace Config');
    repo.git('config', 'user.email', 'grace@example.com');
    const w = handoff(repo, ['write', '--summary', 's'], {
      env: { GIT_AUTHOR_NAME: undefined, GIT_AUTHOR_EMAIL: undefined, GIT_COMMITTER_NAME: undefined, GIT_COMMITTER_EMAIL: undefined },
    });
    expect(w.code, w.stderr).toBe(0);
    expect(repo.git('log', '-1', '--format=%an <%ae>', 'refs/notes/handoff').trim()).toBe('Grace Config <grace@example.com>');
  });
});

describe('a SHA-256 repository', () => {
  it('is refused clearly by every command', () => {
    const repo = new TestRepo(tempDir(), isolatedEnv());
    repo.git('init', '-q', '--object-format=sha256', '--initial-branch=main');
    repo.commit('feat: one');
    for (const args of [['show'], ['log'], ['diff'], ['write', '--summary', 'x']]) {
      oneLine(handoff(repo, args), 1, /sha256.*sha1 repositories only|SHA-256/i);
    }
    expect(handoff(repo, ['show', '--json']).json.error.code).toBe('UnsupportedRepository');
    expect(repo.gitRaw(['rev-parse', '-q', '--verify', 'refs/notes/handoff']).status).not.toBe(0);
  });
});

describe('errors never show a stack trace; HANDOFF_DEBUG may', () => {
  it('prints one line for user errors, and the stack only with HANDOFF_DEBUG=1', () => {
    const repo = TestRepo.init();
    repo.commit('feat: one');
    const r = handoff(repo, ['write'], { input: 'summary: [x]\n' });
    oneLine(r, 1, /summary must be a string/);
    const d = handoff(repo, ['write'], { input: 'summary: [x]\n', env: { HANDOFF_DEBUG: '1' } });
    expect(d.code).toBe(1);
    expect(d.stderr).toMatch(/^\s+at /m);
  });
});

describe('help and the man page', () => {
  const repo = TestRepo.init();
  // every command the overview lists (the core four at least), each with its own -h
  const overview = handoff(repo, ['-h']);
  const commands = [...overview.stdout.matchAll(/^  ([a-z][a-z-]*) {2,}\S/gm)].map((m) => m[1]);
  const helps = new Map<string, string>();

  it('git handoff -h lists every command', () => {
    expect(overview.code).toBe(0);
    expect(overview.stdout).toMatch(/^usage: git handoff <command> \[options\]/);
    expect(commands).toEqual(expect.arrayContaining(['write', 'show', 'log', 'diff']));
  });

  it.each(commands)('git handoff %s -h prints its usage and options', (c) => {
    const r = handoff(repo, [c, '-h']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(new RegExp(`^usage: git handoff ${c} \\[options\\]`));
    expect(r.stdout).toContain('-h, --help');
    helps.set(c, r.stdout);
    if (['write', 'show', 'log', 'diff'].includes(c)) expect(handoff(repo, [c, '--help'], { via: 'bin' }).stdout).toBe(r.stdout);
  });

  it('ships man/git-handoff.1 in the installed package, generated from the same specs', () => {
    const pkg = join(inject('binDir'), '..', 'lib', 'node_modules', 'git-handoff');
    const page = join(pkg, 'man', 'git-handoff.1');
    expect(existsSync(page)).toBe(true);
    const text = readFileSync(page, 'utf8');
    expect(text).toMatch(/^\.TH GIT-HANDOFF 1/);
    for (const c of commands) {
      expect(text).toContain(`.B git handoff ${c} [options]`);
      const help = helps.get(c) ?? handoff(repo, [c, '-h']).stdout;
      // every option of -h is in the man page
      for (const opt of help.match(/--[a-z][a-z-]+/g) ?? []) if (opt !== '--help') expect(text, `${c} ${opt}`).toContain(opt.replace(/-/g, '\\-'));
    }
    expect(JSON.parse(readFileSync(join(pkg, 'package.json'), 'utf8')).man).toEqual(['man/git-handoff.1']);
  });

  it('git handoff --help opens that man page', () => {
    const man = spawnSync('man', ['-w'], { encoding: 'utf8' });
    if (man.error) return; // no man(1) on this machine: the file check above stands
    const share = join(inject('binDir'), '..', 'share', 'man');
    const r = spawnSync('git', ['handoff', '--help'], {
      cwd: repo.dir,
      env: { ...repo.env, PATH: cliPath(), MANPATH: share, MANPAGER: 'cat', PAGER: 'cat', MANWIDTH: '80' },
      encoding: 'utf8',
    });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/git-handoff - versioned session handoffs kept in git notes/);
  });
});
