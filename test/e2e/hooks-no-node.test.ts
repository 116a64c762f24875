/**
 * With the hooks installed, a commit whose subject the substantive rule excludes starts no
 * Node at all: githooks/post-commit answers it in the shell (prepare-commit-msg already
 * does without cadence/streaming/). Node is watched through PATH: the `node` found first
 * records every start and runs the real one.
 */
import { describe, expect, it } from 'vitest';
import { chmodSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { TestRepo, tempDir } from '../helpers/repo.js';
import { cliPath, handoff } from '../helpers/cli.js';
import { commitWithHooks, gitWithHooks } from '../helpers/hooks.js';

function watched(): { env: NodeJS.ProcessEnv; starts: () => string[]; reset: () => void } {
  const bin = tempDir('handoff-node-spy-');
  const log = join(bin, 'starts.log');
  writeFileSync(join(bin, 'node'), `#!/bin/sh\necho "$*" >> '${log}'\nexec '${process.execPath}' "$@"\n`);
  chmodSync(join(bin, 'node'), 0o755);
  return {
    env: { PATH: `${bin}:${cliPath()}` },
    starts: () => (existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n') : []),
    reset: () => rmSync(log, { force: true }),
  };
}

describe('hooks: no Node for a commit with an excluded subject', () => {
  it('answers docs:, chore(scope)!:, fix typo in the shell; a substantive commit still gets its reminder', () => {
    const repo = TestRepo.init();
    repo.commit('chore: start', { 'README.md': 'x\n' });
    expect(handoff(repo, ['init']).code).toBe(0);
    const node = watched();
    for (const subject of ['docs: the README', 'chore(deps)!: bump', 'Fix typo in the parser', 'STYLE: spacing']) {
      const r = commitWithHooks(repo, subject, { 'a.txt': `${subject}\n` }, { env: node.env });
      expect(r.code).toBe(0);
      expect(r.stderr).toBe('');
      expect(node.starts(), subject).toEqual([]);
    }
    // The wrapper does see Node: a substantive commit runs the hook and is reminded.
    const feat = commitWithHooks(repo, 'feat: five files', Object.fromEntries([1, 2, 3, 4, 5].map((i) => [`f${i}.txt`, `${i}\n`])), { env: node.env });
    expect(feat.stderr).toMatch(/^git-handoff: substantive commit \(.+\)/);
    expect(node.starts().some((s) => s.includes('hook post-commit'))).toBe(true);
    node.reset();
    // "docs" not as the type: Node decides, and says nothing for a small commit.
    const small = commitWithHooks(repo, 'fix: docs: x', {}, { env: node.env });
    expect(small.stderr).toBe('');
    expect(node.starts().some((s) => s.includes('hook post-commit'))).toBe(true);
  });

  it('goes by the commit, not by a message file another command left behind, and works in a linked worktree', () => {
    const repo = TestRepo.init();
    repo.commit('chore: start', { 'README.md': 'x\n' });
    expect(handoff(repo, ['init']).code).toBe(0);
    const node = watched();
    // COMMIT_EDITMSG still holds a docs: subject; a cherry-pick's commit is feat: and Node must see it.
    repo.git('checkout', '-q', '-b', 'side');
    repo.commit('feat: on side', { 's.txt': 's\n' });
    repo.git('checkout', '-q', 'main');
    expect(commitWithHooks(repo, 'docs: last message', {}, { env: node.env }).code).toBe(0);
    expect(node.starts()).toEqual([]);
    expect(readFileSync(join(repo.dir, '.git/COMMIT_EDITMSG'), 'utf8')).toMatch(/^docs: last message/);
    const pick = gitWithHooks(repo, ['cherry-pick', 'side'], { env: node.env });
    expect(pick.code, pick.stderr).toBe(0);
    expect(node.starts().some((s) => s.includes('hook post-commit'))).toBe(true);
    node.reset();
    // A linked worktree keeps its COMMIT_EDITMSG in its own git dir (git sets GIT_DIR for the hook).
    const wt = join(tempDir(), 'wt');
    repo.git('worktree', 'add', '-q', '-b', 'wt', wt);
    const other = new TestRepo(wt, repo.env);
    expect(commitWithHooks(other, 'docs: in the worktree', { 'w.txt': 'w\n' }, { env: node.env }).stderr).toBe('');
    expect(node.starts()).toEqual([]);
    const feat = commitWithHooks(other, 'feat: in the worktree', Object.fromEntries([1, 2, 3, 4, 5].map((i) => [`w${i}.txt`, `${i}\n`])), { env: node.env });
    expect(feat.stderr).toMatch(/^git-handoff: substantive commit/);
  });
});
