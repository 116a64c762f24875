/**
 * Work-item status shows the item, not only our record: the issue and its board
 * fields through gh (a fake that answers as the real one does), read-only; and a re-run of
 * `doc` after committing the document leaves the file alone.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TestRepo } from '../helpers/repo.js';
import { handoff } from '../helpers/cli.js';
import { FakeGitHub, boardFixture, isWrite } from '../helpers/fake-gh.js';
import { fillDoc } from '../helpers/work-items.js';

const W = 'github:acme/widgets#12';

function setup() {
  const repo = TestRepo.init();
  repo.commit('feat: parser skeleton', {
    'src/parser.ts': 'export {};\n',
    '.harness/worktree-delivery.json': JSON.stringify({ repository: 'acme/widgets', project: 3, statusField: 'Status' }),
  });
  const gh = new FakeGitHub({
    issues: { 'acme/widgets#12': { title: 'Parse config files', body: '## Acceptance\n\n- reads every sample\n', comments: [] } },
    projects: { 'acme/3': boardFixture('acme', 'widgets', [12]) },
  });
  return { repo, gh, run: (args: string[], env: NodeJS.ProcessEnv = {}) => handoff(repo, args, { env: gh.env(env) }) };
}

describe('status of a github: item reads the issue and the board (read-only)', () => {
  it('shows them, says in one line when they disagree with our record, and writes nothing anywhere; the seed names owner/repo', () => {
    const { repo, gh, run } = setup();
    expect(run(['claim', '--work-item', W, '--session', 's1']).code).toBe(0);
    gh.resetCalls();
    const agree = run(['status', '--work-item', W, '--json']);
    expect(agree.code, agree.stderr).toBe(0);
    expect(agree.json.item).toMatchObject({
      work_item: W,
      state: 'in-progress',
      remote: { issue_state: 'OPEN', title: 'Parse config files', status: 'in-progress', handoff_doc: null },
      disagreements: [],
    });
    expect(gh.calls().map((c) => c.slice(0, 2).join(' '))).toContain('issue view');
    expect(gh.calls().filter(isWrite)).toEqual([]);

    // Someone moves the card back and closes the issue on GitHub.
    const st = gh.state();
    st.projects!['acme/3'].items[0].fieldValues.PVTSSF_status = 'backlog';
    (st.issues['acme/widgets#12'] as any).state = 'CLOSED';
    writeFileSync(gh.statePath, JSON.stringify(st));
    const tip = repo.notesRef();
    const text = run(['status', '--work-item', W]);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toContain('github: issue closed - Parse config files; board Status: backlog, Handoff doc: (not set)\n');
    const lines = text.stdout.split('\n').filter((l) => l.includes('disagree'));
    expect(lines).toEqual([
      "  remote and local disagree: the issue is closed, our record says in-progress; the board's Status is 'backlog', our record says in-progress (re-run the last work-item command to update GitHub, or correct the board by hand)",
    ]);
    expect(run(['status', '--json']).json.items[0].disagreements).toHaveLength(2);
    expect(gh.calls().filter(isWrite)).toEqual([]);
    expect(repo.notesRef()).toBe(tip);
    // The seed names the provider's owner/repo.
    expect(run(['seed', '--work-item', W]).stdout).toContain('Project: acme/widgets\nRepository: github.com/acme/widgets\n');
  });

  it('a provider answer that is not a failed gh call exits 4, like a failed one', () => {
    const { run } = setup();
    expect(run(['claim', '--work-item', W, '--session', 's1']).code).toBe(0);
    for (const env of [{ FAKE_GH_NULL: '^issue view' }, { FAKE_GH_NULL: '^project item-list' }]) {
      const r = run(['status', '--work-item', W, '--json'], env);
      expect(r.code, `${JSON.stringify(env)}: ${r.stderr}`).toBe(4);
      expect(r.json.error.code).toBe('ProviderFailed');
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toMatch(/^git handoff: github: reading github:acme\/widgets#12 failed: .*re-run it once gh works/);
    }
    // Every item: a tracker that cannot be read hides no local item.
    expect(run(['claim', '--work-item', 'local:#4', '--title', 'Local work', '--session', 's1']).code).toBe(0);
    const all = run(['status', '--json'], { FAKE_GH_NULL: '^issue view' });
    expect(all.code, all.stderr).toBe(4);
    expect(all.json.items.map((i: any) => [i.work_item, i.remote, Boolean(i.remote_error)])).toEqual([
      [W, null, true],
      ['local:#4', null, false],
    ]);
    expect(all.stderr).toContain('1 item could not be read from the tracker');
    const human = run(['status'], { FAKE_GH_NULL: '^issue view' });
    expect(human.code).toBe(4);
    expect(human.stdout).toContain('local:#4: in-progress - Local work\n');
    expect(human.stdout).toContain('  github: not read: github: reading github:acme/widgets#12 failed');
    // The same for claim, which reads the issue through gh too.
    const c = run(['claim', '--work-item', 'github:acme/widgets#13', '--session', 's1', '--json'], { FAKE_GH_NULL: '^issue view' });
    expect(c.code, c.stderr).toBe(4);
  });
});

describe('doc again after committing the document', () => {
  it('leaves the file alone when the document hash and receipt are unchanged: the work tree stays clean', () => {
    const repo = TestRepo.init();
    repo.commit('feat: start', { 'src/parser.ts': 'export {};\n' });
    const W2 = 'local:#7';
    const DOC = 'docs/HANDOFF-7.md';
    const claim = handoff(repo, ['claim', '--work-item', W2, '--title', 'Parse the config', '--session', 's1', '--json']);
    expect(handoff(repo, ['doc', '--work-item', W2, '--session', 's1']).code).toBe(0);
    const read = () => readFileSync(join(repo.dir, DOC), 'utf8');
    repo.write(
      DOC,
      fillDoc(read(), [
        'Parse the config.',
        `The lexer; receipt: ${claim.json.receipt.id}`,
        'In `src/parser.ts`.',
        '1. the grammar',
        'none',
        'no force push',
        'see `src/parser.ts`',
      ]),
    );
    const first = handoff(repo, ['doc', '--work-item', W2, '--session', 's1', '--json']);
    expect(first.code, first.stderr).toBe(0);
    repo.git('add', DOC);
    repo.git('commit', '-q', '-m', 'docs: handoff 7');
    const again = handoff(repo, ['doc', '--work-item', W2, '--session', 's1', '--json']);
    expect(again.code, again.stderr).toBe(0);
    expect(again.json).toMatchObject({ unchanged: true, seed_written: false, receipt: { id: first.json.receipt.id } });
    expect(repo.git('status', '--porcelain')).toBe('');
    // A real change still rewrites the SEED (the new receipt is in it).
    repo.write(DOC, read().replace('1. the grammar', '1. the grammar, then errors'));
    const changed = handoff(repo, ['doc', '--work-item', W2, '--session', 's1', '--json']);
    expect(changed.json).toMatchObject({ unchanged: false, seed_written: true });
  });
});
