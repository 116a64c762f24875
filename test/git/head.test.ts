/**
 * HEAD is read in one place (src/git/head.ts): the branch a work tree is on
 * (`Repo.headBranch`), the commit `HEAD` resolves to (`Repo.resolveRef`) and what
 * `includeIf "onbranch:..."` matches (the in-process config reader) all agree with git on
 * the HEADs git makes: a branch, an unborn branch, a detached HEAD, a linked worktree, an
 * old-style symlinked HEAD, a branch name in another script, one whose bytes are not UTF-8,
 * and a HEAD pointing outside refs/heads/. Where the name cannot be held as text, there is
 * no branch (and the config reader declines, so git answers).
 */
import { describe, expect, it } from 'vitest';
import { execFileSync, spawnSync } from 'node:child_process';
import { rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { TestRepo, isolatedEnv, tempDir } from '../helpers/repo.js';
import { Repo } from '../../src/git/repo.js';
import { readConfigInProcess } from '../../src/git/config-file.js';
import { parseHead } from '../../src/git/head.js';

const env = () => isolatedEnv();
const gitOut = (cwd: string, args: string[]) => spawnSync('git', args, { cwd, env: env() });

/** What git says of HEAD in `cwd`: the branch (bytes), the commit, and the value an onbranch include set. */
function gitAnswers(cwd: string) {
  const sym = gitOut(cwd, ['symbolic-ref', '-q', 'HEAD']);
  const ref = sym.status === 0 ? sym.stdout.subarray(0, -1) : null;
  const commit = gitOut(cwd, ['rev-parse', '-q', '--verify', 'HEAD^{commit}']);
  const included = gitOut(cwd, ['config', '--get', 'test.onbranch']);
  return {
    ref,
    commit: commit.status === 0 ? commit.stdout.toString().trim() : null,
    included: included.status === 0 ? included.stdout.toString().trim() : null,
  };
}

async function ours(cwd: string) {
  const saved = { ...process.env };
  for (const k of Object.keys(process.env)) if (k.startsWith('GIT_')) delete process.env[k];
  Object.assign(process.env, env());
  try {
    const repo = await Repo.discover(cwd);
    try {
      const config = readConfigInProcess(repo.paths.commonDir, repo.paths.gitDir);
      return {
        branch: repo.headBranch(),
        commit: await repo.resolveRef('HEAD'),
        included: config === null ? 'declined' : (config.get('test.onbranch')?.at(-1) ?? null),
      };
    } finally {
      repo.close();
    }
  } finally {
    for (const k of Object.keys(process.env)) delete process.env[k];
    Object.assign(process.env, saved);
  }
}

/** Every HEAD case, each checked against git. */
async function expectAgrees(cwd: string, expectedBranch: string | null) {
  const g = gitAnswers(cwd);
  const o = await ours(cwd);
  const utf8Branch =
    g.ref && g.ref.toString('latin1').startsWith('refs/heads/') && Buffer.from(g.ref.toString('utf8')).equals(g.ref) ? g.ref.toString('utf8').slice(11) : null;
  expect(o.branch).toBe(utf8Branch);
  expect(o.branch).toBe(expectedBranch);
  expect(o.commit).toBe(g.commit);
  if (o.included !== 'declined') expect(o.included).toBe(g.included);
  return o;
}

/** A repository whose config includes a file on branch `name` (onbranch), so the config reader's answer shows which branch it saw. */
function withInclude(repo: TestRepo, name: string) {
  const inc = join(repo.dir, '.git', 'on-branch.inc');
  writeFileSync(inc, '[test]\n\tonbranch = yes\n');
  repo.git('config', `includeIf.onbranch:${name}.path`, inc);
}

describe('HEAD, read in one place, agrees with git', () => {
  it('on a branch, an unborn branch and a detached HEAD', async () => {
    const repo = TestRepo.init();
    withInclude(repo, 'main');
    expect((await expectAgrees(repo.dir, 'main')).commit).toBeNull(); // unborn: the branch, no commit
    expect((await ours(repo.dir)).included).toBe('yes');
    repo.commit('one', { 'a.txt': '1\n' });
    await expectAgrees(repo.dir, 'main');
    repo.git('checkout', '-q', '--detach');
    expect((await expectAgrees(repo.dir, null)).included).toBeNull();
  });

  it('in a linked worktree, which has a HEAD of its own', async () => {
    const repo = TestRepo.init();
    repo.commit('one', { 'a.txt': '1\n' });
    withInclude(repo, 'feature/x');
    const wt = join(tempDir(), 'linked');
    repo.git('worktree', 'add', '-q', '-b', 'feature/x', wt);
    expect((await expectAgrees(wt, 'feature/x')).included).toBe('yes');
    await expectAgrees(repo.dir, 'main');
    const detached = join(tempDir(), 'detached');
    repo.git('worktree', 'add', '-q', '--detach', detached);
    await expectAgrees(detached, null);
  });

  it('with an old-style symlinked HEAD, a branch named in another script, and a HEAD outside refs/heads/', async () => {
    const repo = TestRepo.init();
    repo.commit('one', { 'a.txt': '1\n' });
    repo.git('tag', 'v1');
    withInclude(repo, 'ветка');
    repo.git('branch', 'ветка');
    repo.git('symbolic-ref', 'HEAD', 'refs/heads/ветка');
    expect((await expectAgrees(repo.dir, 'ветка')).included).toBe('yes');
    rmSync(join(repo.dir, '.git', 'HEAD'));
    symlinkSync('refs/heads/main', join(repo.dir, '.git', 'HEAD'));
    await expectAgrees(repo.dir, 'main');
    rmSync(join(repo.dir, '.git', 'HEAD'));
    writeFileSync(join(repo.dir, '.git', 'HEAD'), 'ref: refs/tags/v1\n');
    await expectAgrees(repo.dir, null);
  });

  it('on a branch whose name is not UTF-8: no branch (its name would name another one), and git answers for the config', async () => {
    const repo = TestRepo.init();
    repo.commit('one', { 'a.txt': '1\n' });
    execFileSync('sh', ['-c', `git branch "$(printf 'caf\\351')" && git symbolic-ref HEAD "$(printf 'refs/heads/caf\\351')"`], { cwd: repo.dir, env: env() });
    writeFileSync(join(repo.dir, '.git', 'on-branch.inc'), '[test]\n\tonbranch = yes\n');
    execFileSync('sh', ['-c', `git config "$(printf 'includeIf.onbranch:caf\\351.path')" "$PWD/.git/on-branch.inc"`], { cwd: repo.dir, env: env() });
    const o = await expectAgrees(repo.dir, null);
    expect(o.included).toBe('declined');
    expect(gitAnswers(repo.dir).included).toBe('yes');
  });

  it('parses a HEAD file as git does: blanks around, an id, and nothing else', () => {
    const id = 'a'.repeat(40);
    expect(parseHead(Buffer.from('ref:refs/heads/x'))).toMatchObject({ kind: 'symbolic', branch: 'x' });
    expect(parseHead(Buffer.from('ref: \t refs/heads/x \n\n'))).toMatchObject({ kind: 'symbolic', branch: 'x' });
    expect(parseHead(Buffer.from(`${id}\n`))).toEqual({ kind: 'detached', oid: id });
    for (const bad of ['ref: heads/x\n', 'ref: refs/heads/a b\n', 'ref: refs/heads/a\nref: refs/heads/b\n', 'nonsense\n', ''])
      expect(parseHead(Buffer.from(bad))).toBeUndefined();
  });
});
