import { describe, expect, it } from 'vitest';
import { TestRepo } from '../helpers/repo.js';
import { handoff } from '../helpers/cli.js';
import { commitWithHooks, gitWithHooks, handoffLines } from '../helpers/hooks.js';

function installed(): TestRepo {
  const repo = TestRepo.init();
  repo.commit('chore: start', { 'README.md': 'start\n' });
  expect(handoff(repo, ['init']).code).toBe(0);
  return repo;
}

/** The note on `rev` is one handoff document with this summary. */
function oneHandoff(repo: TestRepo, rev: string, summary: string): void {
  const note = repo.nativeNote(rev);
  expect(note, `note on ${rev}`).not.toBeNull();
  expect(note!.match(/^schema: 1$/gm)).toHaveLength(1);
  expect(note).toContain(`\nsummary: ${summary}\n`);
}

const versionIds = (repo: TestRepo) => (handoff(repo, ['log', '--all', '--json']).json.versions as { version: string }[]).map((v) => v.version);
const rebaseEnv = (script: string) => ({ GIT_SEQUENCE_EDITOR: `sed -i '${script}'`, GIT_EDITOR: 'true' });

describe('post-rewrite: handoffs survive amend and rebase', () => {
  it('amend carries the note to the new commit; show and log follow; no version is lost', () => {
    const repo = installed();
    const c = commitWithHooks(repo, 'feat: one', { 'a.txt': 'a\n' }).head;
    const w = handoff(repo, ['write', '--summary', 'on one', '--json']).json;
    const r = commitWithHooks(repo, 'feat: one, amended', {}, { args: ['--amend'] });
    expect(r.code).toBe(0);
    expect(handoffLines(r.stderr)).toEqual([]);
    expect(r.head).not.toBe(c);
    oneHandoff(repo, r.head, 'on one');
    const show = handoff(repo, ['show', '--json']).json;
    expect(show.target).toBe(r.head);
    expect(show.handoff.summary).toBe('on one');
    expect(show.due).toBe(false);
    expect(versionIds(repo)).toContain(w.version);
    repo.fsck();
  });

  it('a plain rebase carries every note; the versions on the old commits stay in the log', () => {
    const repo = installed();
    repo.git('checkout', '-q', '-b', 'topic');
    commitWithHooks(repo, 'feat: a', { 'a.txt': 'a\n' });
    handoff(repo, ['write', '--summary', 'on a']);
    commitWithHooks(repo, 'feat: b', { 'b.txt': 'b\n' });
    handoff(repo, ['write', '--summary', 'on b']);
    const before = versionIds(repo);
    repo.git('checkout', '-q', 'main');
    commitWithHooks(repo, 'feat: main moves', { 'm.txt': 'm\n' });
    repo.git('checkout', '-q', 'topic');
    const r = gitWithHooks(repo, ['rebase', 'main']);
    expect(r.code).toBe(0);
    expect(handoffLines(r.stderr)).toEqual([]);
    oneHandoff(repo, 'HEAD', 'on b');
    oneHandoff(repo, 'HEAD~1', 'on a');
    expect(repo.git('rev-parse', 'HEAD~2').trim()).toBe(repo.git('rev-parse', 'main').trim());
    const after = versionIds(repo);
    for (const v of before) expect(after).toContain(v);
    expect(handoff(repo, ['show', '--json']).json.handoff.summary).toBe('on b');
    repo.fsck();
  });

  it('an interactive squash keeps the newest handoff, never two documents', () => {
    const repo = installed();
    commitWithHooks(repo, 'feat: a', { 'a.txt': 'a\n' });
    handoff(repo, ['write', '--summary', 'older, on a']);
    commitWithHooks(repo, 'feat: b', { 'b.txt': 'b\n' });
    handoff(repo, ['write', '--summary', 'newer, on b']);
    const before = versionIds(repo);
    const r = gitWithHooks(repo, ['rebase', '-i', 'HEAD~2'], { env: rebaseEnv('2s/^pick/squash/') });
    expect(r.code).toBe(0);
    expect(repo.git('rev-list', '--count', 'HEAD').trim()).toBe('2');
    oneHandoff(repo, 'HEAD', 'newer, on b');
    for (const v of before) expect(versionIds(repo)).toContain(v);
    expect(handoff(repo, ['show', '--json']).json.handoff.summary).toBe('newer, on b');
    repo.fsck();
  });

  it('a squash whose newest handoff was not the last one picked keeps the newest', () => {
    const repo = installed();
    commitWithHooks(repo, 'feat: a', { 'a.txt': 'a\n' });
    const b = commitWithHooks(repo, 'feat: b', { 'b.txt': 'b\n' }).head;
    handoff(repo, ['write', '--summary', 'older, on b']);
    // Written later, on a (a detached HEAD), so the newest handoff sits on the first commit.
    repo.git('checkout', '-q', 'HEAD~1');
    handoff(repo, ['write', '--summary', 'newer, on a']);
    repo.git('checkout', '-q', 'main');
    expect(repo.head()).toBe(b);
    const r = gitWithHooks(repo, ['rebase', '-i', 'HEAD~2'], { env: rebaseEnv('2s/^pick/fixup/') });
    expect(r.code).toBe(0);
    oneHandoff(repo, 'HEAD', 'newer, on a');
  });

  it('a fixup keeps the newest handoff by lineage, not the one whose clock was fast', () => {
    const repo = installed();
    commitWithHooks(repo, 'feat: a', { 'a.txt': 'a\n' });
    // written an hour ahead by the clock, then continued on b: b's is the newest
    const fast = `@${repo.clock + 3600} +0000`;
    handoff(repo, ['write', '--summary', 'older, on a, clock fast'], { env: { GIT_COMMITTER_DATE: fast, GIT_AUTHOR_DATE: fast } });
    commitWithHooks(repo, 'feat: b', { 'b.txt': 'b\n' });
    const newest = handoff(repo, ['write', '--summary', 'newer, on b', '--json']).json.version;
    const r = gitWithHooks(repo, ['rebase', '-i', 'HEAD~2'], { env: rebaseEnv('2s/^pick/fixup/') });
    expect(r.code, r.stderr).toBe(0);
    oneHandoff(repo, 'HEAD', 'newer, on b');
    const show = handoff(repo, ['show', '--json']).json;
    expect(show.version, 'the same version, moved: no carried-over copy of the older one').toBe(newest);
    expect(show.due).toBe(false);
  });

  it('repairs what a concatenating notes.rewriteMode would glue together', () => {
    const repo = TestRepo.init();
    repo.commit('chore: start');
    repo.git('config', 'notes.rewriteMode', 'concatenate');
    handoff(repo, ['init']);
    commitWithHooks(repo, 'feat: a', { 'a.txt': 'a\n' });
    handoff(repo, ['write', '--summary', 'on a']);
    commitWithHooks(repo, 'feat: b', { 'b.txt': 'b\n' });
    handoff(repo, ['write', '--summary', 'on b']);
    const r = gitWithHooks(repo, ['rebase', '-i', 'HEAD~2'], { env: rebaseEnv('2s/^pick/squash/') });
    expect(r.code).toBe(0);
    oneHandoff(repo, 'HEAD', 'on b');
    expect(handoff(repo, ['show', '--json']).json.handoff.summary).toBe('on b');
    repo.fsck();
  });

  it('carries notes itself when notes.rewriteRef does not cover them', () => {
    const repo = installed();
    repo.git('config', '--unset-all', 'notes.rewriteRef');
    commitWithHooks(repo, 'feat: a', { 'a.txt': 'a\n' });
    handoff(repo, ['write', '--summary', 'on a']);
    const r = commitWithHooks(repo, 'feat: a, amended', {}, { args: ['--amend'] });
    oneHandoff(repo, r.head, 'on a');
    const tip = repo.git('log', '-1', '--format=%B', 'refs/notes/handoff');
    expect(tip).toContain(`Handoff-Kind: version\nHandoff-Target: ${r.head}`);
    expect(handoff(repo, ['show', '--json']).json.target).toBe(r.head);
  });

  it('without notes.rewriteRef, a rebase of three commits carries each handoff on, one head: the newest, whatever the clocks say', () => {
    const repo = installed();
    repo.git('config', '--unset-all', 'notes.rewriteRef');
    repo.git('checkout', '-q', '-b', 'topic');
    const written: string[] = [];
    for (const [n, skew] of [
      ['a', 7200],
      ['b', 0],
      ['c', 0],
    ] as const) {
      commitWithHooks(repo, `feat: ${n}`, { [`${n}.txt`]: `${n}\n` });
      const t = repo.clock + 60 + skew;
      const w = handoff(repo, ['write', '--json', '--summary', `on ${n}`], { env: { GIT_COMMITTER_DATE: `@${t} +0000`, GIT_AUTHOR_DATE: `@${t} +0000` } });
      written.push(w.json.version);
    }
    repo.git('checkout', '-q', 'main');
    repo.commit('feat: main moves', { 'm.txt': 'm\n' });
    repo.git('checkout', '-q', 'topic');
    const r = gitWithHooks(repo, ['rebase', 'main']);
    expect(r.code, r.stderr).toBe(0);
    const show = handoff(repo, ['show', '--json']).json;
    expect(show).toMatchObject({ target: repo.head(), diverged: false, due: false });
    expect(show.handoff.summary).toBe('on c');
    // each carried note continues the version it carries (and the one carried before it)
    expect(show.continues).toContain(written[2]);
    repo.fsck();
  });
});
