/**
 * `Repo.refNames` (src/git/ref-names.ts in-process) lists what `git for-each-ref
 * --format=%(refname) <prefix>` lists: loose refs at any depth, packed ones, a ref both
 * loose and packed once, in git's order; a lock file is no ref; none at all is an empty
 * list. show's provenance asks it on every call and started a git process for it.
 */
import { describe, expect, it } from 'vitest';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { TestRepo } from '../helpers/repo.js';
import { Repo } from '../../src/git/repo.js';

const PREFIX = 'refs/notes/remotes/';
const listed = (repo: TestRepo) => repo.git('for-each-ref', '--format=%(refname)', PREFIX).split('\n').filter(Boolean);

describe('refNames', () => {
  it('lists the refs under a prefix as git for-each-ref does', async () => {
    const repo = TestRepo.init();
    repo.commit('one', { 'a.txt': 'a\n' });
    const head = repo.git('rev-parse', 'HEAD').trim();
    const r0 = await Repo.discover(repo.dir);
    expect(await r0.refNames(PREFIX)).toEqual([]);
    r0.close();
    for (const name of ['origin', 'b', 'team/z', 'Upper', 'a-b']) repo.git('update-ref', `${PREFIX}${name}/handoff`, head);
    repo.git('update-ref', 'refs/notes/handoff', head);
    repo.git('pack-refs', '--all');
    // loose again beside the packed ones, and one only loose, and a lock file
    repo.git('update-ref', `${PREFIX}origin/handoff`, head);
    repo.git('update-ref', `${PREFIX}c/handoff`, head);
    mkdirSync(join(repo.dir, '.git', PREFIX, 'd'), { recursive: true });
    writeFileSync(join(repo.dir, '.git', PREFIX, 'd', 'handoff.lock'), `${head}\n`);
    const r = await Repo.discover(repo.dir);
    try {
      const got = await r.refNames(PREFIX);
      expect(got).toEqual(listed(repo));
      expect(got).toHaveLength(6);
    } finally {
      r.close();
    }
  });
});
