/**
 * Issue 23, point 8: the outgoing scan reads what a push sends beside the note blobs: each
 * notes commit's message (subject, body, trailers) and the names of the bookkeeping entries
 * its tree adds. A history built with plain git (commit-tree, update-index) is refused by
 * sync before anything is pushed. Values made at run time, never live.
 */
import { describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { TestRepo, tempDir } from '../helpers/repo.js';
import { handoff } from '../helpers/cli.js';

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const token = () => ['gh', 'p_', ...[...randomBytes(36)].map((b) => ALNUM[b % ALNUM.length])].join('');

function withRemote(): { repo: TestRepo; bare: TestRepo } {
  const bare = TestRepo.init({ bare: true });
  const repo = TestRepo.init();
  repo.commit('feat: start', { 'a.txt': 'a\n' });
  repo.git('remote', 'add', 'origin', bare.dir);
  expect(handoff(repo, ['write', '--summary', 'clean work']).code).toBe(0);
  return { repo, bare };
}

/** A notes commit on top of the tip, made with plain git: `path` set to `content`, with `message`. */
function nativeCommit(repo: TestRepo, path: string, content: string, message: string): void {
  const blob = repo.gitRaw(['hash-object', '-w', '--stdin'], { input: content }).stdout.trim();
  const env = { GIT_INDEX_FILE: join(tempDir(), 'index') };
  repo.gitRaw(['read-tree', 'refs/notes/handoff'], { env });
  repo.gitRaw(['update-index', '--add', '--cacheinfo', `100644,${blob},${path}`], { env });
  const tree = repo.gitRaw(['write-tree'], { env }).stdout.trim();
  const commit = repo.gitRaw(['commit-tree', tree, '-p', 'refs/notes/handoff'], { input: message }).stdout.trim();
  repo.git('update-ref', 'refs/notes/handoff', commit);
}

describe('secrets a push would send outside the note blobs', () => {
  it.each([
    ['a commit subject', () => ['policy/extra', 'ok\n', `deploy with ${token()}\n`]],
    ['a commit trailer', () => ['policy/extra', 'ok\n', `bookkeeping\n\nHandoff-Kind: policy\nHandoff-Approved-By: ${token()}\n`]],
    ['a tree entry name', () => [`receipts/${token()}.json`, '{}\n', 'bookkeeping\n\nHandoff-Kind: receipt\n']],
  ] as const)('%s: sync refuses, nothing reaches the remote', (_what, make) => {
    const { repo, bare } = withRemote();
    const [path, content, message] = make();
    nativeCommit(repo, path, content, message);
    const r = handoff(repo, ['sync']);
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(r.stderr).toMatch(/GitHub/i);
    expect(bare.gitRaw(['rev-parse', '-q', '--verify', 'refs/notes/handoff']).status).not.toBe(0);
  });

  it.each([
    ['a receipt', 'receipts/claim-1-abcdef012345.json', (t: string) => `{"id":"claim-1-abcdef012345","evidence":{"note":"pushed with ${t}"}}\n`],
    ['an item record', 'items/local/1.json', (t: string) => `{"provider":"local","title":"deploy key ${t}","receipts":[]}\n`],
    ['a policy file', 'policy/approved', (t: string) => `0123456789abcdef0123456789abcdef01234567\n${t}\n`],
    ['another path beside the notes', 'zz/anything', (t: string) => `export GITHUB_TOKEN=${t}\n`],
  ] as const)('the content of %s: sync refuses naming the path, nothing reaches the remote', (_what, path, content) => {
    const { repo, bare } = withRemote();
    nativeCommit(repo, path, content(token()), 'bookkeeping\n\nHandoff-Kind: receipt\n');
    for (const args of [['sync', '--dry-run'], ['sync']]) {
      const r = handoff(repo, args);
      expect(r.code, r.stdout + r.stderr).toBe(1);
      expect(r.stderr).toMatch(/GitHub/i);
      expect(r.stderr).toContain(`the bookkeeping record ${path} holds a secret`);
      expect(r.stderr).toContain(`git handoff purge ${path}`);
    }
    expect(bare.gitRaw(['rev-parse', '-q', '--verify', 'refs/notes/handoff']).status).not.toBe(0);
  });

  it('the tool’s own records (a claim, its receipt) are no false alarm', () => {
    const { repo, bare } = withRemote();
    expect(handoff(repo, ['claim', '--work-item', 'local:#7', '--title', 'Parse the config', '--session', 's1']).code).toBe(0);
    expect(repo.gitRaw(['ls-tree', '-r', '--name-only', 'refs/notes/handoff']).stdout).toMatch(/^receipts\//m);
    const r = handoff(repo, ['sync']);
    expect(r.code, r.stderr).toBe(0);
    expect(bare.gitRaw(['rev-parse', '-q', '--verify', 'refs/notes/handoff']).status).toBe(0);
  });

  it('a clean history still syncs', () => {
    const { repo, bare } = withRemote();
    nativeCommit(repo, 'policy/extra', 'ok\n', 'bookkeeping\n\nHandoff-Kind: policy\n');
    const r = handoff(repo, ['sync']);
    expect(r.code, r.stderr).toBe(0);
    expect(bare.gitRaw(['rev-parse', '-q', '--verify', 'refs/notes/handoff']).status).toBe(0);
  });
});
