/**
 * Amend and purge: a version moved by a rewrite says so; a purge's dry run
 * names the ids the real run makes; the reflog agrees with the ref; after a purge `show`
 * is the newest version that was not purged. Packed CLI, real git.
 */
import { describe, expect, it } from 'vitest';
import { TestRepo } from '../helpers/repo.js';
import { handoff } from '../helpers/cli.js';

describe('a version moved by a rewrite', () => {
  it('show and diff say it was moved, and from which commit', () => {
    const repo = TestRepo.init();
    repo.commit('feat: start', { 'a.txt': 'a\n' });
    // git's copy on amend moves a version and makes none: diff compares it with the one before
    expect(handoff(repo, ['write', '--summary', 'parser started']).code).toBe(0);
    const before = repo.commit('feat: parser', { 'b.txt': 'b\n' });
    expect(handoff(repo, ['write', '--summary', 'parser done']).code).toBe(0);
    // what `init` configures: git itself carries the note to the amended commit
    repo.git('config', 'notes.rewriteRef', 'refs/notes/handoff');
    repo.git('config', 'notes.rewriteMode', 'overwrite');
    repo.git('commit', '-q', '--amend', '-m', 'feat: parser, amended');
    const after = repo.head();
    expect(repo.nativeNote()).toContain('summary: parser done');

    const s = handoff(repo, ['show']);
    expect(s.code).toBe(0);
    expect(s.stdout).toContain(`at ${after.slice(0, 7)}`);
    expect(s.stdout).toContain(`moved by a rewrite: this handoff was written at commit ${before.slice(0, 7)} and now sits on ${after.slice(0, 7)}`);

    const d = handoff(repo, ['diff']);
    expect(d.code).toBe(0);
    expect(d.stdout).not.toContain('(no changes)\n');
    expect(d.stdout).toMatch(new RegExp(`version [0-9a-f]{12} was moved from commit ${before.slice(0, 7)} to ${after.slice(0, 7)} by a rewrite`));
    expect(d.stdout).toContain('parser done');
    const j = handoff(repo, ['diff', '--json']);
    expect(j.json.moved).toEqual([{ version: j.json.new, from: before, to: after }]);
  });
});

describe('purge', () => {
  it('the dry run names the ids the real run makes; the reflog agrees with the ref; show is the newest version not purged', () => {
    const repo = TestRepo.init();
    repo.commit('feat: start', { 'a.txt': 'a\n' });
    for (const s of ['one', 'two', 'three: leaked']) expect(handoff(repo, ['write', '--summary', s]).code).toBe(0);
    const dry = handoff(repo, ['purge', '~0', '--dry-run', '--json']);
    expect(dry.code, dry.stderr).toBe(0);
    expect(repo.notesRef()).toBe(dry.json.tip.before);
    const real = handoff(repo, ['purge', '~0', '--json']);
    expect(real.code, real.stderr).toBe(0);
    expect(real.json.tip).toEqual(dry.json.tip);
    expect(real.json.purged).toEqual(dry.json.purged);
    expect(repo.notesRef()).toBe(real.json.tip.after);

    const newest = repo.git('reflog', 'show', '-n', '1', '--format=%H', 'refs/notes/handoff').trim();
    expect(newest).toBe(repo.notesRef());
    expect(repo.git('reflog', 'show', '-n', '1', '--format=%gs', 'refs/notes/handoff').trim()).toMatch(/^handoff: purge /);

    const s = handoff(repo, ['show', '--json']);
    expect(s.json.handoff.summary).toBe('two');
    expect(handoff(repo, ['show']).stdout).not.toContain('purged');
    // and a flags-only write carries that version forward, not the tombstone
    const w = handoff(repo, ['write', '--json', '--next-step', 'rotate the key']);
    expect(w.json.handoff.summary).toBe('two');
    expect(w.json.handoff.purged).toBeUndefined();
    repo.fsck();
  });
});
