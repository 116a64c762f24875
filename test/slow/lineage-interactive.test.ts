/**
 * Issue 22, "Done when": interactive rebase that reorders, drops, squashes and fixes up
 * commits carrying handoffs, cherry-pick and amend, with `notes.rewriteRef` set as `init`
 * sets it. After each, every reader names the newest handoff by lineage (the first one is
 * written with a clock an hour fast, so neither the date nor the hex order of the targets
 * can stand in for it), no version is lost from the log, no handoff is due when no new
 * work was committed, and `doctor` is healthy or says exactly what happened.
 */
import { describe, expect, it } from 'vitest';
import { handoff } from '../helpers/cli.js';
import { commitWithHooks, gitWithHooks } from '../helpers/hooks.js';
import { expectAllSay, installedRepo } from '../helpers/lineage-scenarios.js';
import type { TestRepo } from '../helpers/repo.js';

/** `git rebase -i` driven by a sed script over the todo list; no editor for messages. */
const todo = (script: string) => ({ GIT_SEQUENCE_EDITOR: `sed -i -e '${script}'`, GIT_EDITOR: 'true' });

const allVersions = (repo: TestRepo): string[] => handoff(repo, ['log', '--all', '--json']).json.versions.map((v: { version: string }) => v.version);

interface Branch {
  repo: TestRepo;
  /** the version written after each commit a, b, c */
  v: Record<'a' | 'b' | 'c', string>;
  note: string;
}

/**
 * Branch `topic` off main with commits a, b, c and a handoff written after each; the one
 * on a with a clock an hour ahead (newest by date, oldest by lineage), a user note added
 * by the last. Then main moves, so the rebase onto it rewrites every commit.
 */
function topicBranch(): Branch {
  const repo = installedRepo();
  repo.git('checkout', '-q', '-b', 'topic');
  const v = {} as Branch['v'];
  const note = 'the user added this by hand';
  for (const n of ['a', 'b', 'c'] as const) {
    expect(commitWithHooks(repo, `feat: ${n}`, { [`${n}.txt`]: `${n}\n` }).code).toBe(0);
    const fast = n === 'a' ? { GIT_COMMITTER_DATE: `@${repo.clock + 3600} +0000`, GIT_AUTHOR_DATE: `@${repo.clock + 3600} +0000` } : {};
    const w = handoff(repo, ['write', '--json', '--summary', `on ${n}`, ...(n === 'c' ? ['--add-note', note] : [])], { env: fast });
    expect(w.code, w.stderr).toBe(0);
    v[n] = w.json.version;
  }
  expect(handoff(repo, ['show', '--json']).json.version).toBe(v.c);
  repo.git('checkout', '-q', 'main');
  commitWithHooks(repo, 'feat: main moves', { 'm.txt': 'm\n' });
  repo.git('checkout', '-q', 'topic');
  return { repo, v, note };
}

/** After the rewrite: every reader names c's version, nothing lost, nothing due, the next write keeps the note. */
function expectNewestKept(b: Branch, before: string[], opts: { target?: string } = {}): any {
  const { repo, v, note } = b;
  expectAllSay(repo, v.c, 'on c');
  const show = handoff(repo, ['show', '--json']).json;
  expect(show.diverged, 'no divergence').toBe(false);
  expect(show.handoff.soft_context.notes).toContain(note);
  if (opts.target) expect(show.target, "c's handoff sits on the commit that now carries c's work").toBe(opts.target);
  const after = allVersions(repo);
  for (const id of before) expect(after, `version ${id} is still in the log`).toContain(id);
  expect(after.length, 'a rewrite git copied notes for makes no version').toBe(before.length);
  return show;
}

function expectHealthy(repo: TestRepo): string {
  const d = handoff(repo, ['doctor']);
  expect(d.code, d.stdout + d.stderr).toBe(0);
  expect(d.stdout + d.stderr).toContain('healthy');
  return d.stdout + d.stderr;
}

/** The next write builds on the newest version: the user's note survives it. */
function expectNextWriteKeeps(b: Branch): void {
  const w = handoff(b.repo, ['write', '--json', '--summary', 'after the rewrite']);
  expect(w.code, w.stderr).toBe(0);
  expect(w.json.handoff.soft_context.notes).toContain(b.note);
  expect(handoff(b.repo, ['show', '--json']).json.continues).toEqual([b.v.c]);
  b.repo.fsck();
}

