/**
 * A core.hooksPath folder is never changed by init, whether it is tracked by the
 * team (`.githooks`), relative (each linked worktree checks out its own), or shared by several
 * repositories (a global hooks folder). This repository's local core.hooksPath points at our
 * own folder, whose forwarders run the folder's hooks first.
 */
import { describe, expect, it } from 'vitest';
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { TestRepo, isolatedEnv, tempDir } from '../helpers/repo.js';
import { handoff } from '../helpers/cli.js';
import { commitWithHooks, handoffLines, snapshot } from '../helpers/hooks.js';

const TEAM_HOOK = '#!/bin/sh\necho "team post-commit in $(basename "$(pwd)")" >&2\n';
const TEAM_MSG_HOOK = '#!/bin/sh\ngrep -q "^feat\\|^chore" "$1" || { echo "team commit-msg: say feat: or chore:" >&2; exit 1; }\n';

/** A repository whose team commits `.githooks` and points core.hooksPath at it. */
function trackedHooksRepo(): TestRepo {
  const repo = TestRepo.init();
  repo.write('.githooks/post-commit', TEAM_HOOK);
  repo.write('.githooks/commit-msg', TEAM_MSG_HOOK);
  for (const h of ['post-commit', 'commit-msg']) chmodSync(join(repo.dir, '.githooks', h), 0o755);
  repo.git('add', '.githooks');
  repo.commit('chore: team hooks');
  repo.git('config', 'core.hooksPath', '.githooks');
  return repo;
}

const substantive = (stderr: string) => handoffLines(stderr).filter((l) => l.startsWith('git-handoff: substantive commit')).length;

describe('a tracked hooks folder (core.hooksPath=.githooks, committed)', () => {
  it('is never changed: the team hooks and ours both run, git status stays clean, commit -a and a fresh clone carry only the team hook', () => {
    const repo = trackedHooksRepo();
    const before = snapshot(join(repo.dir, '.githooks'));
    const init = handoff(repo, ['init']);
    expect(init.code).toBe(0);
    expect(init.stdout).toContain(
      'point core.hooksPath at .git/handoff/hooks for this repository only; its scripts run the hooks in .githooks first, and .githooks itself is left untouched',
    );
    expect(snapshot(join(repo.dir, '.githooks'))).toEqual(before);
    expect(repo.git('status', '--porcelain')).toBe('');
    expect(handoff(repo, ['init', '--json']).json.changed).toBe(false);

    handoff(repo, ['write', '--summary', 'start']);
    const c = commitWithHooks(repo, 'feat: first after the handoff', { 'a.txt': 'a\n' });
    expect(c.code).toBe(0);
    expect(c.stderr).toContain(`team post-commit in ${repo.dir.split('/').pop()}`);
    expect(substantive(c.stderr)).toBe(1);
    // The team's commit-msg hook still stops a commit.
    const refused = commitWithHooks(repo, 'wip');
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('team commit-msg: say feat: or chore:');

    repo.write('a.txt', 'changed\n');
    expect(commitWithHooks(repo, 'feat: commit -a', {}, { args: ['-a'] }).code).toBe(0);
    expect(repo.git('show', 'HEAD:.githooks/post-commit')).toBe(TEAM_HOOK);
    const clone = tempDir();
    repo.git('clone', '-q', repo.dir, clone);
    expect(readFileSync(join(clone, '.githooks/post-commit'), 'utf8')).toBe(TEAM_HOOK);
    expect(existsSync(join(clone, '.githooks/post-commit.pre-handoff'))).toBe(false);

    const un = handoff(repo, ['uninstall']);
    expect(un.code).toBe(0);
    expect(un.stdout).toContain('set core.hooksPath back to .githooks');
    expect(repo.git('config', '--get-all', 'core.hooksPath').trim()).toBe('.githooks');
    expect(existsSync(join(repo.dir, '.git/handoff'))).toBe(false);
    expect(snapshot(join(repo.dir, '.githooks'))).toEqual(before);
  });

  it('doctor notices when core.hooksPath is pointed back at the folder (our hooks no longer reached) and --fix re-points it', () => {
    const repo = trackedHooksRepo();
    handoff(repo, ['init']);
    expect(handoff(repo, ['doctor', '--json']).json.healthy).toBe(true);
    // The team's setup script runs again.
    repo.git('config', 'core.hooksPath', '.githooks');
    const d = handoff(repo, ['doctor', '--json']);
    expect(d.code).toBe(1);
    expect(d.json.findings.map((f: any) => f.message)).toEqual([expect.stringContaining('point core.hooksPath at .git/handoff/hooks')]);
    expect(handoff(repo, ['doctor', '--fix']).code).toBe(0);
    handoff(repo, ['write', '--summary', 'start']);
    const c = commitWithHooks(repo, 'feat: after the fix', { 'b.txt': 'b\n' });
    expect(substantive(c.stderr)).toBe(1);
    expect(c.stderr).toContain('team post-commit');
    handoff(repo, ['uninstall']);
    expect(repo.git('config', '--get-all', 'core.hooksPath').trim()).toBe('.githooks');
  });
});

