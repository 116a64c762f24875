/**
 * Versions lost to another writer: a writer that moves refs/notes/handoff without a
 * compare-and-swap (native `git notes add`, whose update does not check the old value; a
 * forced fetch) drops what was written in between. The reflog still names those commits:
 * `doctor` counts them and `--fix` joins them back, rewriting no commit, never bringing back
 * what a purge removed. (The free-running race is in test/slow/doctor-lost-race.test.ts.)
 */
import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { handoff } from '../helpers/cli.js';
import { TestRepo } from '../helpers/repo.js';
import { loggedVersions, writeVersion } from '../helpers/fleet.js';

const reachable = (repo: TestRepo, id: string) => repo.gitRaw(['merge-base', '--is-ancestor', id, 'refs/notes/handoff']).status === 0;

/**
 * What a native `git notes add` racing our write does: it builds its commit on the tip it
 * read (`stale`) and moves the ref to it without checking the old value.
 */
function nativeWriterFrom(repo: TestRepo, stale: string, message: string): void {
  repo.git('update-ref', 'refs/notes/racer', stale);
  repo.git('notes', '--ref=racer', 'add', '-f', '-m', message, 'HEAD');
  repo.git('update-ref', '-m', 'notes: Notes added by git notes add', 'refs/notes/handoff', 'refs/notes/racer');
  repo.git('update-ref', '-d', 'refs/notes/racer');
}

describe('doctor: versions lost to another writer', () => {
  it('a native writer and a forced fetch drop versions: doctor counts them, --fix restores every one with no commit rewritten', () => {
    const repo = TestRepo.init();
    repo.commit('feat: start');
    const written = [writeVersion(repo, 'v1'), writeVersion(repo, 'v2')];
    const stale = repo.notesRef()!;
    // A second clone holds the history as it was now.
    const other = TestRepo.init();
    other.git('fetch', '-q', repo.dir, 'refs/notes/handoff:refs/notes/handoff');

    repo.commit('feat: more');
    written.push(writeVersion(repo, 'v3'), writeVersion(repo, 'v4'));
    nativeWriterFrom(repo, stale, 'a native note');
    const native = repo.notesRef()!; // a version too, and lost with v5 v6 below
    written.push(writeVersion(repo, 'v5'));
    repo.commit('feat: later');
    written.push(writeVersion(repo, 'v6'));
    // A forced fetch of the other clone's (older) history over ours.
    repo.git('fetch', '-q', other.dir, '+refs/notes/handoff:refs/notes/handoff');
    written.push(writeVersion(repo, 'v7'));

    const lost = [...written, native].filter((v) => !reachable(repo, v));
    expect(lost.length).toBe(5); // v3 v4 (native writer), the native one, v5 v6 (forced fetch)
    const loggedBefore = loggedVersions(repo);
    for (const v of lost) expect(loggedBefore).not.toContain(v);
    const before = repo.notesRef()!;
    const shownBefore = handoff(repo, ['show', '--json']).json.version;

    const check = handoff(repo, ['doctor', '--json']);
    expect(check.code, check.stdout).toBe(1);
    const finding = check.json.findings.find((f: any) => f.kind === 'lost');
    expect(finding).toMatchObject({ level: 'fixable', fixable: true, fixed: false });
    expect([...finding.lost].sort()).toEqual([...lost].sort());
    expect(finding.message).toMatch(/^5 versions \(/);
    const text = handoff(repo, ['doctor']);
    expect(text.stdout).toMatch(/^fixable: 5 versions .* are no longer in the history of refs\/notes\/handoff/m);
    expect(repo.notesRef()).toBe(before); // doctor alone writes nothing

    const fix = handoff(repo, ['doctor', '--fix', '--json']);
    expect(fix.code, fix.stdout).toBe(0);
    const fixed = fix.json.findings.find((f: any) => f.kind === 'lost');
    expect(fixed).toMatchObject({ level: 'fixed', fixed: true });
    expect(fixed.lost).toHaveLength(5);
    // Every version a write reported is back, under its own id; nothing was rewritten.
    for (const v of [...written, native]) expect(reachable(repo, v), v).toBe(true);
    expect(repo.gitRaw(['merge-base', '--is-ancestor', before, 'refs/notes/handoff']).status).toBe(0);
    expect(repo.git('log', '-1', '--format=%P%n%B', 'refs/notes/handoff')).toContain('Handoff-Kind: repair');
    const logged = loggedVersions(repo);
    for (const v of written) expect(logged).toContain(v);
    expect(handoff(repo, ['show', '--version', lost[0], '--json']).json.version).toBe(lost[0]);
    // The newest version is still the one shown.
    expect(handoff(repo, ['show', '--json']).json.version).toBe(shownBefore);

    const again = handoff(repo, ['doctor', '--json']);
    expect(again.code, again.stdout).toBe(0);
    expect(again.json.findings.filter((f: any) => f.kind === 'lost')).toEqual([]);
    execFileSync('git', ['fsck', '--no-progress', '--no-dangling'], { cwd: repo.dir, env: repo.env, stdio: 'pipe' });
  });

  it('never brings back what a purge removed, while restoring a version lost since', () => {
    const repo = TestRepo.init();
    repo.commit('feat: start');
    repo.git('config', 'handoff.secrets.allow', 'AKIA');
    writeVersion(repo, 'clean');
    const leaked = writeVersion(repo, 'key AKIAQWERTYUIOPASDFGH');
    writeVersion(repo, 'after the leak');
    repo.git('config', '--unset', 'handoff.secrets.allow');
    const prePurge = repo.notesRef()!;
    expect(handoff(repo, ['purge', leaked]).code).toBe(0);
    const purged = repo.notesRef()!;
    // Someone puts the old history back over the purge, and the purged one back again
    // (a stale clone's forced fetch and its undo): the reflog names the pre-purge commits.
    repo.git('update-ref', 'refs/notes/handoff', prePurge);
    repo.git('update-ref', 'refs/notes/handoff', purged);
    expect(handoff(repo, ['doctor', '--json']).json.findings.filter((f: any) => f.kind === 'lost')).toEqual([]);

    // A version lost after the purge is restored; the purged history stays gone.
    const stale = repo.notesRef()!;
    const kept = writeVersion(repo, 'written after the purge');
    nativeWriterFrom(repo, stale, 'native');
    const fix = handoff(repo, ['doctor', '--fix', '--json']);
    expect(fix.code, fix.stdout).toBe(0);
    expect(fix.json.findings.find((f: any) => f.kind === 'lost').lost).toEqual([kept]);
    expect(reachable(repo, kept)).toBe(true);
    expect(reachable(repo, leaked)).toBe(false);
    expect(repo.git('log', '-p', 'refs/notes/handoff')).not.toContain('AKIAQWERTYUIOPASDFGH');
  });
});
