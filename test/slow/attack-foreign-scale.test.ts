/**
 * Issue 23, point 7: the work a read, a hook or doctor does on what a remote sent is bounded.
 * The attacker writes with plain git (`git fast-import`, as fast as git can write): a notes
 * tree of 100,000 entries for commits the victim never had, and 100,000 bookkeeping commits
 * dated far in the future on top of the victim's own version. The victim fetches them from
 * a bare remote. The time bounds are generous hang guards; the assertions are on counts.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { TestRepo } from '../helpers/repo.js';
import { cliPath, handoff, type CliResult } from '../helpers/cli.js';
import { claudeStart, fastImport, futureBookkeeping, timed, victimAndRemote } from '../helpers/hostile-notes.js';

const N = 100_000;
const hex = (i: number) => createHash('sha1').update(`foreign ${i}`).digest('hex');

/** The attacker's pushed history, fetched into the victim's notes ref as `init --sync`'s refspec would. */
function deliver(attacker: TestRepo, victim: TestRepo): void {
  attacker.git('push', '-q', 'origin', 'refs/notes/handoff');
  victim.git('fetch', '-q', 'origin', '+refs/notes/handoff:refs/notes/handoff');
}

/** `git handoff` as the helper runs it, with room for a --json document of 100,000 findings. */
function big(repo: TestRepo, args: string[], input = ''): CliResult {
  const r = spawnSync('git', ['handoff', ...args], { cwd: repo.dir, env: { ...repo.tick(), PATH: cliPath() }, input, encoding: 'utf8', maxBuffer: 1 << 30 });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr, json: args.includes('--json') ? JSON.parse(r.stdout) : undefined };
}

describe('100,000 foreign notes entries for commits this clone lacks', () => {
  let victim: TestRepo;
  beforeAll(() => {
    const made = victimAndRemote();
    victim = made.victim;
    const attacker = made.attacker;
    const tip = attacker.git('rev-parse', 'refs/notes/handoff').trim();
    // half name a branch the victim has (they wait for a fetch), half one it has not (doctor tries to place them)
    const waiting = 'schema: 1\nbranch: main\nsummary: theirs\n';
    const gone = 'schema: 1\nbranch: gone\nsummary: theirs\nhead_tree: 4b825dc642cb6eb9a060e54bf8d69288fbee4904\n';
    let s = `blob\nmark :1\ndata ${waiting.length}\n${waiting}\nblob\nmark :2\ndata ${gone.length}\n${gone}\n`;
    s += `commit refs/notes/handoff\ncommitter Mallory <m@example.com> 1767300000 +0000\ndata 6\nnotes\nfrom ${tip}\n`;
    for (let i = 0; i < N; i++) {
      const h = hex(i);
      s += `M 100644 :${i % 2 ? 1 : 2} ${h.slice(0, 2)}/${h.slice(2)}\n`;
    }
    fastImport(attacker, `${s}\n`);
    deliver(attacker, victim);
  });

  it('doctor finishes in seconds, tells each kind in one line, and lists every one in --json', () => {
    const { value: r, ms } = timed(() => big(victim, ['doctor']));
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines.length, r.stdout.slice(0, 2000)).toBeLessThanOrEqual(4);
    expect(r.stdout).toContain(`${N / 2} notes are on commits not in this clone`);
    expect(r.stdout).toContain(`${N / 2} notes are on commits that are gone or on no branch and cannot be re-attached`);
    console.info(`doctor on ${N} foreign notes: ${ms} ms`);
    expect(ms).toBeLessThan(60_000);
    const j = big(victim, ['doctor', '--json']);
    expect(j.code, j.stderr).toBe(0);
    expect(j.json.findings.filter((f: any) => f.kind === 'orphan')).toHaveLength(N);
  });
});

