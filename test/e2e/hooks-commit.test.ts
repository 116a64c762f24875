import { beforeAll, describe, expect, it } from 'vitest';
import { writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { TestRepo } from '../helpers/repo.js';
import { handoff } from '../helpers/cli.js';
import { commitWithHooks, gitWithHooks, handoffLines } from '../helpers/hooks.js';

const REMINDER = /^git-handoff: substantive commit \(.+\); .*'git handoff write'$/;

function installed(): TestRepo {
  const repo = TestRepo.init();
  repo.commit('chore: start', { 'README.md': 'start\n' });
  expect(handoff(repo, ['init']).code).toBe(0);
  return repo;
}

/** The hook's verdict as the user sees it: exactly one reminder line, or nothing at all. */
function reminded(r: { code: number; stderr: string }): boolean {
  expect(r.code).toBe(0);
  if (r.stderr === '') return false;
  const lines = r.stderr.replace(/\n$/, '').split('\n');
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(REMINDER);
  return true;
}

const files = (n: number, tag: string) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`${tag}/d${i % 2}/f${i}.txt`, `${tag} ${i}\n`]));

describe('post-commit: the substantive-commit rule', () => {
  let repo: TestRepo;
  let seq = 0;
  const commit = (subject: string, body?: string, changes: Record<string, string> = {}, extra: string[] = []) => {
    const args = body === undefined ? extra : ['-m', body, ...extra];
    return commitWithHooks(repo, subject, changes, { args });
  };
  beforeAll(() => {
    repo = installed();
    handoff(repo, ['write', '--summary', 'rule table']);
    // The first non-excluded commit after the handoff is substantive whatever its size.
    expect(reminded(commit('feat: warm-up'))).toBe(true);
  });

  const big = 'x'.repeat(300);
  it.each([
    ['meta: x'],
    ['docs: x'],
    ['style: x'],
    ['chore: x'],
    ['docs(readme): x'],
    ['chore!: x'],
    ['chore(deps)!: x'],
    ['DOCS: upper case'],
    ['Chore(Scope With Spaces): x'],
    ['fix typo in the parser'],
    ['Fix Typo'],
  ])('excluded subject %j: silent even with a long body and many files', (subject) => {
    expect(reminded(commit(subject, big, files(5, `ex${seq++}`)))).toBe(false);
  });

  it.each([
    ['docsy: x', 'not one of the excluded types'],
    ['fix: typo', '"fix:" is not "fix typo"'],
    ['chore (deps): x', 'a space before the scope'],
    ['feat: docs: x', 'the type must start the subject'],
    [' chore: x', 'git strips the leading space, so this one IS excluded'],
  ])('subject %j (%s) is judged by size', (subject, why) => {
    const excluded = why.includes('IS excluded');
    expect(reminded(commit(subject, big))).toBe(!excluded);
  });

  it('body length: exactly 200 code points is not substantive, 201 is (multi-byte and astral characters count once)', () => {
    expect(reminded(commit('feat: 200 cjk', '语'.repeat(200)))).toBe(false);
    expect(reminded(commit('feat: 201 cjk', '语'.repeat(201)))).toBe(true);
    expect(reminded(commit('feat: 200 emoji', '😀'.repeat(200)))).toBe(false);
    expect(reminded(commit('feat: 201 emoji', '😀'.repeat(201)))).toBe(true);
    expect(reminded(commit('feat: 200 ascii', 'a'.repeat(200)))).toBe(false);
    expect(reminded(commit('feat: 201 ascii', 'a'.repeat(201)))).toBe(true);
    // Two paragraphs: the blank line between them counts (2 characters here).
    expect(reminded(commit('feat: 2 paragraphs', 'a'.repeat(99), {}, ['-m', 'b'.repeat(99)]))).toBe(false);
    expect(reminded(commit('feat: 2 paragraphs +1', 'a'.repeat(99), {}, ['-m', 'b'.repeat(100)]))).toBe(true);
  });

  it('trailers and trailing whitespace do not count towards the body', () => {
    const trailers = 'Signed-off-by: Ada Tester <ada@example.com>\nCo-authored-by: Bob <bob@example.com>\nRefs: #12';
    expect(reminded(commit('feat: trailers', 'a'.repeat(200), {}, ['-m', trailers]))).toBe(false);
    expect(reminded(commit('feat: trailers +1', 'a'.repeat(201), {}, ['-m', trailers]))).toBe(true);
    expect(reminded(commitWithHooks(repo, `feat: trailing space\n\n${'a'.repeat(200)}   \n\n  \n`, {}, { args: ['--cleanup=verbatim'] }))).toBe(false);
  });

  it('files: 3 changed files are not substantive, 4 are (added, modified, deleted, nested)', () => {
    expect(reminded(commit('feat: three files', undefined, files(3, 'three')))).toBe(false);
    expect(reminded(commit('feat: four files', undefined, files(4, 'four')))).toBe(true);
    // Modify 2 and delete 1 of the four: 3 changes.
    repo.write('four/d0/f0.txt', 'changed\n');
    repo.write('four/d1/f1.txt', 'changed\n');
    repo.git('rm', '-q', 'four/d0/f2.txt');
    repo.git('add', '-A');
    expect(reminded(commit('feat: modify two, delete one'))).toBe(false);
    repo.git('rm', '-q', '-r', 'three', 'four');
    expect(reminded(commit('feat: delete four'))).toBe(true);
    expect(reminded(commit('feat: nothing changed'))).toBe(false);
  });

  it('HANDOFF_SKIP=1 silences the hook', () => {
    const r = commitWithHooks(repo, 'feat: skipped', { 'skip.txt': 'x\n' }, { args: ['-m', big], env: { HANDOFF_SKIP: '1' } });
    expect(r.stderr).toBe('');
  });
});

