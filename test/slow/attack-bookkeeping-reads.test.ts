/**
 * Issue 23, point 7: the first read after a remote's 100,000 future-dated bookkeeping commits
 * arrived by plain git (a `git fetch` straight into refs/notes/handoff, a native `git notes
 * merge`), not through our `sync`, costs about what git's own walk of them costs: the reader
 * hands the line to git instead of reading it commit by commit (src/git/walk-skips.ts). Each
 * reader is timed as the first one, on its own copy of the clone. The bound is a ratio to
 * `git rev-list` of the same history on the same machine at the same time (load slows both).
 */
import { beforeAll, describe, expect, it } from 'vitest';
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
const bound = (git: number) => 4 * git + 1000;

const readers: [string, (r: TestRepo) => void][] = [
  [
    'show',
    (r) => {
      const j = handoff(r, ['show', '--json']);
      expect(j.code, j.stderr).toBe(0);
      expect(j.json.handoff.summary).toMatch(/^my (own|newer) work$/);
    },
  ],
  [
    'the session-start hook',
    (r) => {
      const s = handoff(r, ['hook', 'session-start', '--agent', 'claude'], { input: claudeStart(r) });
      expect(s.code, s.stderr).toBe(0);
      expect(JSON.parse(s.stdout).hookSpecificOutput.additionalContext).toMatch(/my (own|newer) work/);
    },
  ],
  [
    'the post-commit hook',
    (r) => {
      r.commit('feat: more work', { 'c.txt': 'c\n' });
      const p = handoff(r, ['hook', 'post-commit']);
      expect(p.code, p.stderr).toBe(0);
      expect(p.stderr).toMatch(/substantive commit/);
    },
  ],
];

function firstReads(victim: () => TestRepo, what: string) {
  it.each(readers)(`%s, the first reader after ${what}, costs about git's own walk`, (_name, read) => {
    const repo = copyRepo(victim());
    const git = gitWalk(repo);
    const { ms } = timed(() => read(repo));
    console.info(`${what}: first ${_name} ${ms} ms (git rev-list ${git} ms)`);
    expect(ms).toBeLessThan(bound(git));
    // and the next reader reads the record the first one left
    const again = timed(() => readers[0][1](repo));
    expect(again.ms).toBeLessThan(bound(git));
  });
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