describe('a relative core.hooksPath and a linked worktree', () => {
  it('our hooks run in the linked worktree too, and the folder that worktree checked out runs there', () => {
    const repo = trackedHooksRepo();
    handoff(repo, ['init']);
    const wt = join(tempDir(), 'linked');
    repo.git('worktree', 'add', '-q', '-b', 'side', wt);
    handoff(repo, ['write', '--summary', 'start']);
    const w = new TestRepo(wt, repo.env);
    w.clock = repo.clock;
    const c = commitWithHooks(w, 'feat: in the linked worktree', { 'w.txt': 'w\n' });
    expect(c.code).toBe(0);
    expect(c.stderr).toContain('team post-commit in linked');
    expect(substantive(c.stderr)).toBe(1);
    expect(w.git('status', '--porcelain')).toBe('');
  });
});

describe('a hooks folder shared by several repositories (global core.hooksPath)', () => {
  it('init leaves the shared folder alone; uninstall in one repository does not take the hooks from the others', () => {
    const shared = tempDir('handoff-global-hooks-');
    writeFileSync(join(shared, 'post-commit'), TEAM_HOOK, { mode: 0o755 });
    const global = join(tempDir(), 'gitconfig');
    writeFileSync(global, `[core]\n\thooksPath = ${shared}\n`);
    const env = isolatedEnv({ GIT_CONFIG_GLOBAL: global });
    const make = () => {
      const dir = tempDir();
      const r = new TestRepo(dir, env);
      r.git('init', '-q', '--initial-branch=main');
      r.commit('chore: start');
      return r;
    };
    const a = make();
    const b = make();
    const before = snapshot(shared);
    for (const r of [a, b]) {
      const init = handoff(r, ['init']);
      expect(init.code).toBe(0);
      expect(init.stdout).toContain(`its scripts run the hooks in ${shared} first, and ${shared} itself is left untouched`);
    }
    expect(snapshot(shared)).toEqual(before);

    expect(handoff(a, ['uninstall']).code).toBe(0);
    expect(snapshot(shared)).toEqual(before);
    expect(a.gitRaw(['config', '--local', '--get', 'core.hooksPath']).status).toBe(1);
    // b keeps working, and doctor there finds everything in place.
    handoff(b, ['write', '--summary', 'start']);
    const c = commitWithHooks(b, 'feat: in b', { 'x.txt': 'x\n' });
    expect(c.stderr).toContain('team post-commit');
    expect(substantive(c.stderr)).toBe(1);
    expect(handoff(b, ['doctor', '--json']).json).toMatchObject({ healthy: true, findings: [] });
    // a runs the shared folder's hooks again, and none of ours.
    const ca = commitWithHooks(a, 'feat: in a', { 'y.txt': 'y\n' });
    expect(ca.stderr).toContain('team post-commit');
    expect(handoffLines(ca.stderr)).toEqual([]);
  });

  it('a shim an older version put into a shared folder stays there on uninstall, with a note saying why', () => {
    const repo = TestRepo.init();
    repo.commit('chore: start');
    handoff(repo, ['init']);
    const shared = tempDir('handoff-global-hooks-');
    const shim = readFileSync(join(repo.dir, '.git/hooks/post-commit'));
    writeFileSync(join(shared, 'post-commit'), shim, { mode: 0o755 });
    const recordPath = join(repo.dir, '.git/handoff/install.json');
    const record = JSON.parse(readFileSync(recordPath, 'utf8'));
    const entry = record.files.find((f: any) => f.path === 'hooks/post-commit');
    Object.assign(entry, { base: 'absolute', path: join(shared, 'post-commit') });
    writeFileSync(recordPath, JSON.stringify(record));
    mkdirSync(shared, { recursive: true });
    const un = handoff(repo, ['uninstall']);
    expect(un.stdout).toContain(`note: left ${join(shared, 'post-commit')} as it is: its folder is outside this repository and other repositories may run it`);
    expect(readFileSync(join(shared, 'post-commit'))).toEqual(shim);
  });
});

describe('doctor: our hook no longer reached', () => {
  it('replaced while <hook>.pre-handoff exists: a problem doctor reports (not healthy), saying what to do', () => {
    const repo = TestRepo.init();
    repo.commit('chore: start');
    const hook = join(repo.dir, '.git/hooks/post-commit');
    writeFileSync(hook, '#!/bin/sh\necho theirs\n', { mode: 0o755 });
    handoff(repo, ['init']);
    expect(existsSync(`${hook}.pre-handoff`)).toBe(true);
    // Another tool writes its own post-commit over our shim.
    writeFileSync(hook, '#!/bin/sh\necho "another tool"\n', { mode: 0o755 });
    const d = handoff(repo, ['doctor', '--json']);
    expect(d.code).toBe(1);
    expect(d.json.healthy).toBe(false);
    expect(d.json.findings).toEqual([
      expect.objectContaining({
        fixable: false,
        message: expect.stringContaining(
          'the post-commit hook of git-handoff does not run: .git/hooks/post-commit is not ours and .git/hooks/post-commit.pre-handoff is in the way',
        ),
      }),
    ]);
    // Once the user moves one away, --fix chains the other as init would.
    rmSync(`${hook}.pre-handoff`);
    expect(handoff(repo, ['doctor', '--fix']).code).toBe(0);
    expect(readFileSync(`${hook}.pre-handoff`, 'utf8')).toContain('another tool');
    expect(readFileSync(hook, 'utf8')).toContain('git-handoff hook shim');
  });
});
