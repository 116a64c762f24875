import { readFileSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TestRepo } from '../helpers/repo.js';
import { handoff, cliPath } from '../helpers/cli.js';
import { FakeGitHub, boardFixture, isWrite } from '../helpers/fake-gh.js';
import { fillDoc, seedSection, snapshot, storedReceipt } from '../helpers/work-items.js';

const W = 'github:acme/widgets#12';
const DOC = 'docs/HANDOFF-12.md';
const ISSUE_BODY = '## Why\n\nConfig files are parsed by hand.\n\n## Acceptance\n\n- `parse()` reads every sample\n- errors name the line\n';

function setup(): { repo: TestRepo; gh: FakeGitHub; run: (args: string[], env?: NodeJS.ProcessEnv) => ReturnType<typeof handoff> } {
  const repo = TestRepo.init();
  repo.commit('feat: parser skeleton', {
    'src/parser.ts': 'export {};\n',
    '.harness/worktree-delivery.json': JSON.stringify({ repository: 'acme/widgets', project: 3, statusField: 'Status' }),
  });
  const gh = new FakeGitHub({
    issues: { 'acme/widgets#12': { title: 'Parse config files', body: ISSUE_BODY, comments: [] } },
    projects: { 'acme/3': boardFixture('acme', 'widgets', [11, 12]) },
    pulls: {
      'acme/widgets': [
        {
          number: 40,
          url: 'https://github.com/acme/widgets/pull/40',
          headRefName: 'main',
          headRefOid: 'a'.repeat(40),
          baseRefName: 'trunk',
          state: 'OPEN',
          statusCheckRollup: [
            { __typename: 'CheckRun', name: 'test', status: 'COMPLETED', conclusion: 'SUCCESS' },
            { __typename: 'StatusContext', context: 'ci/lint', state: 'FAILURE' },
          ],
        },
      ],
    },
  });
  return { repo, gh, run: (args, env = {}) => handoff(repo, args, { env: gh.env(env) }) };
}

const fields = (gh: FakeGitHub, n = 12) => gh.state().projects!['acme/3'].items.find((i: any) => i.content.number === n).fieldValues;
const comments = (gh: FakeGitHub) => gh.state().issues['acme/widgets#12'].comments ?? [];
const writes = (gh: FakeGitHub) => gh.calls().filter(isWrite);

/** Claims #12 and fills its skeleton; returns the claim receipt id. */
function prepared(s: ReturnType<typeof setup>): string {
  const c = s.run(['claim', '--work-item', W, '--session', 's1', '--json']);
  expect(c.code, c.stderr).toBe(0);
  expect(s.run(['doc', '--work-item', W, '--session', 's1']).code).toBe(0);
  const text = readFileSync(join(s.repo.dir, DOC), 'utf8');
  s.repo.write(DOC, fillDoc(text, [undefined, `lexer; receipt: ${c.json.receipt.id}`, 'in `src/parser.ts`']));
  s.gh.resetCalls();
  return c.json.receipt.id;
}

