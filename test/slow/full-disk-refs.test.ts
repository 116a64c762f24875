/**
 * A full disk met by `git update-ref` (the compare-and-swap of every write): git says only
 * "couldn't write '<ref>.lock'" (or "Unable to create '<ref>.lock': No space left on
 * device" when no inode is left), which used to come out as `internal error` (exit 3) or as
 * another writer's lock. Asserted: one line naming the full disk, exit 1, on a small tmpfs
 * (we run as root in CI; where mounting is refused the suite skips and says why).
 */
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { execFileSync, spawnSync } from 'node:child_process';
import { closeSync, mkdirSync, openSync, rmSync, statfsSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { TestRepo, isolatedEnv, tempDir } from '../helpers/repo.js';
import { handoff } from '../helpers/cli.js';
import { Repo } from '../../src/git/repo.js';
import { FileSystemRefused } from '../../src/errors.js';

const root = tempDir('handoff-full-refs-');
const mnt = join(root, 'mnt');
mkdirSync(mnt);
const mount = (opts: string) => {
  const r = spawnSync('mount', ['-t', 'tmpfs', '-o', opts, 'tmpfs', mnt], { encoding: 'utf8' });
  return r.status === 0 ? null : (r.stderr || r.error?.message || `mount exit ${r.status}`).trim().split('\n')[0];
};
const umount = () => spawnSync('umount', ['-l', mnt]);
const refused = process.platform !== 'linux' ? 'not Linux' : mount('size=1m');
if (!refused) umount();

/** Fills the file system, leaving `leave` bytes free (data), or no inode (files). */
function fill(kind: 'space' | 'inodes', leave = 0): void {
  const dir = join(mnt, 'filler');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir);
  if (kind === 'inodes') {
    try {
      for (let i = 0; ; i++) closeSync(openSync(join(dir, `f${i}`), 'w'));
    } catch {
      return;
    }
  }
  const free = statfsSync(mnt).bavail * statfsSync(mnt).bsize - leave;
  const fd = openSync(join(dir, 'big'), 'w');
  try {
    const chunk = Buffer.alloc(4096, 1);
    for (let n = 0; n + 4096 <= free; n += 4096) writeSync(fd, chunk);
  } catch {
    // full
  } finally {
    closeSync(fd);
  }
}

function repoOnTmpfs(): TestRepo {
  const repo = new TestRepo(join(mnt, 'work'), isolatedEnv());
  execFileSync('git', ['init', '-q', '--initial-branch=main', repo.dir], { env: repo.env });
  repo.commit('init', { 'README.md': 'hello\n' });
  expect(handoff(repo, ['write', '--summary', 'first']).code).toBe(0);
  return repo;
}

describe.skipIf(Boolean(refused))(`git update-ref on a full disk${refused ? ` (skipped: cannot mount a tmpfs: ${refused})` : ''}`, () => {
  afterEach(() => umount());
  afterAll(() => umount());

  it('the compare-and-swap names the full disk (no space, then no inode), not an internal error or a lock', async () => {
    expect(mount('size=2m,nr_inodes=2000')).toBe(null);
    const t = repoOnTmpfs();
    const before = t.notesRef()!;
    const next = t.git('commit-tree', '-p', before, '-m', 'next', `${before}^{tree}`).trim();
    const repo = await Repo.discover(t.dir);
    try {
      fill('space');
      let e: unknown = await repo.casUpdateRef('refs/notes/handoff', next, before, 'handoff: test').catch((x) => x);
      expect(e).toBeInstanceOf(FileSystemRefused);
      expect((e as Error).message).toBe(`no space left on the device holding ${t.dir}/.git/refs/notes/handoff.lock`);
      rmSync(join(mnt, 'filler'), { recursive: true, force: true });
      fill('inodes');
      e = await repo.casUpdateRef('refs/notes/handoff', next, before, 'handoff: test').catch((x) => x);
      expect(e).toBeInstanceOf(FileSystemRefused);
      expect((e as Error).message).toMatch(new RegExp(`^no free inodes left on the device holding ${t.dir}/\\.git/refs/notes/handoff\\.lock`));
    } finally {
      repo.close();
    }
    expect(t.notesRef()).toBe(before);
  });

  it('write with a little room left, at each step where the room runs out: exit 0, or exit 1 naming the full disk; never exit 3 or a lock', () => {
    expect(mount('size=2m,nr_inodes=4000')).toBe(null);
    const repo = repoOnTmpfs();
    const outcomes: string[] = [];
    for (let pages = 0; pages <= 10; pages++) {
      fill('space', pages * 4096);
      const before = repo.notesRef();
      const r = handoff(repo, ['write', '--summary', `room for ${pages} pages`]);
      outcomes.push(`${pages}: exit ${r.code}`);
      if (r.code === 0) continue;
      const lines = r.stderr.trim().split('\n');
      expect(lines, r.stderr).toHaveLength(1);
      expect(lines[0]).toMatch(/^git handoff: no space left on the device holding /);
      expect(r.code).toBe(1);
      expect(repo.notesRef()).toBe(before);
    }
    // the sweep met the wall at least once, and got through once there was room
    expect(outcomes.some((o) => o.endsWith('exit 1'))).toBe(true);
    expect(
      outcomes.some((o) => o.endsWith('exit 0')),
      outcomes.join(', '),
    ).toBe(true);
  });
});
