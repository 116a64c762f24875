/**
 * Full disks, no inodes, read-only file systems, on a small tmpfs (we run as
 * root in CI; where mounting is refused the suite skips and says why). Asserted: one line
 * naming the cause, exit 1 (4 for a remote step), nothing of ours left behind (no
 * `tmp_obj_*`, no lock), and the handoff history exactly as it was.
 */
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { execFileSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, fstatSync, ftruncateSync, mkdirSync, openSync, readdirSync, readFileSync, writeSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { TestRepo, isolatedEnv, tempDir } from '../helpers/repo.js';
import { handoff } from '../helpers/cli.js';

const root = tempDir('handoff-disk-');
const mnt = join(root, 'mnt');
mkdirSync(mnt);

function mount(opts: string): string | null {
  const r = spawnSync('mount', ['-t', 'tmpfs', '-o', opts, 'tmpfs', mnt], { encoding: 'utf8' });
  return r.status === 0 ? null : (r.stderr || r.error?.message || `mount exit ${r.status}`).trim().split('\n')[0];
}
function umount(): void {
  spawnSync('umount', ['-l', mnt]);
}

// Can this machine mount a tmpfs at all (root, not in a locked-down container)?
const refused = process.platform !== 'linux' ? 'not Linux' : mount('size=1m');
if (!refused) umount();

/** Fills the file system until it refuses: with data (no space) or with empty files (no inodes). */
function fill(kind: 'space' | 'inodes', leaveBytes = 0): void {
  const dir = join(mnt, 'filler');
  mkdirSync(dir, { recursive: true });
  if (kind === 'space') {
    const fd = openSync(join(dir, 'big'), 'w');
    const chunk = Buffer.alloc(64 * 1024, 1);
    try {
      for (;;) writeSync(fd, chunk);
    } catch {
      // full
    }
    try {
      for (;;) writeSync(fd, chunk.subarray(0, 512));
    } catch {
      // full to the last block
    } finally {
      // room for a lock file or two, not for a pack
      if (leaveBytes) ftruncateSync(fd, Math.max(0, fstatSync(fd).size - leaveBytes));
      closeSync(fd);
    }
  } else {
    try {
      for (let i = 0; ; i++) closeSync(openSync(join(dir, `f${i}`), 'w'));
    } catch {
      // no inode left
    }
  }
}

/** A repository on the tmpfs with one handoff, its history pushed to a bare remote off it. */
function repoOnTmpfs(): { repo: TestRepo; remote: string } {
  const remote = join(root, `remote-${randomBytes(3).toString('hex')}.git`);
  execFileSync('git', ['init', '-q', '--bare', '--initial-branch=main', remote], { env: isolatedEnv() });
  const repo = new TestRepo(join(mnt, 'work'), isolatedEnv());
  execFileSync('git', ['init', '-q', '--initial-branch=main', repo.dir], { env: repo.env });
  repo.commit('init', { 'README.md': 'hello\n' });
  repo.git('remote', 'add', 'origin', remote);
  expect(handoff(repo, ['write', '--summary', 'first']).code).toBe(0);
  return { repo, remote };
}

/** Files of ours (or git's temporaries) that a refused command must not leave. */
function leftovers(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (/^tmp_|^tmp-|\.lock$/.test(e.name)) out.push(p);
    }
  };
  walk(dir);
  return out;
}

function expectOneLine(stderr: string, pattern: RegExp): void {
  const lines = stderr.trim().split('\n');
  expect(lines, stderr).toHaveLength(1);
  expect(lines[0]).toMatch(pattern);
  expect(lines[0]).not.toMatch(/internal error|ENOSPC|EROFS|EACCES/);
}