describe('git rebase -i over commits carrying handoffs', () => {
  it('squash: c squashed into b, the squashed commit carries the newest handoff', () => {
    const b = topicBranch();
    const before = allVersions(b.repo);
    const r = gitWithHooks(b.repo, ['rebase', '-i', 'main'], { env: todo('3s/^pick/squash/') });
    expect(r.code, r.stderr).toBe(0);
    expect(b.repo.git('rev-list', '--count', 'main..HEAD').trim()).toBe('2');
    const show = expectNewestKept(b, before, { target: b.repo.head() });
    expect(show.due, 'no handoff is due: no new work').toBe(false);
    expectHealthy(b.repo);
    expectNextWriteKeeps(b);
  });

  it('fixup: c fixed up into a (moved up first), the fixed-up commit carries the newest handoff', () => {
    const b = topicBranch();
    const before = allVersions(b.repo);
    // todo: a, b, c -> a, fixup c, b
    const r = gitWithHooks(b.repo, ['rebase', '-i', 'main'], { env: todo('2{h;d};3{s/^pick/fixup/;G}') });
    expect(r.code, r.stderr).toBe(0);
    expect(b.repo.git('log', '--format=%s', 'main..HEAD').trim().split('\n')).toEqual(['feat: b', 'feat: a']);
    expectNewestKept(b, before, { target: b.repo.git('rev-parse', 'HEAD~1').trim() });
    expectHealthy(b.repo);
    expectNextWriteKeeps(b);
  });

  it('reorder: c first, then a and b; c keeps the newest handoff and none is due', () => {
    const b = topicBranch();
    const before = allVersions(b.repo);
    // todo: a, b, c -> c, a, b
    const r = gitWithHooks(b.repo, ['rebase', '-i', 'main'], { env: todo('1{h;d};2{H;d};3G') });
    expect(r.code, r.stderr).toBe(0);
    expect(b.repo.git('log', '--format=%s', 'main..HEAD').trim().split('\n')).toEqual(['feat: b', 'feat: a', 'feat: c']);
    const show = expectNewestKept(b, before, { target: b.repo.git('rev-parse', 'HEAD~2').trim() });
    // a and b carry handoffs written before c's: moving them above c is no new work.
    expect(show.due_reason, 'no handoff is due after a reorder').toBeNull();
    expectHealthy(b.repo);
    expectNextWriteKeeps(b);
  });

  it('drop of a middle commit: the newest handoff stays on c, the dropped one stays in the log', () => {
    const b = topicBranch();
    const before = allVersions(b.repo);
    const r = gitWithHooks(b.repo, ['rebase', '-i', 'main'], { env: todo('2s/^pick/drop/') });
    expect(r.code, r.stderr).toBe(0);
    expect(b.repo.git('log', '--format=%s', 'main..HEAD').trim().split('\n')).toEqual(['feat: c', 'feat: a']);
    const show = expectNewestKept(b, before, { target: b.repo.head() });
    expect(show.due).toBe(false);
    expectHealthy(b.repo);
    expectNextWriteKeeps(b);
  });

  it('drop of the commit the newest handoff is on: it stays the latest (nothing silently lost), and doctor says the commit was dropped', () => {
    const b = topicBranch();
    const before = allVersions(b.repo);
    const dropped = b.repo.head();
    const r = gitWithHooks(b.repo, ['rebase', '-i', 'main'], { env: todo('3s/^pick/drop/') });
    expect(r.code, r.stderr).toBe(0);
    expect(b.repo.git('log', '--format=%s', 'main..HEAD').trim().split('\n')).toEqual(['feat: b', 'feat: a']);
    // The work of c is gone from the branch, its handoff is not: it is still the newest the
    // session wrote, and a session that starts now must see it (and its note).
    expectNewestKept(b, before, { target: dropped });
    const said = expectHealthy(b.repo);
    // Doctor must not claim a rewritten commit carries it: nothing does.
    expect(said).not.toContain('the rewritten commit carries the handoff');
    expect(said).toContain(`the note of ${dropped.slice(0, 7)}`);
    expect(said).toMatch(/dropped/);
    expectNextWriteKeeps(b);
  });
});

describe('cherry-pick and amend', () => {
  it('cherry-pick -x of a commit with a handoff onto main makes no version; main shows the newest one as a fallback, saying so', () => {
    const b = topicBranch();
    const before = allVersions(b.repo);
    b.repo.git('checkout', '-q', 'main');
    const r = gitWithHooks(b.repo, ['cherry-pick', '-x', 'topic~1']);
    expect(r.code, r.stderr).toBe(0);
    // git copies notes on amend and rebase only (notes.rewrite.<command>): the picked
    // commit carries no note, and no version was made.
    expect(b.repo.nativeNote('HEAD')).toBeNull();
    expect(allVersions(b.repo)).toEqual(before);
    const show = handoff(b.repo, ['show']);
    expect(show.code, show.stderr).toBe(0);
    expect(show.stdout + show.stderr).toContain('no handoff on branch main yet; showing the newest one (from topic)');
    expectAllSay(b.repo, b.v.c, 'on c');
    expectHealthy(b.repo);
    // The note copied by hand onto the picked commit (what `git notes copy` does) is the
    // same version moved, not a new one.
    b.repo.git('notes', '--ref=handoff', 'copy', 'topic~1', 'HEAD');
    expect(allVersions(b.repo)).toEqual(before);
    expect(handoff(b.repo, ['show', '--json', '--version', b.v.b]).json.target).toBe(b.repo.head());
    expectHealthy(b.repo);
    b.repo.git('checkout', '-q', 'topic');
    expectAllSay(b.repo, b.v.c, 'on c');
    b.repo.fsck();
  });

  it('amend with new content moves the newest handoff to the amended commit: same version, none due', () => {
    const b = topicBranch();
    const before = allVersions(b.repo);
    const r = commitWithHooks(b.repo, 'feat: c, amended', { 'c2.txt': 'more\n' }, { args: ['--amend'] });
    expect(r.code, r.stderr).toBe(0);
    const show = expectNewestKept(b, before, { target: r.head });
    expect(show.due).toBe(false);
    expectHealthy(b.repo);
    expectNextWriteKeeps(b);
  });
});
