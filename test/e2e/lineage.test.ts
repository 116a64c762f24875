/**
 * Issue 22: "latest" is one answer. A plain rebase copies every note in one native notes
 * commit; the version read from it must not be whichever target sorts first in hex. And
 * patch writes racing in one work tree must each land on the head they continue.
 */
import { describe, expect, it } from 'vitest';
import { handoff, handoffAsync } from '../helpers/cli.js';
import { expectAllSay, installedRepo, rebasedBranch } from '../helpers/lineage-scenarios.js';

describe('a rebase keeps the newest handoff the latest', () => {
  // One run here (the slow suite, test/slow/lineage-rebase.test.ts, runs 2-, 3- and
  // 5-commit branches with many seeds, so that the copied targets sort every which way).
  it('a 3-commit branch rebased onto main: every reader names the last handoff written', () => {
    const repo = installedRepo();
    const { last, summary, note } = rebasedBranch(repo, 3, 2);
    expectAllSay(repo, last, summary);
    const show = handoff(repo, ['show', '--json']).json;
    expect(show.due, 'no handoff is due right after the rebase').toBe(false);
    expect(show.target).toBe(repo.head());
    // The next write builds on the newest version: the user's note survives.
    const w = handoff(repo, ['write', '--json', '--summary', 'after the rebase']);
    expect(w.code, w.stderr).toBe(0);
    expect(w.json.handoff.soft_context.notes).toContain(note);
    repo.fsck();
  });
});

describe('parallel patch writes', () => {
  it('eight --add-note writes at once in one work tree keep all eight notes', async () => {
    const repo = installedRepo();
    expect(handoff(repo, ['write', '--summary', 'base']).code).toBe(0);
    const runs = await Promise.all(Array.from({ length: 8 }, (_, i) => handoffAsync(repo, ['write', '--add-note', `parallel ${i}`])));
    for (const r of runs) expect(r.code, r.stderr).toBe(0);
    const show = handoff(repo, ['show', '--json']).json;
    const notes: string[] = show.handoff.soft_context.notes;
    for (let i = 0; i < 8; i++) expect(notes, `note ${i}`).toContain(`parallel ${i}`);
    expect(show.diverged ?? false).toBe(false);
  });
});