describe('post-commit: the first commit after the latest handoff or the session start', () => {
  it('is substantive once, however small; excluded commits do not use it up', () => {
    const repo = installed();
    expect(reminded(commitWithHooks(repo, 'feat: before any handoff'))).toBe(false);
    handoff(repo, ['write', '--summary', 'one']);
    expect(reminded(commitWithHooks(repo, 'docs: first, but excluded'))).toBe(false);
    expect(reminded(commitWithHooks(repo, 'fix typo'))).toBe(false);
    expect(reminded(commitWithHooks(repo, 'fix: small'))).toBe(true);
    expect(reminded(commitWithHooks(repo, 'fix: small again'))).toBe(false);
    handoff(repo, ['write', '--summary', 'two']);
    expect(reminded(commitWithHooks(repo, 'fix: after the second handoff'))).toBe(true);
    // Amending the commit the handoff sits on is not a commit after it.
    handoff(repo, ['write', '--summary', 'three']);
    expect(reminded(commitWithHooks(repo, 'fix: after the second handoff, reworded', {}, { args: ['--amend'] }))).toBe(false);
  });

  it('counts from the start of the current agent session, when one is recorded', () => {
    const repo = installed();
    const session = (head: string, ended = false) =>
      writeFileSync(
        join(repo.dir, '.git/handoff/session.json'),
        JSON.stringify({
          session_id: 's1',
          agent: 'claude',
          started_at: '2026-01-01T00:00:00Z',
          started_head: head,
          wrote_handoff: false,
          ...(ended ? { ended_at: '2026-01-01T01:00:00Z' } : {}),
        }),
      );
    mkdirSync(join(repo.dir, '.git/handoff'), { recursive: true });
    session(repo.head());
    expect(reminded(commitWithHooks(repo, 'feat: first in the session'))).toBe(true);
    expect(reminded(commitWithHooks(repo, 'feat: second in the session'))).toBe(false);
    handoff(repo, ['write', '--summary', 'mid-session']);
    expect(reminded(commitWithHooks(repo, 'feat: first after the handoff'))).toBe(true);
    // A new session started later than the handoff: its start is the boundary.
    session(repo.head());
    expect(reminded(commitWithHooks(repo, 'feat: first in session two'))).toBe(true);
    // An ended session is no boundary: the handoff is, and it was used up already.
    session(repo.head(), true);
    expect(reminded(commitWithHooks(repo, 'feat: after the session ended'))).toBe(false);
  });
});

