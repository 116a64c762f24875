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

  it('two leaked paths in one notes commit: purge tombstones and records both, and a clone that fetched the leak applies both', () => {
    const { repo: a, bare } = withRemote();
    const leaked = token();
    const [receipt, item] = ['receipts/claim-4-abcdef012345.json', 'items/local/4.json'];
    // one commit puts both, as a crafted (or scan-less) writer would
    nativeCommit(
      a,
      receipt,
      `{"id":"claim-4-abcdef012345","workItem":"local:#4","evidence":{"note":"pushed with ${leaked}"}}\n`,
      'bookkeeping\n\nHandoff-Kind: receipt\n',
    );
    a.git('update-ref', 'refs/notes/handoff', 'refs/notes/handoff~1');
    const blob = a
      .gitRaw(['hash-object', '-w', '--stdin'], { input: `{"workItem":"local:#4","state":"in-progress","title":"deploy key ${leaked}","receipts":[]}\n` })
      .stdout.trim();
    const both = a.gitRaw(['rev-parse', `refs/notes/handoff@{1}^{tree}`]).stdout.trim();
    const idx = { GIT_INDEX_FILE: `${a.dir}/.git/both-index` };
    a.gitRaw(['read-tree', both], { env: idx });
    a.gitRaw(['update-index', '--add', '--cacheinfo', `100644,${blob},${item}`], { env: idx });
    const tree = a.gitRaw(['write-tree'], { env: idx }).stdout.trim();
    const commit = a.gitRaw(['commit-tree', tree, '-p', 'refs/notes/handoff'], { input: 'bookkeeping\n\nHandoff-Kind: receipt\n' }).stdout.trim();
    a.git('update-ref', 'refs/notes/handoff', commit);
    expect(a.git('show', '--name-only', '--format=', 'refs/notes/handoff').trim().split('\n').sort()).toEqual([item, receipt]);
    a.git('push', '-q', 'origin', 'main', 'refs/notes/handoff');
    const b = TestRepo.init({ branch: 'unborn' });
    b.git('remote', 'add', 'origin', bare.dir);
    b.git('fetch', '-q', 'origin', 'main:main');
    b.git('checkout', '-q', 'main');
    expect(handoff(b, ['sync']).code).toBe(0);

    const p = handoff(a, ['purge', receipt, item, '--json']);
    expect(p.code, p.stderr).toBe(0);
    expect(p.json.purged.map((x: any) => x.path).sort()).toEqual([item, receipt]);
    for (const path of [receipt, item]) expect(a.git('show', `refs/notes/handoff:${path}`)).toBe('{"purged":true}\n');
    const records = a.git('ls-tree', '--name-only', 'refs/notes/handoff', 'purged/').trim().split('\n');
    expect(records).toHaveLength(2);
    const recorded = records.map((r) => JSON.parse(a.git('show', `refs/notes/handoff:${r}`)));
    expect(recorded.map((r) => r.path).sort()).toEqual([item, receipt]);
    expect(new Set(recorded.map((r) => r.version)).size).toBe(1);
    const everywhere = (r: TestRepo) => r.gitRaw(['grep', '-c', leaked, ...r.git('rev-list', 'refs/notes/handoff').trim().split('\n')]).stdout;
    expect(everywhere(a)).toBe('');
    // named again, nothing is left to purge
    expect(handoff(a, ['purge', receipt, item]).code).toBe(1);
    expect(handoff(a, ['sync', '--force', 'origin']).code).toBe(0);
    const s = handoff(b, ['sync']);
    expect(s.code, s.stderr).toBe(0);
    for (const path of [receipt, item]) expect(b.git('show', `refs/notes/handoff:${path}`)).toBe('{"purged":true}\n');
    expect(everywhere(b) + everywhere(bare)).toBe('');
  });

  it('a purged record reads as purged: no "damaged" refusal, one line where the user needs it, and the item can be claimed again', () => {
    const { repo } = withRemote();
    const leaked = token();
    expect(handoff(repo, ['claim', '--work-item', 'local:#5', '--title', 'Parse the config', '--session', 's1']).code).toBe(0);
    expect(handoff(repo, ['claim', '--work-item', 'local:#6', '--title', 'Other work', '--session', 's1']).code).toBe(0);
    const receipt = repo
      .git('ls-tree', '--name-only', 'refs/notes/handoff', 'receipts/')
      .split('\n')
      .find((n) => n.includes('claim-6-'))!;
    // the item record of #5 and the claim receipt of #6 leak, and are purged
    nativeCommit(
      repo,
      'items/local/5.json',
      `{"workItem":"local:#5","state":"in-progress","title":"key ${leaked}","receipts":[]}\n`,
      'bookkeeping\n\nHandoff-Kind: item\n',
    );
    nativeCommit(repo, receipt, `{"id":"x","workItem":"local:#6","session":"${leaked}"}\n`, 'bookkeeping\n\nHandoff-Kind: receipt\n');
    const p = handoff(repo, ['purge', 'items/local/5.json', receipt]);
    expect(p.code, p.stderr).toBe(0);

    const all = handoff(repo, ['status']);
    expect(all.code, all.stderr).toBe(0);
    expect(all.stderr).toBe('');
    expect(all.stdout).toContain('local:#6: in-progress - Other work');
    expect(all.stdout).not.toMatch(/damaged|malformed/);
    const six = handoff(repo, ['status', '--work-item', 'local:#6', '--json']);
    expect(six.code, six.stderr).toBe(0);
    expect(six.stderr).toBe('');
    expect(six.json.item.receipts).toEqual([]);

    const five = handoff(repo, ['status', '--work-item', 'local:#5']);
    expect(five.code, five.stderr).toBe(0);
    expect(five.stderr).toBe("git handoff: local:#5: its record was purged ('git handoff purge' removed a leaked secret from it); it reads as a new item\n");
    expect(five.stdout).toContain('local:#5: backlog');
    for (const args of [
      ['seed', '--work-item', 'local:#5'],
      ['doc', '--work-item', 'local:#5', '--session', 's1'],
    ]) {
      const r = handoff(repo, args);
      expect(r.stderr, args.join(' ')).not.toMatch(/damaged|malformed/);
    }
    const again = handoff(repo, ['claim', '--work-item', 'local:#5', '--title', 'Parse the config', '--session', 's2']);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain('local:#5: backlog -> in-progress');
    expect(handoff(repo, ['status', '--work-item', 'local:#5']).stderr).toBe('');
  });
});