describe('a github: work item through a fake gh', () => {
  it('lives through claim, doc, review, authorization, accept and reopen, mirrored to the issue and the board', () => {
    const s = setup();
    const { gh, run, repo } = s;

    // claim: title and acceptance from the issue; a comment with the receipt; Status -> in-progress.
    const c = run(['claim', '--work-item', W, '--session', 's1', '--json']);
    expect(c.code, c.stderr).toBe(0);
    expect(c.json.receipt).toMatchObject({ kind: 'claim', workItem: W, fromStatus: 'backlog', toStatus: 'in-progress' });
    expect(c.json.provider).toEqual({
      name: 'github',
      steps: [
        { step: 'comment', state: 'done', detail: `comment on #12 with receipt ${c.json.receipt.id}` },
        { step: 'status', state: 'done', detail: 'set "Status" to in-progress' },
      ],
    });
    expect(gh.calls()).toEqual([
      ['issue', 'view', '12', '--repo', 'acme/widgets', '--json', 'title,body,comments'],
      ['issue', 'view', '12', '--repo', 'acme/widgets', '--json', 'comments'],
      ['project', 'view', '3', '--owner', 'acme', '--format', 'json'],
      ['project', 'field-list', '3', '--owner', 'acme', '--format', 'json', '--limit', '100'],
      ['project', 'item-list', '3', '--owner', 'acme', '--format', 'json', '--limit', '1000'],
      ['issue', 'comment', '12', '--repo', 'acme/widgets', '--body', expect.stringContaining(c.json.receipt.id)],
      [
        'project',
        'item-edit',
        '--id',
        'PVTI_item12',
        '--project-id',
        'PVT_kwHOAAlI0c4A1',
        '--field-id',
        'PVTSSF_status',
        '--single-select-option-id',
        'opt_progress',
      ],
    ]);
    expect(fields(gh).PVTSSF_status).toBe('in-progress');
    expect(fields(gh, 11).PVTSSF_status).toBe('backlog');
    const seed = run(['seed', '--work-item', W]).stdout;
    expect(seed).toContain('Goal: Parse config files\nAcceptance criteria:\n  - `parse()` reads every sample\n  - errors name the line\n');
    expect(seed).toContain('Repository: github.com/acme/widgets\n');

    // Again: reads only, nothing written anywhere.
    gh.resetCalls();
    expect(run(['claim', '--work-item', W, '--json']).json).toMatchObject({
      unchanged: true,
      provider: { steps: [{ state: 'skipped' }, { state: 'skipped' }] },
    });
    expect(writes(gh)).toEqual([]);

    // doc, phase 1: no gh call at all.
    gh.resetCalls();
    expect(run(['doc', '--work-item', W, '--session', 's1']).code).toBe(0);
    expect(gh.calls()).toEqual([]);
    repo.write(DOC, fillDoc(readFileSync(join(repo.dir, DOC), 'utf8'), [undefined, `lexer; receipt: ${c.json.receipt.id}`]));

    // doc, phase 2: comment, handoff-doc field; Status already in-progress.
    gh.resetCalls();
    const d = run(['doc', '--work-item', W, '--session', 's1', '--json']);
    expect(d.code, d.stderr).toBe(0);
    expect(d.json.provider.steps.map((x: any) => [x.step, x.state])).toEqual([
      ['comment', 'done'],
      ['handoff-doc', 'done'],
      ['status', 'skipped'],
    ]);
    expect(fields(gh).PVTF_doc).toBe(DOC);
    expect(comments(gh).at(-1).body).toContain(`"receipts":["${d.json.receipt.id}"]`);
    expect(writes(gh).map((w) => w.slice(0, 2).join(' '))).toEqual(['issue comment', 'project item-edit']);

    // ready-for-review: a new comment (the status differs), the doc field skipped, Status set.
    gh.resetCalls();
    const r = run(['doc', '--work-item', W, '--session', 's1', '--to-status', 'ready-for-review', '--json']);
    expect(r.json.receipt.id).toBe(d.json.receipt.id);
    expect(r.json.provider.steps.map((x: any) => [x.step, x.state])).toEqual([
      ['comment', 'done'],
      ['handoff-doc', 'skipped'],
      ['status', 'done'],
    ]);
    expect(fields(gh).PVTSSF_status).toBe('ready-for-review');
    expect(comments(gh)).toHaveLength(3);

    // authorize: the open PR and its checks recorded; a comment carries the receipt.
    const a = run(['authorize', '--work-item', W, '--scope', 'merge PR #40 once checks are green', '--retries', '3', '--json']);
    expect(a.code, a.stderr).toBe(0);
    expect(a.json.receipt).toMatchObject({
      kind: 'authorize',
      base: 'trunk',
      pr: {
        number: 40,
        baseRefName: 'trunk',
        checks: [
          { name: 'ci/lint', status: 'COMPLETED', conclusion: 'FAILURE' },
          { name: 'test', status: 'COMPLETED', conclusion: 'SUCCESS' },
        ],
      },
    });
    expect(a.json.provider.steps).toEqual([{ step: 'comment', state: 'done', detail: expect.any(String) }]);
    const authSeed = run(['seed', '--work-item', W]).stdout;
    expect(authSeed).toContain(
      '  Pull request: #40 https://github.com/acme/widgets/pull/40 (trunk <- aaaaaaaaaaaa)\n  Checks: ci/lint=failure, test=success\n',
    );

    // accept and reopen move the Status field too.
    expect(run(['accept', '--work-item', W, '--commit', 'HEAD']).code).toBe(0);
    expect(fields(gh).PVTSSF_status).toBe('done');
    expect(run(['reopen', '--work-item', W]).code).toBe(0);
    expect(fields(gh).PVTSSF_status).toBe('backlog');
    expect(comments(gh).map((x: any) => /receipt `(\w+)-/.exec(x.body)![1])).toEqual(['claim', 'handoff', 'handoff', 'authorize', 'accept', 'reopen']);
    expect(run(['status', '--work-item', W, '--json']).json.item).toMatchObject({ work_item: W, state: 'backlog', title: 'Parse config files', valid: true });
  });

  for (const [step, pattern, done, rest] of [
    ['comment', '^issue comment', [], ['comment', 'handoff-doc', 'status']],
    ['handoff-doc', 'item-edit .*--text', ['comment'], ['handoff-doc', 'status']],
    ['status', 'item-edit .*--single-select-option-id', ['comment', 'handoff-doc'], ['status']],
  ] as const) {
    it(`a failure at the ${step} step exits 4, keeps the local receipt, and the re-run finishes with the same receipt`, () => {
      const s = setup();
      prepared(s);
      const { gh, run, repo } = s;
      const before = readFileSync(join(repo.dir, DOC), 'utf8');
      const f = run(['doc', '--work-item', W, '--session', 's1', '--to-status', 'ready-for-review', '--json'], { FAKE_GH_FAIL: pattern });
      expect(f.code, f.stderr).toBe(4);
      expect(f.json.error).toMatchObject({ code: 'ProviderFailed', data: { step, completed: [...done] } });
      expect(f.stderr).toContain(`the ${step} step failed: HTTP 502`);
      expect(f.stderr).toContain('is kept; re-running');
      expect(f.stderr).toContain('is safe and completes the remaining steps');
      const id = f.json.error.data.receipt;
      expect(storedReceipt(repo, id)).toMatchObject({ toStatus: 'ready-for-review', handoffDocPath: DOC });
      expect(readFileSync(join(repo.dir, DOC), 'utf8')).toBe(before); // SEED comes after the provider

      gh.resetCalls();
      const tip = repo.notesRef();
      const again = run(['doc', '--work-item', W, '--session', 's1', '--to-status', 'ready-for-review', '--json']);
      expect(again.code, again.stderr).toBe(0);
      expect(again.json).toMatchObject({ unchanged: true, state: 'ready-for-review', seed_written: true, receipt: { id } });
      expect(again.json.provider.steps.filter((x: any) => x.state === 'done').map((x: any) => x.step)).toEqual([...rest]);
      expect(again.json.provider.steps.filter((x: any) => x.state === 'skipped').map((x: any) => x.step)).toEqual([...done]);
      expect(writes(gh)).toHaveLength(rest.length);
      expect(repo.notesRef()).toBe(tip);
      expect(comments(gh).filter((x: any) => x.body.includes(id))).toHaveLength(1);
      expect(fields(gh)).toMatchObject({ PVTF_doc: DOC, PVTSSF_status: 'ready-for-review' });
      expect(seedSection(readFileSync(join(repo.dir, DOC), 'utf8'))).toContain('State: ready-for-review');
    });
  }

  it('a failed read exits 4 too, and a claim that failed on the board is finished by claiming again', () => {
    const s = setup();
    const { gh, run, repo } = s;
    const f = run(['claim', '--work-item', W, '--session', 's1', '--json'], { FAKE_GH_FAIL: '^project item-list' });
    expect(f.code).toBe(4);
    expect(f.json.error).toMatchObject({ code: 'ProviderFailed', data: { step: 'read', completed: [] } });
    expect(f.stderr).toContain('reading from GitHub failed');
    const id = f.json.error.data.receipt;
    expect(storedReceipt(repo, id).kind).toBe('claim');
    const again = run(['claim', '--work-item', W, '--session', 's1', '--json']);
    expect(again.json).toMatchObject({
      unchanged: true,
      receipt: { id },
      provider: {
        steps: [
          { step: 'comment', state: 'done' },
          { step: 'status', state: 'done' },
        ],
      },
    });
    expect(fields(gh).PVTSSF_status).toBe('in-progress');

    const noIssue = run(['claim', '--work-item', 'github:acme/widgets#99', '--json']);
    expect(noIssue.code).toBe(4);
    expect(noIssue.json.error.message).toContain('Could not resolve to an issue');
    expect(noIssue.json.error.message).toContain('nothing was written');

    const notOnBoard = new FakeGitHub({
      issues: { 'acme/widgets#12': { title: 'T', body: '' } },
      projects: { 'acme/3': boardFixture('acme', 'widgets', [11]) },
    });
    const other = TestRepo.init();
    other.commit('init', { '.harness/worktree-delivery.json': '{"project":3}' });
    const r = handoff(other, ['claim', '--work-item', W, '--json'], { env: notOnBoard.env() });
    expect(r.code).toBe(4);
    expect(r.json.error.message).toContain("is not an item of project 3; add it with 'gh project item-add 3 --owner acme");

    // Without a project in .harness/worktree-delivery.json only the comment is written.
    const bare = TestRepo.init();
    bare.commit('init');
    notOnBoard.resetCalls();
    const commentOnly = handoff(bare, ['claim', '--work-item', W, '--json'], { env: notOnBoard.env() });
    expect(commentOnly.code, commentOnly.stderr).toBe(0);
    expect(commentOnly.json.provider.steps.map((x: any) => x.step)).toEqual(['comment']);
    expect(notOnBoard.calls().map((c) => c.slice(0, 2).join(' '))).toEqual(['issue view', 'issue view', 'issue comment']);

    const noGh = handoff(other, ['claim', '--work-item', W, '--json'], { env: { PATH: cliPath() } });
    expect(noGh.code).toBe(4);
    expect(noGh.json.error.message).toContain('gh is not installed or not on PATH');
  });

  it('an answer gh should never give (JSON of another shape) exits 4 too, naming the step, and the re-run finishes', () => {
    const s = setup();
    const { run, repo } = s;
    const f = run(['claim', '--work-item', W, '--session', 's1', '--json'], { FAKE_GH_NULL: '^project item-list' });
    expect(f.code, f.stderr).toBe(4);
    expect(f.json.error).toMatchObject({ code: 'ProviderFailed', data: { step: 'read', completed: [] } });
    expect(f.stderr.trim().split('\n')).toHaveLength(1);
    expect(f.stderr).toContain('reading from GitHub failed: unexpected answer from gh (');
    expect(f.stderr).toContain(`re-running 'git handoff claim --work-item ${W}' is safe`);
    const id = f.json.error.data.receipt;
    expect(storedReceipt(repo, id).kind).toBe('claim');
    const again = run(['claim', '--work-item', W, '--session', 's1', '--json']);
    expect(again.code, again.stderr).toBe(0);
    expect(again.json).toMatchObject({ unchanged: true, receipt: { id } });

    // The same before anything is written: the issue read of a claim, the pull request read of authorize.
    const fresh = setup();
    const read = fresh.run(['claim', '--work-item', W, '--json'], { FAKE_GH_NULL: '^issue view' });
    expect(read.code, read.stderr).toBe(4);
    expect(read.json.error.message).toMatch(
      /^github: reading github:acme\/widgets#12 failed: unexpected answer from gh \(.*\); nothing was written; re-running/,
    );
    expect(fresh.repo.notesRef()).toBeNull();
    const pr = run(['authorize', '--work-item', W, '--scope', 'merge', '--retries', '1', '--json'], { FAKE_GH_NULL: '^pr list' });
    expect(pr.code, pr.stderr).toBe(4);
    expect(pr.json.error).toMatchObject({ code: 'ProviderFailed', data: { step: 'read' } });
  });

  it("authorize's re-run hint is the real command: run as printed, it records what was asked", () => {
    const s = setup();
    prepared(s);
    const { gh, repo, run } = s;
    const scope = "merge PR #40 once it's green";
    const f = run(['authorize', '--work-item', W, '--scope', scope, '--retries', '2', '--session', 's 1', '--json'], { FAKE_GH_FAIL: '^pr list' });
    expect(f.code, f.stderr).toBe(4);
    const printed = /re-running '(.+)' is safe/.exec(f.json.error.message)![1];
    expect(printed).toBe(`git handoff authorize --work-item ${W} --scope "${scope}" --retries 2 --session "s 1"`);
    const again = spawnSync('sh', ['-c', `${printed} --json`], { cwd: repo.dir, env: { ...repo.tick(), ...gh.env() }, encoding: 'utf8' });
    expect(again.status, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout).receipt).toMatchObject({ kind: 'authorize', scope, retries: 2, session: 's 1' });

    const retry = run(['authorize', '--work-item', W, '--use-retry', '--reason', 'flaky $CI', '--json'], { FAKE_GH_FAIL: '^pr list' });
    expect(retry.code, retry.stderr).toBe(4);
    expect(retry.json.error.message).toContain(`re-running 'git handoff authorize --work-item ${W} --use-retry --reason 'flaky $CI'' is safe`);
  });

  it('--dry-run reads GitHub but writes nothing there or in the repository', () => {
    const s = setup();
    const { gh, run, repo } = s;
    const still = (label: string, args: string[], want: object) => {
      const git = snapshot(join(repo.dir, '.git'));
      const tree = snapshot(repo.dir);
      const state = readFileSync(gh.statePath, 'utf8');
      gh.resetCalls();
      const r = run([...args, '--dry-run', '--json']);
      expect(r.code, `${label}: ${r.stderr}`).toBe(0);
      expect(r.json, label).toMatchObject({ dry_run: true, ...want });
      expect(gh.calls().filter(isWrite), label).toEqual([]);
      expect(snapshot(join(repo.dir, '.git')), label).toEqual(git);
      expect(snapshot(repo.dir), label).toEqual(tree);
      expect(readFileSync(gh.statePath, 'utf8'), label).toBe(state);
      return r;
    };
    const c = still('claim', ['claim', '--work-item', W, '--session', 's1'], { state: 'in-progress' });
    expect(c.json.provider.steps.map((x: any) => x.state)).toEqual(['planned', 'planned']);
    expect(gh.calls().length).toBeGreaterThan(0);
    prepared(s);
    const d = still('doc', ['doc', '--work-item', W, '--session', 's1', '--to-status', 'ready-for-review'], { state: 'ready-for-review' });
    expect(d.json.provider.steps.map((x: any) => [x.step, x.state])).toEqual([
      ['comment', 'planned'],
      ['handoff-doc', 'planned'],
      ['status', 'planned'],
    ]);
    still('authorize', ['authorize', '--work-item', W, '--scope', 'merge', '--retries', '1'], { receipt: { pr: { number: 40 } } });
    still('reopen', ['reopen', '--work-item', W], { state: 'backlog' });
  });

  it('maps states to the board through the policy', () => {
    const s = setup();
    const { gh, run, repo } = s;
    repo.write('.harness/session-workflow.yaml', 'fields:\n  handoffDoc: Handoff doc\nstatusValues:\n  in-progress: In Progress\n');
    const project = gh.state();
    project.projects!['acme/3'].fields[2].options.push({ id: 'opt_ip', name: 'In Progress' });
    writeFileSync(gh.statePath, JSON.stringify(project));
    expect(run(['claim', '--work-item', W]).code).toBe(1);
    expect(run(['policy', 'approve']).code).toBe(0);
    expect(run(['claim', '--work-item', W]).code).toBe(0);
    expect(fields(gh).PVTSSF_status).toBe('In Progress');
  });
});
