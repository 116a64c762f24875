/**
 * Issue 23, point 8: the way out each refusal of the outgoing secret scan names, followed as
 * a user would (packed CLI, real git, a bare remote): the secret leaves every object the next
 * push sends, the push then goes through, nothing else is lost (every version readable, `git
 * fsck` clean), and the purge travels with sync to a clone that holds the leak. Histories
 * written with plain git; values made at run time.
 */
import { describe, expect, it } from 'vitest';
import { TestRepo } from '../helpers/repo.js';
import { handoff } from '../helpers/cli.js';
import { nativeCommit, token, withRemote } from '../helpers/native-notes.js';

/** The content of every object `refs/notes/handoff` reaches (what a push to an empty remote sends), names in trees included. */
function reachable(r: TestRepo): string {
  const ids = r
    .git('rev-list', '--objects', 'refs/notes/handoff')
    .trim()
    .split('\n')
    .map((l) => l.split(' ')[0]);
  return r.gitRaw(['cat-file', '--batch'], { input: `${ids.join('\n')}\n` }).stdout;
}

const summaries = (r: TestRepo): string[] => handoff(r, ['log', '--json']).json.versions.map((v: any) => v.handoff?.summary ?? v.summary);

describe('the purge a refusal names removes what it found', () => {
  it.each([
    ['a bookkeeping commit’s subject', (t: string) => ['policy/extra', `deploy with ${t}\n`]],
    ['a bookkeeping commit’s body', (t: string) => ['policy/extra', `bookkeeping\n\nexport GITHUB_TOKEN=${t}\n\nHandoff-Kind: policy\n`]],
    ['a bookkeeping commit’s trailer', (t: string) => ['policy/extra', `bookkeeping\n\nHandoff-Kind: policy\nHandoff-Approved-By: ${t}\n`]],
    ['a tree entry name', (t: string) => [`receipts/${t}.json`, 'bookkeeping\n\nHandoff-Kind: receipt\n']],
    ['a folder’s name in the tree', (t: string) => [`zz/${t}/x`, 'bookkeeping\n\nHandoff-Kind: receipt\n']],
  ] as const)('%s: following the advice, the next push goes through without it; nothing else is lost; another clone applies it', (_what, make) => {
    const { repo: a, bare } = withRemote();
    const leaked = token();
    // b holds the leak before the purge (it fetched a's history straight from a)
    const b = TestRepo.init({ branch: 'unborn' });
    b.git('remote', 'add', 'origin', bare.dir);
    const [path, message] = make(leaked);
    nativeCommit(a, path, 'ok\n', message);
    expect(handoff(a, ['write', '--summary', 'later work']).code).toBe(0);
    b.git('fetch', '-q', a.dir, 'main:main', '+refs/notes/handoff:refs/notes/handoff');
    b.git('checkout', '-q', 'main');
    expect(reachable(b)).toContain(leaked);

    const refused = handoff(a, ['sync']);
    expect(refused.code, refused.stderr).toBe(1);
    expect(refused.stderr).not.toContain(leaked);
    const advice = /remove it with: git handoff (purge [0-9a-f]{12})\b/.exec(refused.stderr);
    expect(advice, refused.stderr).not.toBeNull();
    const p = handoff(a, advice![1].split(' '));
    expect(p.code, p.stdout + p.stderr).toBe(0);
    expect(reachable(a)).not.toContain(leaked);
    expect(summaries(a)).toEqual(['later work', 'clean work']);
    a.fsck();

    const s = handoff(a, ['sync']);
    expect(s.code, s.stdout + s.stderr).toBe(0);
    expect(bare.git('rev-parse', 'refs/notes/handoff').trim()).toBe(a.notesRef());
    expect(reachable(bare)).not.toContain(leaked);
    // named again, nothing is left to purge
    expect(handoff(a, advice![1].split(' ')).code).toBe(1);

    // the purge travels: b's next sync applies it and pushes b's own work
    expect(handoff(b, ['write', '--summary', 'work of b']).code).toBe(0);
    const sb = handoff(b, ['sync']);
    expect(sb.code, sb.stdout + sb.stderr).toBe(0);
    expect(reachable(b)).not.toContain(leaked);
    expect(reachable(bare)).not.toContain(leaked);
    expect(summaries(b).sort()).toEqual(['clean work', 'later work', 'work of b']);
    b.fsck();
    expect(handoff(a, ['sync']).code).toBe(0);
    expect(summaries(a).sort()).toEqual(['clean work', 'later work', 'work of b']);
    expect(reachable(a)).not.toContain(leaked);
  });

  it('a secret in a version’s own Handoff- trailer: its purge takes the trailer too', () => {
    const { repo: a, bare } = withRemote();
    const leaked = token();
    const target = a.head();
    nativeCommit(
      a,
      target,
      'schema: 1\nstatus: paused\nsummary: hand-made\n',
      `handoff\n\nHandoff-Kind: version\nHandoff-Target: ${target}\nHandoff-Branch: ${leaked}\n`,
    );
    expect(handoff(a, ['write', '--summary', 'later work']).code).toBe(0);
    const refused = handoff(a, ['sync']);
    expect(refused.code, refused.stderr).toBe(1);
    const advice = /remove it with: git handoff (purge [0-9a-f]{12})\b/.exec(refused.stderr);
    expect(advice, refused.stderr).not.toBeNull();
    const p = handoff(a, advice![1].split(' '));
    expect(p.code, p.stdout + p.stderr).toBe(0);
    expect(reachable(a)).not.toContain(leaked);
    const s = handoff(a, ['sync']);
    expect(s.code, s.stdout + s.stderr).toBe(0);
    expect(reachable(bare)).not.toContain(leaked);
    expect(summaries(a)[0]).toBe('later work');
    a.fsck();
  });
});
