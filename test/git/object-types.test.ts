/** One `git cat-file --batch-check` names the type of every object asked, null for one not here. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestRepo, isolatedEnv } from '../helpers/repo.js';
import { Repo } from '../../src/git/repo.js';
import { objectTypes } from '../../src/git/object-types.js';

const saved = { ...process.env };
beforeAll(() => {
  for (const k of Object.keys(process.env)) delete process.env[k];
  Object.assign(process.env, isolatedEnv());
});
afterAll(() => {
  for (const k of Object.keys(process.env)) delete process.env[k];
  Object.assign(process.env, saved);
});

describe('objectTypes', () => {
  it('answers each id with its type, or null when the repository does not have it', async () => {
    const t = TestRepo.init();
    const commit = t.commit('feat: one', { 'a.txt': 'a\n' });
    const tree = t.git('rev-parse', 'HEAD^{tree}').trim();
    const blob = t.git('rev-parse', 'HEAD:a.txt').trim();
    const tag = (t.git('tag', '-a', '-m', 'v1', 'v1'), t.git('rev-parse', 'v1').trim());
    const gone = '1'.repeat(40);
    const repo = await Repo.discover(t.dir);
    try {
      const types = await objectTypes(repo, [gone, commit, tree, blob, tag, commit]);
      expect([...types]).toEqual([
        [gone, null],
        [commit, 'commit'],
        [tree, 'tree'],
        [blob, 'blob'],
        [tag, 'tag'],
      ]);
      expect((await objectTypes(repo, [])).size).toBe(0);
    } finally {
      repo.close();
    }
  });
});
