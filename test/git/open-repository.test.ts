/**
 * Opening the repository a use case runs in (src/app/repository.ts), against real
 * repositories: the repository is closed however the use case ends, "no repository here" is
 * the only refusal withRepoIfAny turns into null, and a bare repository gets one refusal with
 * a code of its own. Also the diff use case's one decision about a missing version.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { TestRepo, isolatedEnv, tempDir } from '../helpers/repo.js';
import { Repo } from '../../src/git/repo.js';
import { requireWorkTree, withRepo, withRepoIfAny } from '../../src/app/repository.js';
import { diffVersions } from '../../src/app/diff.js';
import { writeHandoff } from '../../src/app/write.js';
import { isHandoffError } from '../../src/errors.js';

const saved = { ...process.env };
beforeAll(() => {
  for (const k of Object.keys(process.env)) delete process.env[k];
  Object.assign(process.env, isolatedEnv({ GIT_COMMITTER_DATE: '@1767225600 +0000', GIT_AUTHOR_DATE: '@1767225600 +0000' }));
});
afterAll(() => {
  for (const k of Object.keys(process.env)) delete process.env[k];
  Object.assign(process.env, saved);
});
afterEach(() => vi.restoreAllMocks());

/** The error `p` rejects with (fails the test when it resolves). */
async function rejection(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (e) {
    return e;
  }
  throw new Error('expected a rejection');
}

describe('withRepo', () => {
  it("returns the use case's answer and closes the repository once", async () => {
    const repo = TestRepo.init();
    const close = vi.spyOn(Repo.prototype, 'close');
    expect(await withRepo(repo.dir, (r) => r.workTree)).toBe(repo.dir);
    expect(close).toHaveBeenCalledTimes(1);
  });

  it('closes the repository when the use case throws, and passes the error on unchanged', async () => {
    const repo = TestRepo.init();
    const close = vi.spyOn(Repo.prototype, 'close');
    const boom = new Error('boom');
    expect(
      await rejection(
        withRepo(repo.dir, async () => {
          throw boom;
        }),
      ),
    ).toBe(boom);
    expect(close).toHaveBeenCalledTimes(1);
  });

  it('outside a repository refuses with NotARepository and never runs the use case', async () => {
    const use = vi.fn();
    const e = await rejection(withRepo(tempDir(), use));
    expect(isHandoffError(e, 'NotARepository')).toBe(true);
    expect(use).not.toHaveBeenCalled();
  });
});

describe('withRepoIfAny', () => {
  it('gives the use case null outside a repository, and the repository (closed after) inside one', async () => {
    expect(await withRepoIfAny(tempDir(), (r) => r)).toBeNull();
    const repo = TestRepo.init();
    const close = vi.spyOn(Repo.prototype, 'close');
    expect(await withRepoIfAny(repo.dir, (r) => r?.workTree)).toBe(repo.dir);
    expect(close).toHaveBeenCalledTimes(1);
  });

  it('still refuses a repository it cannot use (only "no repository" becomes null)', async () => {
    const dir = tempDir();
    const sha256 = new TestRepo(dir, isolatedEnv());
    sha256.git('init', '-q', '--object-format=sha256');
    const use = vi.fn();
    const e = await rejection(withRepoIfAny(dir, use));
    expect(isHandoffError(e, 'UnsupportedRepository')).toBe(true);
    expect(use).not.toHaveBeenCalled();
  });
});

describe('requireWorkTree', () => {
  it('returns the work tree of a repository that has one', async () => {
    const repo = TestRepo.init();
    expect(await withRepo(repo.dir, (r) => requireWorkTree(r, 'init'))).toBe(repo.dir);
  });

  it.each([
    ['init', {}, 'init needs a work tree; this is a bare repository'],
    ['work items', { plural: true }, 'work items need a work tree; this is a bare repository'],
  ])('refuses a bare repository for %s with BareRepository, exit 1', async (what, opts, message) => {
    const bare = TestRepo.init({ bare: true });
    const e = await rejection(withRepo(bare.dir, (r) => requireWorkTree(r, what, opts)));
    expect(isHandoffError(e, 'BareRepository')).toBe(true);
    expect(e).toMatchObject({ message, exitCode: 1, code: 'BareRepository' });
  });
});

describe('diffVersions', () => {
  it('with both names defaulted, a selection of one version is TooFewVersions; a name given keeps UnknownVersion', async () => {
    const repo = TestRepo.init();
    repo.commit('feat: one');
    await withRepo(repo.dir, (r) => writeHandoff(r, { input: null, inputName: 'stdin', flags: { summary: 'first' }, dryRun: false }));
    const defaulted = await rejection(withRepo(repo.dir, (r) => diffVersions(r, { checkBranch: true })));
    expect(defaulted).toMatchObject({ code: 'TooFewVersions', message: 'diff needs two versions; this selection has fewer' });
    const named = await rejection(withRepo(repo.dir, (r) => diffVersions(r, { old: '~1', checkBranch: true })));
    expect(isHandoffError(named, 'UnknownVersion')).toBe(true);
    const same = await withRepo(repo.dir, (r) => diffVersions(r, { old: '~0', checkBranch: false }));
    expect(same).toMatchObject({ changes: [], moved: [] });
    expect(same.old.id).toBe(same.new.id);
  });
});
