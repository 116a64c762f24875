/**
 * Notes histories written as an attacker writes them, with plain git (hash-object,
 * update-index, commit-tree), for the attack tests of the outgoing secret scan. Values made at
 * run time, never live.
 */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { expect } from 'vitest';
import { TestRepo, tempDir } from './repo.js';
import { handoff } from './cli.js';

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
export const token = () => ['gh', 'p_', ...[...randomBytes(36)].map((b) => ALNUM[b % ALNUM.length])].join('');

export function withRemote(): { repo: TestRepo; bare: TestRepo } {
  const bare = TestRepo.init({ bare: true });
  const repo = TestRepo.init();
  repo.commit('feat: start', { 'a.txt': 'a\n' });
  repo.git('remote', 'add', 'origin', bare.dir);
  expect(handoff(repo, ['write', '--summary', 'clean work']).code).toBe(0);
  return { repo, bare };
}

/** A notes commit on top of the tip, made with plain git: `path` set to `content`, with `message`. */
export function nativeCommit(repo: TestRepo, path: string, content: string, message: string): void {
  const blob = repo.gitRaw(['hash-object', '-w', '--stdin'], { input: content }).stdout.trim();
  const env = { GIT_INDEX_FILE: join(tempDir(), 'index') };
  repo.gitRaw(['read-tree', 'refs/notes/handoff'], { env });
  repo.gitRaw(['update-index', '--add', '--cacheinfo', `100644,${blob},${path}`], { env });
  const tree = repo.gitRaw(['write-tree'], { env }).stdout.trim();
  const commit = repo.gitRaw(['commit-tree', tree, '-p', 'refs/notes/handoff'], { input: message }).stdout.trim();
  repo.git('update-ref', 'refs/notes/handoff', commit);
}
