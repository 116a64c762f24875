/**
 * Issue 23, point 7: the first read after a remote's 100,000 future-dated bookkeeping commits
 * arrived by plain git (a `git fetch` straight into refs/notes/handoff, a native `git notes
 * merge`), not through our `sync`, costs about what git's own walk of them costs: the reader
 * hands the line to git instead of reading it commit by commit (src/git/walk-skips.ts). Each
 * reader is timed as the first one, on its own copy of the clone. `show`'s bound is a ratio
 * to `git rev-list` of the same history on the same machine at the same time (load slows
 * both). A hook answers within its time budget (docs/hooks.md "Time budget"); on a loaded
 * machine it may stop at the budget instead, say so in one line, and the next one goes on
 * from what it read, so a few runs answer in full.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { TestRepo } from '../helpers/repo.js';
import { handoff } from '../helpers/cli.js';
import { claudeStart, copyRepo, futureBookkeeping, futureMergeChain, timed, victimAndRemote } from '../helpers/hostile-notes.js';

const N = 100_000;

/** git's own walk of the notes history, the best of three. */
function gitWalk(repo: TestRepo): number {
  const once = () => timed(() => repo.gitRaw(['rev-list', '--count', 'refs/notes/handoff'])).ms;
  return Math.min(once(), once(), once());
}

/** What a first reader may cost: a few times git's walk (two git processes stream it to us), plus Node's start-up and our own read. */
const bound = (git: number) => 5 * git + 1500;
/** A hook's budget (docs/hooks.md "Time budget") and a slack for a loaded 2-core machine. */
const HOOK_BOUND_MS = 2_000 + 2_000;
/** On a loaded machine a hook may stop at its budget: then it says so, and the next one goes on from there. */
const HOOK_RUNS = 6;

function firstReads(victim: () => TestRepo, what: string) {
  it(`show, the first reader after ${what}, costs about git's own walk`, () => {
    const repo = copyRepo(victim());
    const git = gitWalk(repo);
    const show = timed(() => handoff(repo, ['show', '--json']));
    console.info(`${what}: first show ${show.ms} ms (git rev-list ${git} ms)`);
    expect(show.value.code, show.value.stderr).toBe(0);
    expect(show.value.json.handoff.summary).toMatch(/^my (own|newer) work$/);
    expect(show.ms).toBeLessThan(bound(git));
    // git read the region, from where the walk handed it over (a run of MIN_SKIP read in process)
    const skips = JSON.parse(readFileSync(join(repo.gitDir(), 'handoff', 'walk-skips.json'), 'utf8')).skips as [string, string[], number][];
    expect(skips.some(([, , n]) => n >= N - 300 && n < N)).toBe(true);
    // and the next reader reads the record the first one left
    const again = timed(() => handoff(repo, ['show', '--json']));
    expect(again.value.json).toEqual(show.value.json);
    expect(again.ms).toBeLessThan(bound(git));
  });

  const hooks: [string, (r: TestRepo, run: number) => { code: number; stdout: string; stderr: string }, (r: { stdout: string; stderr: string }) => boolean][] =
    [
      [
        'the session-start hook',
        (r, run) => handoff(r, ['hook', 'session-start', '--agent', 'claude'], { input: claudeStart(r, `sess-${run}`) }),
        (r) => /my (own|newer) work/.test(JSON.parse(r.stdout).hookSpecificOutput.additionalContext),
      ],
      ['the post-commit hook', (r) => handoff(r, ['hook', 'post-commit']), (r) => /^git-handoff: substantive commit/.test(r.stderr)],
    ];
  it.each(hooks)(
    `%s, the first reader after ${what}, answers within its budget (or says what it skipped, and the next one goes on)`,
    (name, hook, answered) => {
      const repo = copyRepo(victim());
      repo.commit('feat: more work', { 'c.txt': 'c\n' });
      const times: number[] = [];
      for (let run = 1; run <= HOOK_RUNS; run++) {
        const r = timed(() => hook(repo, run));
        times.push(r.ms);
        expect(r.value.code, r.value.stderr).toBe(0);
        expect(r.ms).toBeLessThan(HOOK_BOUND_MS);
        if (answered(r.value)) break;
        expect(r.value.stderr, 'a hook that did not answer says what it skipped').toMatch(/was skipped: reading the notes history took this hook's 2 s budget/);
        expect(run, `${name} answered in none of ${HOOK_RUNS} runs`).toBeLessThan(HOOK_RUNS);
      }
      console.info(`${what}: ${name} ${times.join(' ms, ')} ms`);
    },
  );
}

describe(`${N} future-dated bookkeeping commits fetched straight into refs/notes/handoff`, () => {
  let victim: TestRepo;
  beforeAll(() => {
    const made = victimAndRemote();
    victim = made.victim;
    victim.write('CLAUDE.md', '# Rules\n\nsession handoff: read on start, write on end\n');
    futureBookkeeping(made.attacker, N);
    made.attacker.git('push', '-q', 'origin', 'refs/notes/handoff');
    victim.git('fetch', '-q', 'origin', '+refs/notes/handoff:refs/notes/handoff');
    expect(victim.gitRaw(['rev-list', '--count', 'refs/notes/handoff']).stdout.trim()).toBe(String(N + 1));
  });
  firstReads(() => victim, 'a plain git fetch');
});

describe(`${N} future-dated bookkeeping commits brought in by a native git notes merge`, () => {
  let victim: TestRepo;
  beforeAll(() => {
    const made = victimAndRemote();
    victim = made.victim;
    victim.write('CLAUDE.md', '# Rules\n\nsession handoff: read on start, write on end\n');
    futureBookkeeping(made.attacker, N);
    made.attacker.git('push', '-q', 'origin', 'refs/notes/handoff');
    victim.commit('feat: newer', { 'b.txt': 'b\n' });
    expect(handoff(victim, ['write', '--summary', 'my newer work']).code).toBe(0);
    victim.git('fetch', '-q', 'origin', '+refs/notes/handoff:refs/notes/remotes/origin/handoff');
    victim.git('notes', '--ref=refs/notes/handoff', 'merge', '-q', 'refs/notes/remotes/origin/handoff');
    expect(victim.gitRaw(['rev-list', '--count', 'refs/notes/handoff']).stdout.trim()).toBe(String(N + 3));
  });
  firstReads(() => victim, 'a native git notes merge');
});

describe(`a chain of ${N / 2} future-dated bookkeeping merges (each with a receipt beside it) fetched straight into refs/notes/handoff`, () => {
  let victim: TestRepo;
  beforeAll(() => {
    const made = victimAndRemote();
    victim = made.victim;
    victim.write('CLAUDE.md', '# Rules\n\nsession handoff: read on start, write on end\n');
    futureMergeChain(made.attacker, N / 2);
    made.attacker.git('push', '-q', 'origin', 'refs/notes/handoff');
    victim.git('fetch', '-q', 'origin', '+refs/notes/handoff:refs/notes/handoff');
    expect(victim.gitRaw(['rev-list', '--count', 'refs/notes/handoff']).stdout.trim()).toBe(String(N + 1));
  });
  firstReads(() => victim, 'a chain of merges');
});
