import { describe, expect, inject, it } from 'vitest';
import { readFileSync, existsSync, writeFileSync, rmSync, mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { TestRepo, tempDir } from '../helpers/repo.js';
import { handoff } from '../helpers/cli.js';
import { commitWithHooks, handoffLines, pathWithout, snapshot } from '../helpers/hooks.js';

const gitState = (repo: TestRepo) => snapshot(join(repo.dir, '.git'), (rel) => !/^(hooks|config|handoff)(\/|$)/.test(rel));

describe('init / uninstall (plain hooks folder)', () => {
  it('dry-run writes nothing; init installs; a second init changes nothing; uninstall restores byte for byte', () => {
    const repo = TestRepo.init();
    repo.commit('chore: start');
    const before = gitState(repo);

    const dry = handoff(repo, ['init', '--dry-run', '--json']);
    expect(dry.code).toBe(0);
    expect(dry.json).toMatchObject({ ok: true, dry_run: true, changed: true });
    const paths = dry.json.steps.filter((s: any) => s.kind === 'file').map((s: any) => s.path.replace(`${repo.dir}/`, ''));
    expect(paths).toEqual([
      '.git/hooks/post-commit',
      '.git/hooks/prepare-commit-msg',
      '.git/hooks/post-rewrite',
      '.git/hooks/post-merge',
      '.git/hooks/post-checkout',
      '.git/handoff/launcher',
    ]);
    expect(dry.json.steps.filter((s: any) => s.kind === 'config').map((s: any) => `${s.key}=${s.value}`)).toEqual([
      'notes.rewriteRef=refs/notes/handof[f]',
      'notes.rewriteMode=overwrite',
    ]);
    expect(gitState(repo)).toEqual(before);

    const init = handoff(repo, ['init']);
    expect(init.code).toBe(0);
    expect(init.stdout).toContain('create .git/hooks/post-commit');
    // the glob is explained where it is printed: a newcomer reads 'handof[f]' as a typo
    expect(init.stdout).toContain(
      'set notes.rewriteRef=refs/notes/handof[f] (amend and rebase carry handoffs; the [f] makes it a pattern that matches only refs/notes/handoff, so git does not warn before the first handoff)\n',
    );
    for (const h of ['post-commit', 'prepare-commit-msg', 'post-rewrite']) {
      const file = join(repo.dir, '.git/hooks', h);
      expect(readFileSync(file, 'utf8')).toContain('git-handoff hook shim');
      expect(spawnSync('sh', ['-n', file]).status).toBe(0);
    }
    expect(repo.git('config', '--get', 'notes.rewriteRef').trim()).toBe('refs/notes/handof[f]');
    expect(repo.git('config', '--get', 'notes.rewriteMode').trim()).toBe('overwrite');
    expect(repo.gitRaw(['config', '--get', 'notes.displayRef']).status).toBe(1);
    const installed = gitState(repo);

    const again = handoff(repo, ['init', '--json']);
    expect(again.json).toMatchObject({ ok: true, changed: false, steps: [] });
    expect(gitState(repo)).toEqual(installed);

    const un = handoff(repo, ['uninstall']);
    expect(un.code).toBe(0);
    expect(gitState(repo)).toEqual(before);
    // Not even the folder init made for its record is left behind.
    expect(existsSync(join(repo.dir, '.git/handoff'))).toBe(false);
    expect(handoff(repo, ['uninstall', '--json']).json).toMatchObject({ ok: true, changed: false });
  });

  it('--display adds notes.displayRef, and uninstall takes only the values init added', () => {
    const repo = TestRepo.init();
    repo.commit('chore: start');
    repo.git('config', 'notes.rewriteRef', 'refs/notes/commits');
    repo.git('config', 'notes.rewriteMode', 'concatenate');
    const r = handoff(repo, ['init', '--display']);
    expect(r.stdout).toContain('kept notes.rewriteMode=concatenate');
    expect(repo.git('config', '--get-all', 'notes.rewriteRef').trim().split('\n')).toEqual(['refs/notes/commits', 'refs/notes/handof[f]']);
    expect(repo.git('config', '--get', 'notes.displayRef').trim()).toBe('refs/notes/handoff');
    // The user changes the config after init: uninstall keeps the change, removes only ours.
    repo.git('config', 'user.useConfigOnly', 'true');
    handoff(repo, ['uninstall']);
    expect(repo.git('config', '--get-all', 'notes.rewriteRef').trim()).toBe('refs/notes/commits');
    expect(repo.git('config', '--get', 'notes.rewriteMode').trim()).toBe('concatenate');
    expect(repo.gitRaw(['config', '--get', 'notes.displayRef']).status).toBe(1);
    expect(repo.git('config', '--get', 'user.useConfigOnly').trim()).toBe('true');
  });

  it('chains a hook that was already there: it runs first, its exit status counts, uninstall puts it back', () => {
    const repo = TestRepo.init();
    repo.commit('chore: start');
    const hooks = join(repo.dir, '.git/hooks');
    const pcm = '#!/bin/sh\necho "their prepare-commit-msg $2" >&2\n[ -f stop ] && exit 7\nexit 0\n';
    const pc = '#!/bin/sh\necho "their post-commit" >&2\nexit 3\n';
    const pr = '#!/bin/sh\necho "their post-rewrite $1: $(cat | wc -l) lines" >&2\n';
    writeFileSync(join(hooks, 'prepare-commit-msg'), pcm, { mode: 0o755 });
    writeFileSync(join(hooks, 'post-commit'), pc, { mode: 0o700 });
    writeFileSync(join(hooks, 'post-rewrite'), pr, { mode: 0o755 });
    const before = gitState(repo);
    expect(handoff(repo, ['init']).stdout).toContain('keep the existing post-commit hook as .git/hooks/post-commit.pre-handoff');

    handoff(repo, ['write', '--summary', 'start']);
    const c = commitWithHooks(repo, 'feat: first after the handoff', { 'a.txt': 'a\n' });
    expect(c.code).toBe(0);
    expect(c.stderr).toContain('their prepare-commit-msg message');
    const lines = c.stderr.split('\n');
    expect(lines.indexOf('their post-commit')).toBeGreaterThanOrEqual(0);
    expect(lines.findIndex((l) => l.startsWith('git-handoff: substantive'))).toBeGreaterThan(lines.indexOf('their post-commit'));
    // The shim's exit status is the chained hook's.
    expect(spawnSync(join(hooks, 'post-commit'), [], { cwd: repo.dir, env: { ...repo.env, PATH: process.env.PATH } }).status).toBe(3);
    // A chained prepare-commit-msg that fails still stops the commit.
    writeFileSync(join(repo.dir, 'stop'), '');
    const stopped = commitWithHooks(repo, 'feat: stopped');
    expect(stopped.code).not.toBe(0);
    expect(stopped.head).toBe(c.head);
    // post-rewrite: the chained hook gets git's list too.
    rmSync(join(repo.dir, 'stop'));
    const amended = commitWithHooks(repo, 'feat: first after the handoff, amended', {}, { args: ['--amend'] });
    expect(amended.code).toBe(0);
    expect(amended.stderr).toContain('their post-rewrite amend: 1 lines');

    handoff(repo, ['uninstall']);
    expect(gitState(repo)).toEqual(before);
  });

  it('the shims do nothing without git-handoff on PATH, and find it in node_modules/.bin', () => {
    const repo = TestRepo.init();
    repo.commit('chore: start');
    const hooks = join(repo.dir, '.git/hooks');
    writeFileSync(join(hooks, 'post-commit'), '#!/bin/sh\necho "their post-commit" >&2\nexit 3\n', { mode: 0o755 });
    handoff(repo, ['init']);
    // (a clone whose init recorded no installation, test/e2e/attack-checkout-code.test.ts has the one it records)
    rmSync(join(repo.dir, '.git/handoff/launcher'));
    handoff(repo, ['write', '--summary', 'start']);
    // A High topic under strict: the sweep would stop the commit if git-handoff ran.
    repo.write('cadence/streaming/t.md', '---\ntopic: t\nstatus: active\nfidelity: High\n---\n## one\n');
    repo.git('config', 'handoff.sweep.strict', 'true');
    const bin = pathWithout('git-handoff');
    symlinkSync(process.execPath, join(bin, 'node'));
    const env = { PATH: bin };
    const c = commitWithHooks(repo, 'feat: a teammate without git-handoff', { 'a.txt': 'a\n' }, { env });
    expect(c.code).toBe(0);
    expect(c.stderr).toBe('their post-commit\n');
    const amended = commitWithHooks(repo, 'feat: amended without git-handoff', {}, { args: ['--amend'], env });
    expect(amended.code).toBe(0);
    expect(amended.stderr).toBe('their post-commit\n');
    expect(spawnSync(join(hooks, 'post-commit'), [], { cwd: repo.dir, env }).status).toBe(3);

    // A project-local install: node_modules/.bin/git-handoff at the top of the work tree.
    mkdirSync(join(repo.dir, 'node_modules/.bin'), { recursive: true });
    symlinkSync(join(inject('binDir'), 'git-handoff'), join(repo.dir, 'node_modules/.bin/git-handoff'));
    const stopped = commitWithHooks(repo, 'feat: stopped by the sweep', {}, { env });
    expect(stopped.code).not.toBe(0);
    expect(stopped.head).toBe(amended.head);
    expect(handoffLines(stopped.stderr)).toHaveLength(1);
    repo.git('config', '--unset', 'handoff.sweep.strict');
    handoff(repo, ['write', '--summary', 'again']);
    const found = commitWithHooks(repo, 'feat: found in node_modules', {}, { env });
    expect(found.code).toBe(0);
    expect(handoffLines(found.stderr).filter((l) => l.startsWith('git-handoff: substantive commit'))).toHaveLength(1);
  });

  it('keeps what the user changed after init: a rewritten hook stays, the line added to our shim stays and our lines go', () => {
    const repo = TestRepo.init();
    repo.commit('chore: start');
    handoff(repo, ['init']);
    const hooks = join(repo.dir, '.git/hooks');
    writeFileSync(join(hooks, 'post-rewrite'), '#!/bin/sh\necho mine\n', { mode: 0o755 });
    const shim = readFileSync(join(hooks, 'post-commit'), 'utf8');
    const edited = `${shim}# edited by the user\n`;
    writeFileSync(join(hooks, 'post-commit'), edited, { mode: 0o755 });
    expect(handoff(repo, ['uninstall', '--dry-run']).stdout).toContain(
      "take git-handoff's lines out of .git/hooks/post-commit (it changed after init: the line you added stays)",
    );
    const r = handoff(repo, ['uninstall']);
    expect(r.code).toBe(0);
    expect(readFileSync(join(hooks, 'post-rewrite'), 'utf8')).toBe('#!/bin/sh\necho mine\n');
    expect(r.stdout).toContain('note: left .git/hooks/post-rewrite as it is');
    expect(readFileSync(join(hooks, 'post-commit'), 'utf8')).toBe('#!/bin/sh\n# edited by the user\n');
    expect(existsSync(join(hooks, 'prepare-commit-msg'))).toBe(false);
  });

  it('without an install record, uninstall removes our shims and leaves config alone', () => {
    const repo = TestRepo.init();
    repo.commit('chore: start');
    handoff(repo, ['init']);
    rmSync(join(repo.dir, '.git/handoff/install.json'));
    const r = handoff(repo, ['uninstall']);
    expect(r.stdout).toContain('no install record');
    expect(existsSync(join(repo.dir, '.git/hooks/post-commit'))).toBe(false);
    expect(repo.git('config', '--get', 'notes.rewriteRef').trim()).toBe('refs/notes/handof[f]');
  });

  it('a hooks folder outside the repository (core.hooksPath) is named and left untouched', () => {
    const repo = TestRepo.init();
    repo.commit('chore: start');
    const shared = tempDir('handoff-hooks-');
    repo.git('config', 'core.hooksPath', shared);
    const r = handoff(repo, ['init']);
    expect(r.stdout).toContain(`its scripts run the hooks in ${shared} first, and ${shared} itself is left untouched`);
    expect(existsSync(join(shared, 'post-commit'))).toBe(false);
    expect(readFileSync(join(repo.dir, '.git/handoff/hooks/post-commit'), 'utf8')).toContain('git-handoff hook shim');
    handoff(repo, ['uninstall']);
    expect(repo.git('config', 'core.hooksPath').trim()).toBe(shared);
  });

  it('refuses a bare repository and works from a subfolder and a linked worktree', () => {
    const bare = TestRepo.init({ bare: true });
    expect(handoff(bare, ['init']).code).toBe(1);
    const repo = TestRepo.init();
    repo.commit('chore: start', { 'sub/x.txt': 'x\n' });
    expect(handoff(repo, ['init'], { cwd: join(repo.dir, 'sub') }).code).toBe(0);
    const wt = join(tempDir(), 'wt');
    repo.git('worktree', 'add', '-q', wt);
    // Hooks are shared by worktrees: init there finds them installed.
    expect(handoff(repo, ['init', '--json'], { cwd: wt }).json.changed).toBe(false);
  });
});
