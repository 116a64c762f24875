/**
 * Issue 23, point 7: a hook stays within its time budget whatever a remote sent (docs/hooks.md
 * "Time budget"). The remote sends 100,000 future-dated commits on the notes ref that only
 * their trees tell apart from versions (no trailer of ours: git cannot read them for us), so
 * reading the history in full takes seconds (18 s for `show` on this machine under load).
 * A hook stops reading at its budget, says in one line what it skipped, and the commit or the
 * session goes on; `show` (no budget) finishes the reading, and the hooks after it answer in
 * full. Each reader runs first on its own copy of the clone. The bound is the budget plus a
 * slack for a loaded 2-core machine (Node's start-up, finishing the hook).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { TestRepo } from '../helpers/repo.js';
import { handoff } from '../helpers/cli.js';
import { claudeStart, copyRepo, futureNativeCommits, timed, victimAndRemote } from '../helpers/hostile-notes.js';

const N = 100_000;
const BUDGET_MS = 2_000;
const SLACK_MS = 2_000;

describe(`${N} future-dated commits without our trailers fetched straight into refs/notes/handoff`, () => {
  let victim: TestRepo;
  beforeAll(() => {
    const made = victimAndRemote();
    victim = made.victim;
    victim.write('CLAUDE.md', '# Rules\n\nsession handoff: read on start, write on end\n');
    futureNativeCommits(made.attacker, N);
    made.attacker.git('push', '-q', 'origin', 'refs/notes/handoff');
    victim.git('fetch', '-q', 'origin', '+refs/notes/handoff:refs/notes/handoff');
  });

  it('the post-commit hook returns within its budget, says in one line what it skipped, and show finishes the work', () => {
    const repo = copyRepo(victim);
    repo.commit('feat: more work', { 'b.txt': 'b\n' });
    const post = timed(() => handoff(repo, ['hook', 'post-commit']));
    console.info(`post-commit over ${N} commits: ${post.ms} ms`);
    expect(post.value.code, post.value.stderr).toBe(0);
    expect(post.ms).toBeLessThan(BUDGET_MS + SLACK_MS);
    const lines = post.value.stderr.trim().split('\n');
    expect(lines, post.value.stderr).toHaveLength(1);
    expect(lines[0]).toMatch(/^git-handoff: the substantive-commit check of this commit was skipped: .*2 s budget.*'git handoff show' reads the rest/);
    // the commit stands
    expect(repo.git('log', '-1', '--format=%s')).toBe('feat: more work\n');
    // show has no budget: it reads the rest, and the next hook answers in full within its budget
    const show = timed(() => handoff(repo, ['show', '--json']));
    expect(show.value.code, show.value.stderr).toBe(0);
    expect(show.value.json.handoff.summary).toBe('my own work');
    console.info(`then show ${show.ms} ms`);
    repo.commit('feat: and more', { 'c.txt': 'c\n', 'd.txt': 'd\n', 'e.txt': 'e\n', 'f.txt': 'f\n' });
    const next = timed(() => handoff(repo, ['hook', 'post-commit']));
    expect(next.value.code).toBe(0);
    expect(next.value.stderr).toMatch(/^git-handoff: substantive commit \(it changes more than 3 files\)/);
    expect(next.value.stderr).not.toMatch(/skipped/);
    expect(next.ms).toBeLessThan(BUDGET_MS + SLACK_MS);
  });

  it('the session-start hook returns within its budget and tells the agent the handoff was not read and how to read it', () => {
    const repo = copyRepo(victim);
    const start = timed(() => handoff(repo, ['hook', 'session-start', '--agent', 'claude'], { input: claudeStart(repo) }));
    console.info(`session-start over ${N} commits: ${start.ms} ms`);
    expect(start.value.code, start.value.stderr).toBe(0);
    expect(start.ms).toBeLessThan(BUDGET_MS + SLACK_MS);
    const context = JSON.parse(start.value.stdout).hookSpecificOutput.additionalContext as string;
    expect(context).toMatch(/the previous session's handoff was skipped: .*'git handoff show' reads the rest/);
    expect(start.value.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('a prompt-time hook (pre-compact) returns within its budget with one line', () => {
    const repo = copyRepo(victim);
    const input = JSON.stringify({ session_id: 'sess-1', transcript_path: '/tmp/t.jsonl', cwd: repo.dir, hook_event_name: 'PreCompact', trigger: 'manual' });
    const r = timed(() => handoff(repo, ['hook', 'pre-compact', '--agent', 'claude'], { input }));
    console.info(`pre-compact over ${N} commits: ${r.ms} ms`);
    expect(r.value.code, r.value.stderr).toBe(0);
    expect(r.ms).toBeLessThan(BUDGET_MS + SLACK_MS);
    expect(r.value.stderr.trim().split('\n'), r.value.stderr).toHaveLength(1);
    expect(r.value.stderr).toMatch(/stopped reading the notes history at this hook's time budget/);
  });
});