describe('due and due_reason (show)', () => {
  it('follows the contract: only once a handoff exists; a non-excluded commit since its head', () => {
    const repo = installed();
    expect(handoff(repo, ['show', '--json']).json).toEqual({ ok: true, handoff: null, due: false });
    commitWithHooks(repo, 'feat: before the first handoff');
    expect(handoff(repo, ['show', '--json']).json).toEqual({ ok: true, handoff: null, due: false });
    handoff(repo, ['write', '--summary', 'first']);
    let s = handoff(repo, ['show', '--json']).json;
    expect(s).toMatchObject({ ok: true, due: false, due_reason: null });
    commitWithHooks(repo, 'docs: excluded');
    commitWithHooks(repo, 'chore(ci): excluded');
    expect(handoff(repo, ['show', '--json']).json).toMatchObject({ due: false, due_reason: null });
    const c = commitWithHooks(repo, 'fix: counts');
    commitWithHooks(repo, 'docs: excluded again');
    s = handoff(repo, ['show', '--json']).json;
    expect(s.due).toBe(true);
    expect(s.due_reason).toEqual({ rule: 'commit-since-handoff', commit: c.head });
    expect(Object.keys(s)).toEqual([
      'ok',
      'version',
      'target',
      'date',
      'author',
      'origin',
      'signature',
      'stale',
      'age_days',
      'due',
      'due_reason',
      'continues',
      'diverged',
      'visibility',
      'readable',
      'handoff',
    ]);
    expect(handoff(repo, ['show']).stdout).toContain(`a handoff is due: commit ${c.head.slice(0, 7)} was made since this one`);
    handoff(repo, ['write', '--summary', 'second']);
    expect(handoff(repo, ['show', '--json']).json).toMatchObject({ due: false, due_reason: null });
    expect(handoff(repo, ['show']).stdout).not.toContain('a handoff is due');
  });
});

describe('quiet during a rebase, merge, cherry-pick and revert', () => {
  it('prints no reminder for commits git makes on the way', () => {
    const repo = installed();
    handoff(repo, ['write', '--summary', 'quiet']);
    const body = 'y'.repeat(250);
    repo.git('checkout', '-q', '-b', 'side');
    // Every commit below would be substantive by its body or its 4 files, if the hook spoke.
    const s1 = commitWithHooks(repo, 'feat: side one', files(4, 'side1'), { args: ['-m', body] }).head;
    commitWithHooks(repo, 'feat: side two', { 'side2.txt': '2\n' }, { args: ['-m', body] });
    repo.git('checkout', '-q', 'main');
    commitWithHooks(repo, 'feat: main moves', { 'main.txt': 'm\n' });

    const quiet = (r: { code: number; stderr: string }) => {
      expect(handoffLines(r.stderr)).toEqual([]);
    };
    // cherry-pick without a conflict leaves no marker in .git: the reflog tells.
    const pick = gitWithHooks(repo, ['cherry-pick', s1]);
    expect(pick.code).toBe(0);
    quiet(pick);
    const revert = gitWithHooks(repo, ['revert', '--no-edit', 'HEAD']);
    expect(revert.code).toBe(0);
    quiet(revert);
    // A merge that stops on a conflict, concluded by `git commit`.
    repo.git('checkout', '-q', '-b', 'other', 'HEAD~3');
    commitWithHooks(repo, 'feat: other', { 'main.txt': 'conflict\n' });
    repo.git('checkout', '-q', 'main');
    expect(gitWithHooks(repo, ['merge', 'other']).code).not.toBe(0);
    repo.write('main.txt', 'resolved\n');
    repo.git('add', 'main.txt');
    quiet(gitWithHooks(repo, ['commit', '--no-edit', '-m', `Merge other\n\n${body}`]));
    // A rebase picks each commit through post-commit.
    repo.git('checkout', '-q', 'side');
    const rebase = gitWithHooks(repo, ['rebase', 'main']);
    expect(rebase.code).toBe(0);
    quiet(rebase);
    // ... and the next ordinary commit is judged again.
    expect(reminded(commitWithHooks(repo, 'feat: after the rebase', {}, { args: ['-m', body] }))).toBe(true);
  });
});

