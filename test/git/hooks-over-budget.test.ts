/**
 * A hook's time budget (src/app/hook-budget.ts) skips only optional work. The landing of a
 * local squash merge (post-commit) and the heal after a merge or a checkout onto a forge's
 * merge (post-merge, post-checkout) have no later reader to do them: they run outside the
 * budget, and the budget is back for what follows.
 * user-prompt-submit over its budget skips only the divergence line: the "write now" context
 * still reaches the agent. In process (the budget is this process's read deadline, set here
 * to 0, i.e. long past) against real git, with 150 receipts on the notes ref so every walk
 * reads past the deadline's check (at each 64th commit).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { TestRepo, isolatedEnv } from '../helpers/repo.js';
import { writeVersion } from '../helpers/fleet.js';
import { readDeadline, setReadDeadline } from '../../src/git/read-budget.js';
import { plainPainter } from '../../src/core/bookmark.js';
import type { Io } from '../../src/app/io.js';
import { run as postCommit } from '../../src/app/hooks/post-commit.js';
import { run as postMerge } from '../../src/app/hooks/post-merge.js';
import { run as postCheckout } from '../../src/app/hooks/post-checkout.js';
import { runAgentHook } from '../../src/app/agent-hook.js';

const saved = { ...process.env };
beforeAll(() => {
  for (const k of Object.keys(process.env)) delete process.env[k];
  Object.assign(process.env, isolatedEnv());
});
afterAll(() => {
  for (const k of Object.keys(process.env)) delete process.env[k];
  Object.assign(process.env, saved);
});
afterEach(() => setReadDeadline(Infinity));

const TRIGGER = 'session handoff: read on start, write on end';

/** `n` receipts (commits that record nothing) on top of refs/notes/handoff. */
function receipts(repo: TestRepo, n: number): void {
  const data = (t: string) => `data ${Buffer.byteLength(t)}\n${t}`;
  const s: string[] = [];
  for (let i = 0; i < n; i++)
    s.push(
      `commit refs/notes/handoff\ncommitter M <m@example.com> ${1767225600 + i} +0000\n${data(`r ${i}\n\nHandoff-Kind: receipt\n`)}${i ? '' : 'from refs/notes/handoff^0\n'}\n`,
    );
  const r = repo.gitRaw(['fast-import', '--quiet'], { input: s.join('') });
  expect(r.status, r.stderr).toBe(0);
}

function recordingIo(): Io & { lines: string[] } {
  const lines: string[] = [];
  return { lines, out: () => {}, err: (l) => lines.push(l), json: () => {}, color: false, paint: plainPainter, stdinIsTTY: false };
}

const hookCtx = (repo: TestRepo, io: Io, args: string[] = []) => ({ io, cwd: repo.dir, args, stdin: async () => '' });

/** main with a handoff, and a feature branch of one commit with a handoff, under 150 receipts. */
function withFeature(): { repo: TestRepo; feature: string } {
  const repo = TestRepo.init();
  repo.commit('feat: start', { 'CLAUDE.md': `# Rules\n\n${TRIGGER}\n` });
  writeVersion(repo, 'main: start');
  repo.git('checkout', '-q', '-b', 'feature');
  const feature = repo.commit('feat: the feature', { 'f.txt': 'f\n' });
  writeVersion(repo, 'feature done; next: the docs');
  receipts(repo, 150);
  return { repo, feature };
}

describe('over the hook budget', () => {
  it('post-commit still lands a local squash merge, drops its record, and the budget is back after it', async () => {
    const { repo, feature } = withFeature();
    repo.git('checkout', '-q', 'main');
    repo.git('merge', '-q', '--squash', 'feature');
    expect(await postMerge(hookCtx(repo, recordingIo(), ['1']))).toBe(0);
    const state = join(repo.gitDir(), 'handoff', 'squash-merge.json');
    repo.git('commit', '-q', '-m', 'Feature, squashed');
    const io = recordingIo();
    setReadDeadline(0);
    expect(await postCommit(hookCtx(repo, io))).toBe(0);
    expect(io.lines.join('\n')).toContain(`the handoff of ${feature.slice(0, 7)} now sits on ${repo.head().slice(0, 7)} (a squash merge of it`);
    expect(repo.git('log', '-1', '--format=%B', 'refs/notes/handoff')).toContain(`Handoff-Reattached-From: ${feature}`);
    expect(existsSync(state)).toBe(false);
    expect(readDeadline()).toBe(0);
  });

  it('post-merge still heals the note of a commit a forge merged as another (same tree and patch)', async () => {
    const { repo, feature } = withFeature();
    repo.git('checkout', '-q', '-b', 'upstream', 'main');
    repo.git('merge', '-q', '--squash', 'feature');
    repo.git('commit', '-q', '-m', 'Feature (#1)');
    const squash = repo.head();
    repo.git('checkout', '-q', 'main');
    repo.git('merge', '-q', '--ff-only', 'upstream');
    const io = recordingIo();
    setReadDeadline(0);
    expect(await postMerge(hookCtx(repo, io))).toBe(0);
    expect(io.lines).toHaveLength(1);
    expect(io.lines[0]).toContain(`git-handoff: the handoff of ${feature.slice(0, 7)} now sits on ${squash.slice(0, 7)} (same `);
    expect(repo.git('log', '-1', '--format=%B', 'refs/notes/handoff')).toContain(`Handoff-Reattached-From: ${feature}`);
    expect(readDeadline()).toBe(0);
  });

  it('post-checkout onto such commits still heals the note', async () => {
    const { repo, feature } = withFeature();
    repo.git('checkout', '-q', '-b', 'upstream', 'main');
    repo.git('merge', '-q', '--squash', 'feature');
    repo.git('commit', '-q', '-m', 'Feature (#1)');
    const squash = repo.head();
    const io = recordingIo();
    setReadDeadline(0);
    expect(await postCheckout(hookCtx(repo, io, [repo.git('rev-parse', 'main').trim(), squash, '1']))).toBe(0);
    expect(io.lines).toHaveLength(1);
    expect(io.lines[0]).toContain(`git-handoff: the handoff of ${feature.slice(0, 7)} now sits on ${squash.slice(0, 7)} (same `);
    expect(readDeadline()).toBe(0);
  });

  it('user-prompt-submit at a session end still tells the agent to write now, the divergence check skipped in one line', async () => {
    const { repo } = withFeature();
    setReadDeadline(0);
    const stdin = JSON.stringify({
      session_id: 'sess-1',
      transcript_path: '/tmp/t.jsonl',
      cwd: repo.dir,
      hook_event_name: 'UserPromptSubmit',
      prompt: 'end session',
    });
    const r = await runAgentHook({ agent: 'claude', event: 'user-prompt-submit', stdin, cwd: repo.dir, env: process.env });
    expect(r.stdout, r.stderr.join('\n')).not.toBe('');
    expect(JSON.parse(r.stdout).hookSpecificOutput.additionalContext).toMatch(/Write the handoff for the next session now: run `git handoff write`/);
    expect(r.stderr).toHaveLength(1);
    expect(r.stderr[0]).toMatch(/the check for sessions that diverged was skipped: .*2 s budget/);
  });
});
