/**
 * The two moments a repack beside us used to break a command, made to happen on purpose:
 * `git prune-packed` removing the fan-out folder the writer has just made, and a repack
 * deleting a pack the reader listed before it opened it. (test/slow/gc-beside.test.ts runs
 * the real loops side by side.)
 */
import { describe, expect, it, vi } from 'vitest';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { TestRepo } from '../helpers/repo.js';
import { InProcessObjects } from '../../src/git/packs.js';
import { GitObjectStore } from '../../src/git/object-store.js';

/** Set by a test: the fan-out folder to remove just before the next write into it, as prune-packed would. */
const prune = vi.hoisted(() => ({ dir: null as string | null, times: 0 }));
vi.mock('node:fs', async (original) => {
  const fs = await original<typeof import('node:fs')>();
  const writeFileSync: typeof fs.writeFileSync = (path, ...rest) => {
    if (prune.dir && prune.times > 0 && String(path).startsWith(`${prune.dir}/tmp_obj_`)) {
      prune.times--;
      fs.rmdirSync(prune.dir);
    }
    return fs.writeFileSync(path, ...rest);
  };
  return { ...fs, default: { ...fs, writeFileSync }, writeFileSync };
});

describe('beside git repack and prune-packed', () => {
  it('a loose object is written when prune-packed removed its fan-out folder a moment after it was made', async () => {
    const repo = TestRepo.init();
    repo.commit('feat: one', { 'a.txt': '1\n' });
    const objects = join(repo.dir, '.git/objects');
    const store = new GitObjectStore(join(repo.dir, '.git'), objects);
    try {
      const data = Buffer.from('a note written while git prunes\n');
      const { hashObject } = await import('../../src/git/objects.js');
      const oid = hashObject('blob', data);
      prune.dir = join(objects, oid.slice(0, 2));
      prune.times = 2;
      expect(await store.write('blob', data)).toBe(oid);
      expect(prune.times).toBe(0);
      expect(repo.git('cat-file', '-p', oid)).toBe(data.toString());
      expect(readdirSync(prune.dir).filter((f) => f.startsWith('tmp_obj_'))).toEqual([]);
    } finally {
      prune.dir = null;
      store.close();
    }
  });

  it('a pack deleted by a repack after it was listed and before it was opened: the pack folder is listed again', () => {
    const repo = TestRepo.init();
    repo.commit('feat: one', { 'a.txt': 'packed once\n' });
    const blob = repo.git('rev-parse', 'HEAD:a.txt').trim();
    repo.git('repack', '-a', '-d', '-q');
    repo.git('prune-packed');
    repo.commit('feat: two', { 'b.txt': 'loose\n' });
    const loose = repo.git('rev-parse', 'HEAD:b.txt').trim();
    const reader = new InProcessObjects(join(repo.dir, '.git/objects'));
    try {
      // lists the packs (their indexes open, the pack files not yet)
      expect(reader.read(loose)?.data.toString()).toBe('loose\n');
      const before = readdirSync(join(repo.dir, '.git/objects/pack'));
      repo.git('repack', '-a', '-d', '-q');
      repo.git('prune-packed');
      expect(readdirSync(join(repo.dir, '.git/objects/pack'))).not.toEqual(before);
      expect(reader.read(blob)?.data.toString()).toBe('packed once\n');
    } finally {
      reader.close();
    }
  });
});
