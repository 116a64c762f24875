/**
 * Issue 23, point 8: a bookkeeping record (receipt, item record, policy file, any path beside
 * the notes) that holds a secret is refused by the outgoing scan naming its path, and `purge
 * <path>` removes it from the whole history, in this clone and, through the purge record, in
 * the others on their next sync. Histories written with plain git; values made at run time.
 */
import { describe, expect, it } from 'vitest';
import { TestRepo } from '../helpers/repo.js';
import { handoff } from '../helpers/cli.js';
import { nativeCommit, token, withRemote } from '../helpers/native-notes.js';

describe('secrets in bookkeeping records', () => {
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

  it('purge removes a leaked record from the whole history; then sync pushes, and the secret is nowhere', () => {
    const { repo, bare } = withRemote();
    const leaked = token();
    const path = 'receipts/claim-1-abcdef012345.json';
    nativeCommit(repo, path, `{"id":"claim-1-abcdef012345","evidence":{"note":"pushed with ${leaked}"}}\n`, 'bookkeeping\n\nHandoff-Kind: receipt\n');
    expect(handoff(repo, ['write', '--summary', 'later work']).code).toBe(0);
    expect(handoff(repo, ['sync']).code).toBe(1);
    const clean = handoff(repo, ['purge', 'policy/approved']);
    expect(clean.code).toBe(1);
    expect(clean.stderr).toMatch(/no notes commit ever put anything at policy\/approved/);
    const dry = handoff(repo, ['purge', path, '--dry-run']);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toMatch(new RegExp(`would replace ${path} as notes commit [0-9a-f]{12} wrote it with a tombstone`));
    const p = handoff(repo, ['purge', path]);
    expect(p.code, p.stderr).toBe(0);
    expect(handoff(repo, ['show', '--json']).json.handoff.summary).toBe('later work');
    const everywhere = (r: TestRepo) => r.gitRaw(['grep', '-c', leaked, ...r.git('rev-list', 'refs/notes/handoff').trim().split('\n')]).stdout;
    expect(everywhere(repo)).toBe('');
    expect(repo.git('show', `refs/notes/handoff:${path}`)).toBe('{"purged":true}\n');
    expect(handoff(repo, ['purge', path]).code).toBe(1);
    const s = handoff(repo, ['sync']);
    expect(s.code, s.stderr).toBe(0);
    expect(everywhere(bare)).toBe('');
    expect(bare.git('show', `refs/notes/handoff:${path}`)).toBe('{"purged":true}\n');
  });

  it('the tool’s own records (a claim, its receipt) are no false alarm', () => {
    const { repo, bare } = withRemote();
    expect(handoff(repo, ['claim', '--work-item', 'local:#7', '--title', 'Parse the config', '--session', 's1']).code).toBe(0);
    expect(repo.gitRaw(['ls-tree', '-r', '--name-only', 'refs/notes/handoff']).stdout).toMatch(/^receipts\//m);
    const r = handoff(repo, ['sync']);
    expect(r.code, r.stderr).toBe(0);
    expect(bare.gitRaw(['rev-parse', '-q', '--verify', 'refs/notes/handoff']).status).toBe(0);
  });

  it('where records are made, every value a work-item command stores is scanned (acceptance, a retry’s reason): nothing written', () => {
    const { repo } = withRemote();
    const t = token();
    const tip = repo.notesRef();
    const acceptance = handoff(repo, ['claim', '--work-item', 'local:#2', '--title', 'ok', '--acceptance', `use ${t}`, '--session', 's1', '--json']);
    expect(acceptance.json.error).toMatchObject({ code: 'SecretDetected', data: { field: 'acceptance' } });
    expect(repo.notesRef()).toBe(tip);
    expect(handoff(repo, ['claim', '--work-item', 'local:#2', '--title', 'ok', '--session', 's1']).code).toBe(0);
    expect(handoff(repo, ['authorize', '--work-item', 'local:#2', '--scope', 'merge after checks', '--retries', '2', '--session', 's1']).code).toBe(0);
    const before = repo.notesRef();
    const reason = handoff(repo, ['authorize', '--work-item', 'local:#2', '--use-retry', '--reason', `flaky ${t}`, '--session', 's1', '--json']);
    expect(reason.json.error).toMatchObject({ code: 'SecretDetected', data: { field: 'reason' } });
    expect(reason.stdout + reason.stderr).not.toContain(t);
    expect(repo.notesRef()).toBe(before);
  });

  it('a clone that fetched the leak applies the purge on its next sync', () => {
    const { repo: a, bare } = withRemote();
    const leaked = token();
    const path = 'items/local/3.json';
    nativeCommit(a, path, `{"provider":"local","title":"deploy key ${leaked}","receipts":[]}\n`, 'bookkeeping\n\nHandoff-Kind: item\n');
    // the attacker (or a clone without the scan) pushes it with plain git
    a.git('push', '-q', 'origin', 'main', 'refs/notes/handoff');
    const b = TestRepo.init({ branch: 'unborn' });
    b.git('remote', 'add', 'origin', bare.dir);
    b.git('fetch', '-q', 'origin', 'main:main');
    b.git('checkout', '-q', 'main');
    expect(handoff(b, ['sync']).code).toBe(0);
    expect(b.git('show', `refs/notes/handoff:${path}`)).toContain(leaked);
    expect(handoff(b, ['purge', path]).code).toBe(0);
    const refused = handoff(b, ['sync']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/sync --force/);
    expect(handoff(b, ['sync', '--force', 'origin']).code).toBe(0);
    expect(bare.git('show', `refs/notes/handoff:${path}`)).toBe('{"purged":true}\n');
    const s = handoff(a, ['sync']);
    expect(s.code, s.stderr).toBe(0);
    expect(a.git('show', `refs/notes/handoff:${path}`)).toBe('{"purged":true}\n');
    const everywhere = (r: TestRepo) => r.gitRaw(['grep', '-c', leaked, ...r.git('rev-list', 'refs/notes/handoff').trim().split('\n')]).stdout;
    expect(everywhere(a) + everywhere(b) + everywhere(bare)).toBe('');
  });
});
