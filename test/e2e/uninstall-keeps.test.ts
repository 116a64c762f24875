/**
 * Uninstall undoes only what init did. Config key by key (a value goes only when
 * init set it and it still holds init's value), and no saved copy of a file is ever written
 * over what the user changed after, or between, two inits.
 */
import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { TestRepo } from '../helpers/repo.js';
import { handoff } from '../helpers/cli.js';

const config = (repo: TestRepo) => readFileSync(join(repo.dir, '.git/config'), 'utf8');

describe('uninstall undoes config key by key', () => {
  it('init, git remote add origin, init --sync, uninstall: [remote "origin"] stays, only our values go', () => {
    const repo = TestRepo.init();
    repo.commit('chore: start');
    const pristine = config(repo);
    expect(handoff(repo, ['init']).code).toBe(0);
    repo.git('remote', 'add', 'origin', 'https://example.com/team/repo.git');
    const sync = handoff(repo, ['init', '--sync']);
    expect(sync.code).toBe(0);
    expect(repo.git('config', '--get-all', 'remote.origin.fetch').trim().split('\n')).toEqual([
      '+refs/heads/*:refs/remotes/origin/*',
      '+refs/notes/handoff*:refs/notes/remotes/origin/handoff*',
    ]);
    const un = handoff(repo, ['uninstall']);
    expect(un.code).toBe(0);
    expect(un.stdout).toContain('unset remote.origin.fetch=+refs/notes/handoff*:refs/notes/remotes/origin/handoff*');
    expect(repo.git('config', '--get', 'remote.origin.url').trim()).toBe('https://example.com/team/repo.git');
    expect(repo.git('config', '--get-all', 'remote.origin.fetch').trim()).toBe('+refs/heads/*:refs/remotes/origin/*');
    expect(repo.gitRaw(['config', '--get-regexp', '^notes\\.']).stdout).toBe('');
    // Exactly the config before init plus what the user added meanwhile.
    expect(config(repo)).toBe(`${pristine}[remote "origin"]\n\turl = https://example.com/team/repo.git\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n`);
  });

  it('core.editor and a branch description set between two inits survive uninstall', () => {
    const repo = TestRepo.init();
    repo.commit('chore: start');
    handoff(repo, ['init']);
    repo.git('config', 'core.editor', 'vim');
    repo.git('config', 'branch.main.description', 'the main line');
    handoff(repo, ['init', '--display']);
    handoff(repo, ['uninstall']);
    expect(repo.git('config', '--get', 'core.editor').trim()).toBe('vim');
    expect(repo.git('config', '--get', 'branch.main.description').trim()).toBe('the main line');
    expect(repo.gitRaw(['config', '--get-regexp', '^notes\\.']).stdout).toBe('');
  });

  it('a value the user changed after init is theirs: uninstall leaves it and says so', () => {
    const repo = TestRepo.init();
    repo.commit('chore: start');
    handoff(repo, ['init']);
    repo.git('config', 'notes.rewriteMode', 'concatenate');
    const un = handoff(repo, ['uninstall']);
    expect(un.stdout).toContain('note: left notes.rewriteMode as it is: it no longer holds the value init set (overwrite)');
    expect(repo.git('config', '--get', 'notes.rewriteMode').trim()).toBe('concatenate');
  });
});

describe('uninstall never writes a saved copy over later edits', () => {
  it('a hook the user put in place of our shim between two inits survives uninstall', () => {
    const repo = TestRepo.init();
    repo.commit('chore: start');
    handoff(repo, ['init']);
    const hook = join(repo.dir, '.git/hooks/post-commit');
    const mine = '#!/bin/sh\necho "my post-commit"\n';
    writeFileSync(hook, mine, { mode: 0o755 });
    const again = handoff(repo, ['init']);
    expect(again.stdout).toContain('keep the existing post-commit hook as .git/hooks/post-commit.pre-handoff');
    const un = handoff(repo, ['uninstall']);
    expect(un.code).toBe(0);
    expect(un.stdout).toContain('put .git/hooks/post-commit.pre-handoff back as .git/hooks/post-commit');
    expect(readFileSync(hook, 'utf8')).toBe(mine);
    expect(existsSync(`${hook}.pre-handoff`)).toBe(false);
    expect(existsSync(join(repo.dir, '.git/hooks/post-rewrite'))).toBe(false);
  });

  it('the chained hook edited after init goes back with the edits, not as the copy saved at init', () => {
    const repo = TestRepo.init();
    repo.commit('chore: start');
    const hook = join(repo.dir, '.git/hooks/post-commit');
    writeFileSync(hook, '#!/bin/sh\necho v1\n', { mode: 0o755 });
    handoff(repo, ['init']);
    writeFileSync(`${hook}.pre-handoff`, '#!/bin/sh\necho v2, edited after init\n', { mode: 0o755 });
    handoff(repo, ['uninstall']);
    expect(readFileSync(hook, 'utf8')).toBe('#!/bin/sh\necho v2, edited after init\n');
    expect(existsSync(`${hook}.pre-handoff`)).toBe(false);
  });

  it("agent settings rewritten between two inits keep the user's keys after uninstall", () => {
    const repo = TestRepo.init();
    repo.commit('chore: start');
    handoff(repo, ['init', '--agent', 'claude']);
    const file = join(repo.dir, '.claude/settings.local.json');
    writeFileSync(file, '{\n  "model": "mine"\n}\n');
    expect(handoff(repo, ['init', '--agent', 'claude']).code).toBe(0);
    expect(readFileSync(file, 'utf8')).toContain('"hooks"');
    const un = handoff(repo, ['uninstall']);
    expect(un.code).toBe(0);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ model: 'mine' });
  });

  it('a record from before key-by-key config (the whole config file saved) still never restores that file', () => {
    const repo = TestRepo.init();
    repo.commit('chore: start');
    handoff(repo, ['init']);
    // Older versions recorded .git/config as a file with its bytes before init.
    const recordPath = join(repo.dir, '.git/handoff/install.json');
    const record = JSON.parse(readFileSync(recordPath, 'utf8'));
    repo.git('remote', 'add', 'origin', 'https://example.com/x.git');
    const now = readFileSync(join(repo.dir, '.git/config'));
    record.files.push({
      installer: 'config',
      base: 'common',
      path: 'config',
      before: { data: Buffer.from('[core]\n').toString('base64'), mode: 0o644 },
      after: createHash('sha1').update(now).digest('hex'),
    });
    writeFileSync(recordPath, JSON.stringify(record));
    handoff(repo, ['uninstall']);
    expect(repo.git('config', '--get', 'remote.origin.url').trim()).toBe('https://example.com/x.git');
    expect(repo.gitRaw(['config', '--get-regexp', '^notes\\.']).stdout).toBe('');
  });
});