describe.skipIf(Boolean(refused))(`a full, inode-less or read-only file system${refused ? ` (skipped: cannot mount a tmpfs: ${refused})` : ''}`, () => {
  afterEach(() => umount());
  afterAll(() => umount());

  it('disk full: write says no space is left on the device holding .git, exit 1, no tmp_obj_* left', () => {
    expect(mount('size=2m,nr_inodes=4096')).toBe(null);
    const { repo } = repoOnTmpfs();
    const before = repo.notesRef();
    fill('space');
    const r = handoff(repo, ['write', '--summary', randomBytes(4000).toString('hex')]);
    expect(r.code, r.stderr).toBe(1);
    expectOneLine(r.stderr, new RegExp(`^git handoff: no space left on the device holding ${mnt}/work/\\.git`));
    expect(leftovers(join(repo.dir, '.git'))).toEqual([]);
    expect(repo.notesRef()).toBe(before);
  });

  it('no inodes: write names the inodes, exit 1, nothing left behind', () => {
    expect(mount('size=8m,nr_inodes=400')).toBe(null);
    const { repo } = repoOnTmpfs();
    const before = repo.notesRef();
    fill('inodes');
    const r = handoff(repo, ['write', '--summary', 'no inode for me']);
    expect(r.code, r.stderr).toBe(1);
    expectOneLine(r.stderr, new RegExp(`^git handoff: no free inodes left on the device holding ${mnt}/work/\\.git`));
    expect(leftovers(join(repo.dir, '.git'))).toEqual([]);
    expect(repo.notesRef()).toBe(before);
  });

  it('read-only: write and sync name the read-only file system, exit 1, nothing changed', () => {
    expect(mount('size=4m')).toBe(null);
    const { repo } = repoOnTmpfs();
    const before = repo.notesRef();
    expect(spawnSync('mount', ['-o', 'remount,ro', mnt]).status).toBe(0);
    const w = handoff(repo, ['write', '--summary', 'cannot land']);
    expect(w.code, w.stderr).toBe(1);
    expectOneLine(w.stderr, new RegExp(`^git handoff: read-only file system: cannot write ${mnt}/work/\\.git`));
    const s = handoff(repo, ['sync']);
    expect(s.code, s.stderr).toBe(1);
    expectOneLine(s.stderr, new RegExp(`^git handoff: read-only file system: cannot write ${mnt}/work/\\.git`));
    expect(repo.notesRef()).toBe(before);
  });

  it('disk full during a fetch (a remote step): exit 4, the cause named, no temporary pack or object left', () => {
    expect(mount('size=2m,nr_inodes=4096')).toBe(null);
    const { repo, remote } = repoOnTmpfs();
    // Another clone, off the tmpfs, puts a large history on the remote.
    const other = new TestRepo(join(root, `other-${randomBytes(3).toString('hex')}`), isolatedEnv());
    execFileSync('git', ['clone', '-q', remote, other.dir], { env: other.env, stdio: 'pipe' });
    other.commit('init', { 'README.md': 'other\n' });
    for (let i = 0; i < 3; i++) expect(handoff(other, ['write', '--summary', randomBytes(60_000).toString('base64')]).code).toBe(0);
    expect(handoff(other, ['sync']).code).toBe(0);
    const before = repo.notesRef();
    const reflog = repo.git('reflog', 'show', 'refs/notes/handoff');
    fill('space', 32 * 1024);
    const r = handoff(repo, ['sync']);
    expect(r.code, r.stderr).toBe(4);
    expectOneLine(r.stderr, /^git handoff: cannot fetch from remote 'origin': no space left on the device holding /);
    expect(leftovers(join(repo.dir, '.git'))).toEqual([]);
    expect(repo.notesRef()).toBe(before);
    expect(repo.git('reflog', 'show', 'refs/notes/handoff')).toBe(reflog);
    writeFileSync(join(root, 'done'), '');
  });
  it('disk full: export -o over an existing NEXT_SESSION.md fails in one line and leaves the old file whole', () => {
    expect(mount('size=2m,nr_inodes=4096')).toBe(null);
    const { repo } = repoOnTmpfs();
    expect(handoff(repo, ['write', '--summary', 'x'.repeat(60_000)]).code).toBe(0);
    const target = join(repo.dir, '.tasks/NEXT_SESSION.md');
    mkdirSync(join(repo.dir, '.tasks'));
    writeFileSync(target, '# my own notes, kept until an export replaces them whole\n');
    fill('space');
    const r = handoff(repo, ['export', '-o', '.tasks/NEXT_SESSION.md']);
    expect(r.code, r.stderr).toBe(1);
    expectOneLine(r.stderr, /^git handoff: no space left on the device/);
    expect(readFileSync(target, 'utf8')).toBe('# my own notes, kept until an export replaces them whole\n');
    expect(readdirSync(join(repo.dir, '.tasks'))).toEqual(['NEXT_SESSION.md']);
  });
});
