import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { existsSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { handoff } from '../helpers/cli.js';
import { Fleet, FleetRepo, expectEverywhere, loggedVersions, sync, writeVersion } from '../helpers/fleet.js';
import { TestRepo } from '../helpers/repo.js';

/** What a hosting server does with a branch, in a scratch clone of its own: no notes are rewritten. */
function serverMerge(fleet: Fleet, branch: string, how: 'squash' | 'rebase'): void {
  const dir = join(fleet.root, `server-${branch}`);
  execFileSync('git', ['clone', '-q', fleet.remote.dir, dir], { env: fleet.remote.env, stdio: 'pipe' });
  const srv = new FleetRepo(dir, fleet.remote.env, fleet, 'server');
  if (how === 'squash') {
    srv.git('checkout', '-q', 'main');
    srv.git('merge', '-q', '--squash', `origin/${branch}`);
    srv.git('commit', '-q', '-m', `${branch} (#1)`);
  } else {
    srv.git('checkout', '-q', '-b', 'work', `origin/${branch}`);
    srv.git('rebase', '-q', 'origin/main');
  }
  srv.git('push', '-q', 'origin', 'HEAD:main', `:${branch}`);
}

/** A clone forgets the branch entirely: fetch --prune, delete it, expire reflogs, gc. */
function forget(repo: FleetRepo, branches: string[]): void {
  repo.git('checkout', '-q', 'main');
  repo.git('pull', '-q', '--prune', 'origin', 'main');
  repo.git('fetch', '-q', '--prune', 'origin');
  for (const b of branches) repo.gitRaw(['branch', '-q', '-D', b]);
  repo.git('reflog', 'expire', '--expire=now', '--all');
  repo.git('gc', '-q', '--prune=now');
}

describe('doctor: notes orphaned by server-side merges', () => {
  it('re-attaches by tree (squash merge) and patch id (rebase merge); every version stays everywhere', () => {
    const fleet = new Fleet(2);
    const [a, b] = fleet.clones;
    a.git('checkout', '-q', '-b', 'feat1');
    const f1a = a.commit('feat: x', { 'x.txt': 'x\n' });
    const v1 = writeVersion(a, 'feat1 first step');
    const f1b = a.commit('feat: y', { 'y.txt': 'y\n' });
    const v2 = writeVersion(a, 'feat1 done');
    a.git('push', '-q', 'origin', 'feat1');
    a.git('checkout', '-q', 'main');
    a.git('checkout', '-q', '-b', 'feat2');
    const f2a = a.commit('feat: z', { 'z.txt': 'z\n' });
    const v3 = writeVersion(a, 'feat2 first step');
    const f2b = a.commit('feat: w', { 'w.txt': 'w\n' });
    const v4 = writeVersion(a, 'feat2 done');
    a.git('push', '-q', 'origin', 'feat2');
    sync(a);
    sync(b);

    serverMerge(fleet, 'feat1', 'squash'); // main had not moved: the squash has feat1's tree
    serverMerge(fleet, 'feat2', 'rebase'); // main moved: new commits, same patches
    forget(a, ['feat1', 'feat2']);
    forget(b, []);
    for (const gone of [f1a, f1b, f2a, f2b]) expect(a.gitRaw(['cat-file', '-e', gone]).status).not.toBe(0);

    // show and log never depend on a target still existing.
    for (const r of fleet.clones) {
      expect(loggedVersions(r)).toEqual([v4, v3, v2, v1]);
      expect(handoff(r, ['show']).code).toBe(0);
    }

    const squash = a.git('rev-parse', 'main~2').trim();
    const [rebasedA, rebasedB] = [a.git('rev-parse', 'main~1').trim(), a.git('rev-parse', 'main').trim()];
    const check = handoff(a, ['doctor', '--json']);
    expect(check.code).toBe(1);
    const byTarget = Object.fromEntries(check.json.findings.map((f: any) => [f.subject, f]));
    expect(byTarget[f1a]).toMatchObject({ kind: 'orphan', fixable: false, fixed: false });
    expect(byTarget[f1b]).toMatchObject({ fixable: true, fixed: false, to: squash });
    expect(byTarget[f2a]).toMatchObject({ fixable: true, to: rebasedA });
    expect(byTarget[f2b]).toMatchObject({ fixable: true, to: rebasedB });
    expect(byTarget[f1b].message).toContain('same tree');
    expect(byTarget[f2a].message).toContain('same patch-id');

    // Both clones fix independently; their syncs agree without a conflict.
    const fixA = handoff(a, ['doctor', '--fix', '--json']);
    const fixB = handoff(b, ['doctor', '--fix']);
    expect(fixA.code, fixA.stderr).toBe(0);
    expect(fixB.code, fixB.stderr).toBe(0);
    expect(fixB.stdout).toMatch(/^note: the note of [0-9a-f]{7} \(commit gone\) cannot be re-attached/m);
    const reattached = fixA.json.findings.filter((f: any) => f.fixed).map((f: any) => f.version);
    expect(reattached).toHaveLength(3);
    sync(a);
    expect(sync(b).conflicts).toEqual([]);
    sync(a);

    for (const r of fleet.all()) {
      expect(r.nativeNote(squash)).toContain('summary: feat1 done');
      expect(r.nativeNote(rebasedA)).toContain('summary: feat2 first step');
      expect(r.nativeNote(rebasedB)).toContain('summary: feat2 done');
    }
    const again = handoff(b, ['doctor', '--json']);
    expect(again.code).toBe(0);
    expect(again.json.findings.filter((f: any) => f.fixable)).toEqual([]);
    expectEverywhere(fleet, [v1, v2, v3, v4, ...reattached]);
    const show = handoff(b, ['show', '--json']);
    expect(show.json).toMatchObject({ target: rebasedB, due: false });
  });
});

describe('doctor: a stale lock left by a killed writer', () => {
  it('names the lock on write, and --fix removes it only once no writer can hold it', () => {
    const repo = TestRepo.init();
    repo.commit('feat: start');
    writeVersion(repo, 'before the crash');
    const lock = join(repo.dir, '.git', 'refs', 'notes', 'handoff.lock');
    writeFileSync(lock, '');

    const fresh = handoff(repo, ['doctor', '--fix', '--json']);
    expect(fresh.json.findings).toEqual([expect.objectContaining({ kind: 'lock', subject: lock, fixable: false, fixed: false })]);
    expect(existsSync(lock)).toBe(true);

    const blocked = handoff(repo, ['write', '--summary', 'after the crash']);
    expect(blocked.code).toBe(1);
    expect(blocked.stderr).toContain(lock);
    expect(blocked.stderr).toContain('git handoff doctor --fix');
    // purge is a writer too: the same one line, exit 1, nothing rewritten.
    const tip = repo.notesRef();
    const purge = handoff(repo, ['purge', tip!]);
    expect(purge.code).toBe(1);
    expect(purge.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(/^git handoff: refs\/notes\/handoff is locked by .*handoff\.lock.*git handoff doctor --fix'$/),
    ]);
    expect(repo.notesRef()).toBe(tip);

    const old = Date.now() / 1000 - 60;
    utimesSync(lock, old, old);
    const found = handoff(repo, ['doctor']);
    expect(found.code).toBe(1);
    expect(found.stdout).toMatch(/^fixable: stale lock .*handoff\.lock \(\d+s old\)/m);
    expect(found.stdout).toContain("run 'git handoff doctor --fix'");
    const fixed = handoff(repo, ['doctor', '--fix']);
    expect(fixed.code).toBe(0);
    expect(existsSync(lock)).toBe(false);
    writeVersion(repo, 'after the crash');
    expect(handoff(repo, ['doctor']).stdout).toBe('healthy: nothing needs fixing\n');
    repo.fsck();
  });
});

describe('doctor: a note on a commit this clone has not fetched yet', () => {
  /** a's branch `feat` with one commit, pushed and fetched by b; then main moves and a rebases the branch onto it. */
  function rebasedElsewhere(newName?: string) {
    const fleet = new Fleet(2);
    const [a, b] = fleet.clones;
    a.git('checkout', '-q', '-b', 'feat');
    const stale = a.commit('feat: x', { 'x.txt': 'x\n' });
    a.git('push', '-q', 'origin', 'feat');
    b.git('fetch', '-q', 'origin');
    a.git('checkout', '-q', 'main');
    a.commit('feat: main moves', { 'm.txt': 'm\n' });
    a.git('push', '-q', 'origin', 'main');
    if (newName) a.git('checkout', '-q', '-b', newName, 'feat');
    else a.git('checkout', '-q', 'feat');
    a.git('rebase', '-q', 'main');
    const rebased = a.head();
    a.git('push', '-q', '--force', 'origin', `HEAD:refs/heads/${newName ?? 'feat'}`);
    writeVersion(a, 'feat after the rebase');
    sync(a);
    sync(b); // the notes only: b still has the branch as it was
    expect(b.gitRaw(['cat-file', '-e', rebased]).status).not.toBe(0);
    return { a, b, stale, rebased };
  }

  it('says so and leaves it alone while its branch is still known here; a fetch settles it', () => {
    const { b, stale, rebased } = rebasedElsewhere();
    const tip = b.notesRef();
    const fix = handoff(b, ['doctor', '--fix', '--json']);
    expect(fix.code, fix.stderr).toBe(0);
    expect(fix.json.findings).toEqual([expect.objectContaining({ kind: 'orphan', subject: rebased, fixable: false, fixed: false })]);
    expect(fix.json.findings[0].message).toContain('not in this clone (fetch first?)');
    expect(fix.json.findings[0].message).toContain('refs/remotes/origin/feat');
    expect(b.notesRef()).toBe(tip);
    expect(b.nativeNote(stale)).toBeNull();
    const text = handoff(b, ['doctor']);
    expect(text.stdout).toMatch(/^note: the note of [0-9a-f]{7} is on a commit not in this clone \(fetch first\?\).*\(run .git fetch/m);
    expect(text.stdout).not.toContain('commit gone');

    // Asked explicitly, it would take the stale copy with the same patch (only shown here).
    const asked = handoff(b, ['doctor', '--reattach-missing', '--json']);
    expect(asked.json.findings[0]).toMatchObject({ subject: rebased, fixable: true, fixed: false, to: stale });
    expect(b.notesRef()).toBe(tip);

    b.git('fetch', '-q', 'origin');
    expect(handoff(b, ['doctor']).stdout).toBe('healthy: nothing needs fixing\n');
    expect(b.nativeNote(rebased)).toContain('summary: feat after the rebase');
    b.fsck();
  });

  it('a branch known nowhere here: only a commit made after the note may take it, never an older copy', () => {
    const { b, stale, rebased } = rebasedElsewhere('feat-v2');
    const tip = b.notesRef();
    const fix = handoff(b, ['doctor', '--fix', '--json']);
    expect(fix.code, fix.stderr).toBe(0);
    expect(fix.json.findings).toEqual([expect.objectContaining({ kind: 'orphan', subject: rebased, fixable: false, fixed: false })]);
    expect(fix.json.findings[0].message).toContain('only commits older than the note have the same patch id or tree');
    expect(b.notesRef()).toBe(tip);
    expect(b.nativeNote(stale)).toBeNull();
  });
});
