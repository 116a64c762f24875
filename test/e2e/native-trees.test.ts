/**
 * Trees native git makes, through our writes and reads: an entry whose name is not UTF-8,
 * a note stored twice (at the root and under its fan-out folder).
 */
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { TestRepo } from '../helpers/repo.js';
import { handoff } from '../helpers/cli.js';

/** `git ls-tree -z` of `tree`, as raw entries (names are bytes). */
function lsTree(repo: TestRepo, tree: string): Buffer[] {
  const r = spawnSync('git', ['ls-tree', '-z', tree], { cwd: repo.dir, env: repo.env });
  expect(r.status, r.stderr?.toString()).toBe(0);
  const out: Buffer[] = [];
  let at = 0;
  for (let nul = r.stdout.indexOf(0); nul >= 0; nul = r.stdout.indexOf(0, at)) {
    out.push(r.stdout.subarray(at, nul));
    at = nul + 1;
  }
  return out;
}

/** A commit on refs/notes/handoff whose tree is `entries` (raw `git mktree -z` lines), made by native git. */
function nativeNotesCommit(repo: TestRepo, entries: Buffer[], message: string): string {
  const tree = spawnSync('git', ['mktree', '-z'], {
    cwd: repo.dir,
    env: repo.env,
    input: Buffer.concat(entries.map((e) => Buffer.concat([e, Buffer.from([0])]))),
  });
  expect(tree.status, tree.stderr?.toString()).toBe(0);
  const tip = repo.notesRef();
  const commit = repo.git('commit-tree', ...(tip ? ['-p', tip] : []), '-m', message, tree.stdout.toString().trim()).trim();
  repo.git('update-ref', 'refs/notes/handoff', commit);
  return commit;
}

describe('trees native git makes', () => {
  it('an entry whose name is not UTF-8 (caf\\xe9.txt) survives our write byte for byte', () => {
    const repo = TestRepo.init();
    repo.commit('feat: start', { 'a.txt': '1\n' });
    expect(handoff(repo, ['write', '--summary', 'first']).code).toBe(0);
    const blob = repo.gitRaw(['hash-object', '-w', '--stdin'], { input: 'kept by a native tool\n' }).stdout.trim();
    const name = Buffer.from('caf\xe9.txt', 'latin1');
    const line = Buffer.concat([Buffer.from(`100644 blob ${blob}\t`), name]);
    nativeNotesCommit(repo, [...lsTree(repo, 'refs/notes/handoff'), line], 'a native tool keeps a file here');
    repo.commit('feat: more', { 'b.txt': '2\n' });

    const w = handoff(repo, ['write', '--summary', 'second']);
    expect(w.code, w.stderr).toBe(0);
    expect(lsTree(repo, 'refs/notes/handoff').filter((e) => e.includes(name))).toEqual([line]);
    expect(lsTree(repo, 'refs/notes/handoff').filter((e) => e.includes(Buffer.from('caf\xef\xbf\xbd', 'latin1')))).toEqual([]);
    repo.fsck();
  });

  it('a note stored twice (at the root and under its fan-out folder): show and doctor say so, doctor --fix keeps the one shown', () => {
    const repo = TestRepo.init();
    const c = repo.commit('feat: start', { 'a.txt': '1\n' });
    expect(handoff(repo, ['write', '--summary', 'the one at the root']).code).toBe(0);
    const rootNote = repo.nativeNote(c);
    const other = repo.gitRaw(['hash-object', '-w', '--stdin'], { input: 'summary: a copy an older writer left\n' }).stdout.trim();
    const sub = spawnSync('git', ['mktree', '-z'], { cwd: repo.dir, env: repo.env, input: Buffer.from(`100644 blob ${other}\t${c.slice(2)}\0`) });
    const fanout = Buffer.from(`040000 tree ${sub.stdout.toString().trim()}\t${c.slice(0, 2)}`);
    nativeNotesCommit(repo, [...lsTree(repo, 'refs/notes/handoff'), fanout], 'a merge left a second copy');
    const native = repo.nativeNote(c)!;
    expect(native).toContain('the one at the root');
    expect(native).toContain('a copy an older writer left');

    const line = `the note of ${c.slice(0, 7)} is stored twice in refs/notes/handoff (at the root and under ${c.slice(0, 2)}/)`;
    const show = handoff(repo, ['show']);
    expect(show.code, show.stderr).toBe(0);
    expect(show.stdout).toContain(line);
    expect(show.stdout).toContain('the one at the root');

    const doctor = handoff(repo, ['doctor', '--json']);
    const finding = doctor.json.findings.find((f: any) => f.kind === 'copies');
    expect(finding, doctor.stdout).toMatchObject({ subject: c, fixable: true, fixed: false });
    expect(finding.message).toContain(line);
    expect(doctor.json.healthy).toBe(false);

    const fix = handoff(repo, ['doctor', '--fix', '--json']);
    expect(fix.json.findings.find((f: any) => f.kind === 'copies')).toMatchObject({ subject: c, fixed: true });
    expect(repo.nativeNote(c)).toBe(rootNote);
    const after = handoff(repo, ['show']);
    expect(after.stdout).not.toContain('is stored twice');
    expect(after.stdout).toContain('the one at the root');
    expect(handoff(repo, ['doctor', '--json']).json.findings.filter((f: any) => f.kind === 'copies')).toEqual([]);
    repo.fsck();
  });
});
