/**
 * Issue 23, point 8: the outgoing scan reads what a push sends beside the note blobs: each
 * notes commit's message (subject, body, trailers) and the names of the bookkeeping entries
 * its tree adds. A history built with plain git (commit-tree, update-index) is refused by
 * sync before anything is pushed. Values made at run time, never live.
 */
import { describe, expect, it } from 'vitest';
import { handoff } from '../helpers/cli.js';
import { nativeCommit, token, withRemote } from '../helpers/native-notes.js';
import { gitWithHooks, handoffLines } from '../helpers/hooks.js';

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

  it('the content of a bookkeeping record: sync refuses naming the path (test/slow/attack-secrets-records.test.ts has every kind, and purge)', () => {
    const { repo, bare } = withRemote();
    nativeCommit(
      repo,
      'receipts/claim-1-abcdef012345.json',
      `{"id":"claim-1-abcdef012345","evidence":{"note":"pushed with ${token()}"}}\n`,
      'bookkeeping\n\nHandoff-Kind: receipt\n',
    );
    const r = handoff(repo, ['sync']);
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(r.stderr).toContain('the bookkeeping record receipts/claim-1-abcdef012345.json holds a secret');
    expect(bare.gitRaw(['rev-parse', '-q', '--verify', 'refs/notes/handoff']).status).not.toBe(0);
  });

  it('a clean history still syncs', () => {
    const { repo, bare } = withRemote();
    nativeCommit(repo, 'policy/extra', 'ok\n', 'bookkeeping\n\nHandoff-Kind: policy\n');
    const r = handoff(repo, ['sync']);
    expect(r.code, r.stderr).toBe(0);
    expect(bare.gitRaw(['rev-parse', '-q', '--verify', 'refs/notes/handoff']).status).toBe(0);
  });

  it('the pre-push hook reads the same: a leaked record, then a commit subject, stays home; the user’s push goes on', () => {
    const { repo, bare } = withRemote();
    expect(handoff(repo, ['init', '--sync']).code).toBe(0);
    expect(gitWithHooks(repo, ['push', '-q', 'origin', 'main']).code).toBe(0);
    const before = bare.git('rev-parse', 'refs/notes/handoff').trim();
    expect(before).toBe(repo.notesRef());
    const pushed = (what: RegExp) => {
      repo.commit(`feat: more ${what.source.length}`, { 'b.txt': `${what.source}\n` });
      const push = gitWithHooks(repo, ['push', '-q', 'origin', 'main']);
      expect(push.code, push.stderr).toBe(0);
      expect(handoffLines(push.stderr)).toEqual([expect.stringMatching(/^git-handoff: the handoff history was not pushed \(.*\); your push goes on$/)]);
      expect(handoffLines(push.stderr)[0]).toMatch(what);
      expect(bare.git('rev-parse', 'main').trim()).toBe(repo.head());
      expect(bare.git('rev-parse', 'refs/notes/handoff').trim()).toBe(before);
    };
    nativeCommit(repo, 'items/local/9.json', `{"workItem":"local:#9","title":"deploy key ${token()}","receipts":[]}\n`, 'bookkeeping\n\nHandoff-Kind: item\n');
    pushed(/the bookkeeping record items\/local\/9\.json holds a secret/);
    expect(handoff(repo, ['purge', 'items/local/9.json']).code).toBe(0);
    nativeCommit(repo, 'policy/extra', 'ok\n', `deploy with ${token()}\n`);
    pushed(/its message holds a secret/);
  });
});
