/**
 * Canonical YAML through native git: the bytes we hash are the bytes git
 * stores, and a note we write comes back from `git notes show` byte for byte and reads
 * as the same handoff, through our reader and js-yaml.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { load, CORE_SCHEMA } from 'js-yaml';
import { TestRepo } from '../helpers/repo.js';
import { stored, toolFields, writeInput } from '../helpers/arbitraries.js';
import { GitObjectStore } from '../../src/git/object-store.js';
import { EMPTY_TREE_OID, hashObject, serializeCommit } from '../../src/git/objects.js';
import { setNote } from '../../src/git/notes-tree.js';
import { toCanonicalYaml } from '../../src/core/canonical.js';
import { parseDocument } from '../../src/core/parse.js';
import { checkStored } from '../../src/core/schema.js';

describe('canonical YAML through native git (property)', () => {
  it('hashes as git hash-object does and returns from git notes show unchanged', async () => {
    const repo = TestRepo.init();
    repo.commit('init');
    const store = new GitObjectStore(join(repo.dir, '.git'), join(repo.dir, '.git', 'objects'));
    try {
      const docs = fc.sample(fc.tuple(writeInput, toolFields), { numRuns: 40, seed: Number(process.env.HANDOFF_FC_SEED ?? 4242) });
      const yamls = docs.map(([input, tool]) => toCanonicalYaml(stored(input, tool) as Record<string, unknown>));
      let tree = EMPTY_TREE_OID;
      const targets: string[] = [];
      for (const [i, yaml] of yamls.entries()) {
        const bytes = Buffer.from(yaml, 'utf8');
        const blob = await store.write('blob', bytes);
        expect(blob).toBe(hashObject('blob', bytes));
        expect(repo.gitRaw(['hash-object', '--stdin'], { input: yaml }).stdout.trim()).toBe(blob);
        const target = await store.write('blob', Buffer.from(`target ${i}\n`));
        targets.push(target);
        tree = await setNote(store, tree, target, blob);
      }
      const sig = { name: 'T', email: 't@example.com', timestamp: 1767225600, tz: '+0000' };
      repo.git(
        'update-ref',
        'refs/notes/handoff',
        await store.write('commit', serializeCommit({ tree, parents: [], author: sig, committer: sig, message: 'notes\n' })),
      );
      for (const [i, yaml] of yamls.entries()) {
        const shown = spawnSync('git', ['notes', '--ref=handoff', 'show', targets[i]], { cwd: repo.dir, env: repo.tick() });
        expect(shown.stdout.equals(Buffer.from(yaml, 'utf8'))).toBe(true);
        const text = shown.stdout.toString('utf8');
        const ours = checkStored(await parseDocument(text));
        expect(ours.problems).toEqual([]);
        expect(ours.handoff).toEqual(load(text, { schema: CORE_SCHEMA }));
        expect(toCanonicalYaml(ours.handoff as Record<string, unknown>)).toBe(yaml);
      }
      repo.fsck();
    } finally {
      store.close();
    }
  });
});