describe.each([
  ['on top of the victim’s version (sync fast-forwards)', false],
  ['beside a newer version of the victim’s (sync merges; the dates put them first)', true],
])('100,000 future-dated bookkeeping commits from a remote, %s', (_how, merges) => {
  let victim: TestRepo;
  let synced: { value: CliResult; ms: number };
  const summary = merges ? 'my newer work' : 'my own work';
  beforeAll(() => {
    const made = victimAndRemote();
    victim = made.victim;
    victim.write('CLAUDE.md', '# Rules\n\nsession handoff: read on start, write on end\n');
    futureBookkeeping(made.attacker, N);
    made.attacker.git('push', '-q', 'origin', 'refs/notes/handoff');
    if (merges) expect(handoff(victim, ['write', '--summary', 'my newer work']).code).toBe(0);
    synced = timed(() => handoff(victim, ['sync']));
    expect(synced.value.code, synced.value.stderr).toBe(0);
    expect(victim.gitRaw(['rev-list', '--count', 'refs/notes/handoff']).stdout.trim()).toBe(String(N + (merges ? 3 : 1)));
  });

  it('show, the session-start hook and the post-commit hook do not walk them again', () => {
    console.info(`sync over ${N} future-dated bookkeeping commits (merges: ${merges}): ${synced.ms} ms`);
    const show = timed(() => handoff(victim, ['show', '--json']));
    expect(show.value.code, show.value.stderr).toBe(0);
    expect(show.value.json.handoff.summary).toBe(summary);
    const start = timed(() => handoff(victim, ['hook', 'session-start', '--agent', 'claude'], { input: claudeStart(victim) }));
    expect(start.value.code, start.value.stderr).toBe(0);
    expect(JSON.parse(start.value.stdout).hookSpecificOutput.additionalContext).toContain(summary);
    victim.commit('feat: more work', { 'b.txt': 'b\n' });
    const post = timed(() => handoff(victim, ['hook', 'post-commit']));
    expect(post.value.code, post.value.stderr).toBe(0);
    expect(post.value.stderr).toMatch(/substantive commit/);
    console.info(`then show ${show.ms} ms, session-start ${start.ms} ms, post-commit ${post.ms} ms`);
    // what each of them read: the line is one jump (the cache of lines jumped over), not 100,000 commits
    const skips = JSON.parse(readFileSync(join(victim.gitDir(), 'handoff', 'walk-skips.json'), 'utf8')).skips;
    expect(skips.map((s: [string, string, number]) => s[2])).toContain(N);
    for (const ms of [show.ms, start.ms, post.ms]) expect(ms).toBeLessThan(5_000);
  });
});

describe('100,000 future-dated bookkeeping commits fetched by git fetch (init --sync’s refspec), not yet synced', () => {
  it('show counts the remote’s new versions once for the pair of tips; the next show and hook read the answer', () => {
    const { victim, attacker } = victimAndRemote();
    victim.write('CLAUDE.md', '# Rules\n\nsession handoff: read on start, write on end\n');
    futureBookkeeping(attacker, N);
    attacker.git('push', '-q', 'origin', 'refs/notes/handoff');
    victim.git('fetch', '-q', 'origin', '+refs/notes/handoff:refs/notes/remotes/origin/handoff');
    const first = timed(() => handoff(victim, ['show']));
    expect(first.value.code, first.value.stderr).toBe(0);
    const again = timed(() => handoff(victim, ['show', '--json']));
    expect(again.value.json.handoff.summary).toBe('my own work');
    const start = timed(() => handoff(victim, ['hook', 'session-start', '--agent', 'claude'], { input: claudeStart(victim) }));
    expect(start.value.code, start.value.stderr).toBe(0);
    console.info(`fetched, not synced: first show ${first.ms} ms, then show ${again.ms} ms, session-start ${start.ms} ms`);
    const kept = JSON.parse(readFileSync(join(victim.gitDir(), 'handoff', 'remote-ahead.json'), 'utf8'));
    expect(kept).toEqual({ tracked: victim.git('rev-parse', 'refs/notes/remotes/origin/handoff').trim(), local: victim.notesRef(), versions: 0 });
    for (const ms of [again.ms, start.ms]) expect(ms).toBeLessThan(5_000);
  });
});