describe('quiet when a conflicted cherry-pick or revert is concluded', () => {
  it('by `git commit` or by `--continue` (the markers are gone by the time post-commit runs)', () => {
    const repo = installed();
    handoff(repo, ['write', '--summary', 'quiet']);
    commitWithHooks(repo, 'feat: use up the first commit', {}, { env: { HANDOFF_SKIP: '1' } });
    // Four files and a long body: substantive, if the hook spoke.
    repo.git('checkout', '-q', '-b', 'side');
    const side = commitWithHooks(
      repo,
      'feat: side',
      { 'README.md': 'side\n', ...files(4, 'side') },
      { args: ['-m', 'y'.repeat(250)], env: { HANDOFF_SKIP: '1' } },
    ).head;
    repo.git('checkout', '-q', 'main');
    const base = commitWithHooks(repo, 'fix: main', { 'README.md': 'main\n' }, { env: { HANDOFF_SKIP: '1' } }).head;
    const quiet = (r: { code: number; stderr: string }) => {
      expect(r.code).toBe(0);
      expect(handoffLines(r.stderr)).toEqual([]);
    };
    const conflicted = (args: string[]) => {
      expect(gitWithHooks(repo, args).code).not.toBe(0);
      repo.write('README.md', 'resolved\n');
      repo.git('add', 'README.md');
    };
    const noEditor = { env: { GIT_EDITOR: 'true' } };

    conflicted(['cherry-pick', side]);
    quiet(gitWithHooks(repo, ['commit', '--no-edit'], noEditor));
    repo.git('reset', '-q', '--hard', base);
    conflicted(['cherry-pick', side]);
    quiet(gitWithHooks(repo, ['cherry-pick', '--continue'], noEditor));

    // A revert of four files, stopped by a conflict on README.md.
    const four = commitWithHooks(repo, 'feat: four more', { 'README.md': 'four\n', ...files(4, 'four') }, { env: { HANDOFF_SKIP: '1' } }).head;
    commitWithHooks(repo, 'fix: readme again', { 'README.md': 'again\n' }, { env: { HANDOFF_SKIP: '1' } });
    const tip = repo.head();
    conflicted(['revert', '--no-edit', four]);
    quiet(gitWithHooks(repo, ['commit', '--no-edit'], noEditor));
    repo.git('reset', '-q', '--hard', tip);
    conflicted(['revert', '--no-edit', four]);
    quiet(gitWithHooks(repo, ['revert', '--continue'], noEditor));
    // ... and the next ordinary commit is judged again.
    expect(reminded(commitWithHooks(repo, 'feat: ordinary again', files(4, 'after')))).toBe(true);
  });
});

describe('never in the way', () => {
  it('a commit succeeds while refs/notes/handoff is broken; the hook says so in one line', () => {
    const repo = installed();
    handoff(repo, ['write', '--summary', 'then broken']);
    writeFileSync(join(repo.dir, '.git/refs/notes/handoff'), `${'e'.repeat(40)}\n`);
    const before = repo.head();
    const r = commitWithHooks(repo, 'feat: while broken', { 'x.txt': 'x\n' });
    expect(r.code).toBe(0);
    expect(r.head).not.toBe(before);
    const lines = r.stderr.replace(/\n$/, '').split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^git-handoff: post-commit hook: /);
    expect(repo.git('log', '-1', '--format=%s').trim()).toBe('feat: while broken');
  });

  it('an unknown event is a usage error for a person typing it', () => {
    const repo = installed();
    const r = handoff(repo, ['hook', 'post-nothing']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("unknown event 'post-nothing'");
    // agent hooks never block the agent: an unknown agent is one line on stderr, exit 0
    const agent = handoff(repo, ['hook', 'post-commit', '--agent', 'nobody'], { input: '{}' });
    expect(agent).toMatchObject({ code: 0, stdout: '' });
    expect(agent.stderr).toMatch(/^git handoff: hook post-commit --agent nobody: unknown agent 'nobody'/);
  });
});
