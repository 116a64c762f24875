import { afterAll, describe, expect, it } from 'vitest';
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { isStaleLock, lockFacts, OWNERLESS_STALE_MS, readLockOwner, tryLock, unlock } from '../../src/state/lock.js';

const root = mkdtempSync(join(tmpdir(), 'handoff-lock-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
const lockPath = () => join(root, `${n++}`, 'x.lock');
const deadPid = () => spawnSync('true').pid as number; // exited by the time spawnSync returns
const age = (path: string, ms: number) => utimesSync(path, new Date(Date.now() - ms), new Date(Date.now() - ms));

// The relay store's lock (owner named, 30 s grace for an unreadable one) and the ref locks'
// rule (5 s plus an open-file scan) became one: an owner named is trusted by its pid on this
// host; an ownerless file is stale after 5 s when nobody has it open.
describe('the one lock', () => {
  it('is taken once, names its owner, and is released only by its owner', () => {
    const p = lockPath();
    expect(tryLock(p)).toEqual({ acquired: true });
    expect(readLockOwner(p)).toMatchObject({ pid: process.pid, host: hostname() });
    expect(tryLock(p)).toEqual({ acquired: false, owner: expect.objectContaining({ pid: process.pid }) });
    unlock(p);
    expect(existsSync(p)).toBe(false);
    writeFileSync(p, JSON.stringify({ pid: 1, host: hostname(), since: '' }));
    unlock(p); // not ours
    expect(existsSync(p)).toBe(true);
  });

  it('takes over a lock whose owner on this host is gone, however young', () => {
    const p = lockPath();
    tryLock(p);
    writeFileSync(p, JSON.stringify({ pid: deadPid(), host: hostname(), since: '2026-01-01T00:00:00Z' }));
    expect(tryLock(p)).toEqual({ acquired: true });
    expect(readLockOwner(p)?.pid).toBe(process.pid);
  });

  it('never takes a lock of another host, nor one of a live owner, however old', () => {
    const p = lockPath();
    tryLock(p);
    writeFileSync(p, JSON.stringify({ pid: deadPid(), host: `not-${hostname()}`, since: '' }));
    age(p, 3600_000);
    expect(tryLock(p)).toMatchObject({ acquired: false, owner: { host: `not-${hostname()}` } });
    writeFileSync(p, JSON.stringify({ pid: process.ppid, host: hostname(), since: '' }));
    age(p, 3600_000);
    expect(tryLock(p)).toMatchObject({ acquired: false, owner: { pid: process.ppid } });
  });

  it('reads the `<pid> <token>` line older sync locks hold as an owner on this host', () => {
    const p = lockPath();
    tryLock(p);
    const dead = deadPid();
    writeFileSync(p, `${dead} 0-killed\n`);
    expect(readLockOwner(p)).toEqual({ pid: dead, host: hostname(), since: '' });
    expect(tryLock(p)).toEqual({ acquired: true });
  });

  it('leaves an ownerless lock younger than the grace, or one a process has open; takes it otherwise', () => {
    const p = lockPath();
    tryLock(p);
    writeFileSync(p, '');
    expect(tryLock(p)).toEqual({ acquired: false, owner: null });
    age(p, OWNERLESS_STALE_MS + 1000);
    const fd = openSync(p, 'r');
    try {
      if (process.platform === 'linux') expect(tryLock(p)).toEqual({ acquired: false, owner: null });
    } finally {
      closeSync(fd);
    }
    expect(tryLock(p)).toEqual({ acquired: true });
    expect(JSON.parse(readFileSync(p, 'utf8')).pid).toBe(process.pid);
  });

  it.each([
    [{ owner: null, ageMs: OWNERLESS_STALE_MS - 1, heldBy: null }, false],
    [{ owner: null, ageMs: OWNERLESS_STALE_MS, heldBy: null }, true],
    [{ owner: null, ageMs: 10 * OWNERLESS_STALE_MS, heldBy: 4242 }, false],
    [{ owner: { pid: process.pid, host: hostname(), since: '' }, ageMs: 1e9, heldBy: null }, false],
  ])('rule: %j is stale: %s', (facts, want) => {
    expect(isStaleLock(facts)).toBe(want);
  });

  it('has no facts for a lock that is gone', () => {
    expect(lockFacts(join(root, 'none.lock'))).toBeNull();
  });
});
