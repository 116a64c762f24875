/**
 * "is corrupt ... 'git fsck' shows the damage" is said of what git fsck would also report,
 * and of nothing else: an error inside our code (a function this Node lacks) is ours, not
 * damage to the user's repository.
 */
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync, truncateSync } from 'node:fs';
import { join } from 'node:path';
import { TestRepo, isolatedEnv } from '../helpers/repo.js';
import { InProcessObjects } from '../../src/git/packs.js';

/** Runs `fn` with `process.getBuiltinModule` missing, as on a Node older than 20.16. */
function withoutGetBuiltinModule<T>(fn: () => T): T {
  const saved = process.getBuiltinModule;
  (process as { getBuiltinModule?: unknown }).getBuiltinModule = undefined;
  try {
    return fn();
  } finally {
    process.getBuiltinModule = saved;
  }
}

const readError = (reader: InProcessObjects, oid: string): unknown => {
  try {
    reader.read(oid);
  } catch (e) {
    return e;
  }
  return null;
};

describe('what is called corrupt', () => {
  it('a function missing in this Node is an internal error for a loose and a packed object, not corruption', () => {
    const repo = TestRepo.init();
    repo.commit('feat: one', { 'a.txt': 'precious\n' });
    const loose = repo.git('rev-parse', 'HEAD:a.txt').trim();
    const objects = join(repo.dir, '.git/objects');
    let e = withoutGetBuiltinModule(() => readError(new InProcessObjects(objects), loose));
    expect(e).toBeInstanceOf(TypeError);
    expect(String(e)).not.toMatch(/corrupt/);

    repo.git('repack', '-a', '-d', '-q');
    repo.git('prune-packed');
    e = withoutGetBuiltinModule(() => readError(new InProcessObjects(objects), loose));
    expect(e).toBeInstanceOf(TypeError);
    expect(String(e)).not.toMatch(/corrupt/);
    // and the repository is whole: git says so, and so do we
    repo.fsck();
    expect(new InProcessObjects(objects).read(loose)?.data.toString()).toBe('precious\n');
  });

  it('a pack cut short is still corrupt, as git says', () => {
    const repo = TestRepo.init();
    const big = Array.from({ length: 4000 }, (_, i) => `line ${i} ${(i * 7919) % 1000}`).join('\n');
    repo.commit('feat: one', { 'a.txt': big });
    const oid = repo.git('rev-parse', 'HEAD:a.txt').trim();
    repo.git('repack', '-a', '-d', '-q');
    repo.git('prune-packed');
    const packDir = join(repo.dir, '.git/objects/pack');
    const pack = join(
      packDir,
      readdirSync(packDir).find((f) => f.endsWith('.pack'))!,
    );
    truncateSync(pack, Math.floor(statSync(pack).size / 2));
    expect(spawnSync('git', ['cat-file', '-p', oid], { cwd: repo.dir, env: isolatedEnv() }).status).not.toBe(0);
    expect(String(readError(new InProcessObjects(join(repo.dir, '.git/objects')), oid))).toMatch(/is corrupt/);
  });
});
