/**
 * A hook of ours the user edited after init (a line added to `.git/hooks/post-commit`):
 * uninstall takes out exactly our part and keeps the rest, or, where it cannot, leaves the
 * file as it is and says why. A user's edit is never deleted.
 */
import { describe, expect, it } from 'vitest';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { TestRepo, tempDir } from '../helpers/repo.js';
import { handoff } from '../helpers/cli.js';
import { commitWithHooks } from '../helpers/hooks.js';

const USER_LINE = 'echo "user hook ran" >>"${USER_LOG:-/dev/null}"';

function append(path: string, line: string): string {
  const edited = `${readFileSync(path, 'utf8')}${line}\n`;
  writeFileSync(path, edited);
  return edited;
}

describe('uninstall and a hook the user edited after init', () => {
  it('a line added to our shim stays, in a hook that still runs; our lines go', () => {
    const repo = TestRepo.init();
    repo.commit('chore: start');
    expect(handoff(repo, ['init']).code).toBe(0);
    const hook = join(repo.dir, '.git/hooks/post-commit');
    append(hook, USER_LINE);

    const dry = handoff(repo, ['uninstall', '--dry-run']);
    expect(dry.stdout).toContain("take git-handoff's lines out of .git/hooks/post-commit (it changed after init: the line you added stays)");
    expect(dry.stdout).not.toContain('remove .git/hooks/post-commit');
    const un = handoff(repo, ['uninstall']);
    expect(un.code).toBe(0);
    expect(readFileSync(hook, 'utf8')).toBe(`#!/bin/sh\n${USER_LINE}\n`);
    expect(existsSync(join(repo.dir, '.git/hooks/prepare-commit-msg'))).toBe(false);

    // The user's line is what the hook does now, and nothing of ours is left to run.
    const log = join(tempDir(), 'user.log');
    const c = commitWithHooks(repo, 'feat: after uninstall', {}, { env: { USER_LOG: log } });
    expect(c.code).toBe(0);
    expect(readFileSync(log, 'utf8')).toBe('user hook ran\n');
    expect(c.stderr).not.toContain('git-handoff');
  });

  it('an edited shim that was to give its place back to the hook kept aside at init: both stay as they are, and uninstall says why', () => {
    const repo = TestRepo.init();
    repo.commit('chore: start');
    const hook = join(repo.dir, '.git/hooks/post-commit');
    writeFileSync(hook, '#!/bin/sh\necho "the hook from before"\n');
    chmodSync(hook, 0o755);
    handoff(repo, ['init']);
    expect(readFileSync(`${hook}.pre-handoff`, 'utf8')).toBe('#!/bin/sh\necho "the hook from before"\n');
    const edited = append(hook, USER_LINE);

    const un = handoff(repo, ['uninstall']);
    expect(un.code).toBe(0);
    expect(un.stdout).toContain('left .git/hooks/post-commit and .git/hooks/post-commit.pre-handoff as they are: you added lines to it after init');
    expect(readFileSync(hook, 'utf8')).toBe(edited);
    expect(readFileSync(`${hook}.pre-handoff`, 'utf8')).toBe('#!/bin/sh\necho "the hook from before"\n');
  });

  it('one of our own lines changed: the file stays as it is, and uninstall says why', () => {
    const repo = TestRepo.init();
    repo.commit('chore: start');
    handoff(repo, ['init']);
    const hook = join(repo.dir, '.git/hooks/post-commit');
    const edited = readFileSync(hook, 'utf8').replace('#!/bin/sh\n', '#!/bin/bash\n');
    writeFileSync(hook, edited);

    const un = handoff(repo, ['uninstall']);
    expect(un.code).toBe(0);
    expect(un.stdout).toContain("left .git/hooks/post-commit as it is: it changed after init and is not git-handoff's shim with lines added");
    expect(readFileSync(hook, 'utf8')).toBe(edited);
  });

  it("with a tracked core.hooksPath: an edited shim in git-handoff's own folder stays, and uninstall says where the lines belong", () => {
    const repo = TestRepo.init();
    repo.write('.githooks/commit-msg', '#!/bin/sh\nexit 0\n');
    chmodSync(join(repo.dir, '.githooks/commit-msg'), 0o755);
    repo.git('add', '.githooks');
    repo.commit('chore: team hooks');
    repo.git('config', 'core.hooksPath', '.githooks');
    handoff(repo, ['init']);
    const hook = join(repo.dir, '.git/handoff/hooks/post-commit');
    const edited = append(hook, USER_LINE);

    const un = handoff(repo, ['uninstall']);
    expect(un.code).toBe(0);
    expect(un.stdout).toContain(
      'left .git/handoff/hooks/post-commit and .git/handoff/hooks/post-commit.pre-handoff as they are: you added lines to it after init; core.hooksPath no longer points at this folder',
    );
    expect(readFileSync(hook, 'utf8')).toBe(edited);
    expect(repo.git('config', '--get-all', 'core.hooksPath').trim()).toBe('.githooks');
    expect(existsSync(join(repo.dir, '.git/handoff/hooks/commit-msg'))).toBe(false);
  });
});
