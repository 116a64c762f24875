/**
 * The one lock (src/state/lock.ts) with real second processes: a holder is recognised by its
 * pid and by when it started, so a lock outlives neither its owner's death nor the reuse of
 * its pid by an unrelated process; where start times cannot be compared, a lock its holder
 * stopped refreshing ages out.
 */
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { buildSync } from 'esbuild';
import { isStaleLock, LOCK_REFRESH_MS, OWNED_STALE_MS, readLockOwner, tryLock, unlock } from '../../src/state/lock.js';
import { processStartToken } from '../../src/process/proc.js';
import { acquireSyncLock, syncLockPath } from '../../src/state/sync-lock.js';
import type { Repo } from '../../src/git/repo.js';

const root = mkdtempSync(join(tmpdir(), 'handoff-lock-start-'));
const children: ChildProcess[] = [];
afterAll(() => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  rmSync(root, { recursive: true, force: true });
});
afterEach(() => {
  vi.useRealTimers();
});
let n = 0;
/** A lock path in a folder of its own, the folder made. */
const lockPath = () => {
  const dir = join(root, `${n++}`);
  mkdirSync(dir);
  return join(dir, 'x.lock');
};
const age = (path: string, ms: number) => utimesSync(path, new Date(Date.now() - ms), new Date(Date.now() - ms));
const linux = process.platform === 'linux';

/** A process that lives until killed (an unrelated process, as far as any lock knows). */
async function sleeper(): Promise<ChildProcess> {
  const c = spawn('sleep', ['60'], { stdio: 'ignore' });
  children.push(c);
  await new Promise((res, rej) => c.once('spawn', res).once('error', rej));
  return c;
}

async function killed(c: ChildProcess): Promise<void> {
  const gone = new Promise((res) => c.once('exit', res));
  c.kill('SIGKILL');
  await gone;
}

/** Field 22 of /proc/PID/stat (start time in clock ticks since boot), read here independently. */
function startTicks(pid: number): string {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
}

/** A second process that takes the lock at `path` with the real tryLock and then holds it. */
let holderScript: string | null = null;
async function holder(path: string): Promise<ChildProcess> {
  if (!holderScript) {
    const entry = join(root, 'holder.ts');
    writeFileSync(
      entry,
      `import { tryLock } from ${JSON.stringify(resolve(__dirname, '../../src/state/lock.ts'))};\n` +
        `process.stdout.write(JSON.stringify(tryLock(process.argv[2])) + '\\n');\nsetInterval(() => {}, 1000);\n`,
    );
    holderScript = join(root, 'holder.cjs');
    buildSync({ entryPoints: [entry], bundle: true, platform: 'node', format: 'cjs', outfile: holderScript, logLevel: 'silent' });
  }
  const c = spawn(process.execPath, [holderScript, path], { stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(c);
  const line = await new Promise<string>((res, rej) => {
    let out = '';
    c.stdout!.on('data', (b) => {
      out += b;
      if (out.includes('\n')) res(out.trim());
    });
    c.once('exit', (code) => rej(new Error(`holder exited ${code} before taking the lock`)));
  });
  expect(JSON.parse(line)).toEqual({ acquired: true });
  return c;
}

describe('a lock recognises its owner by pid and start time', () => {
  it.runIf(linux)('a second process holding it keeps it while it lives; killed, its lock is taken', async () => {
    const p = lockPath();
    const c = await holder(p);
    const owner = readLockOwner(p)!;
    expect(owner).toMatchObject({ pid: c.pid, host: hostname() });
    expect(owner.start).toBe(processStartToken(c.pid!));
    expect(owner.start!.split(':').at(-1)).toBe(startTicks(c.pid!));
    expect(tryLock(p)).toEqual({ acquired: false, owner });
    await killed(c);
    expect(tryLock(p)).toEqual({ acquired: true });
    expect(readLockOwner(p)).toMatchObject({ pid: process.pid, start: processStartToken(process.pid) });
    unlock(p);
  });

  it.runIf(linux)('a live process that started at another time than the owner recorded (its pid reused) does not keep the lock', async () => {
    const c = await sleeper();
    const start = processStartToken(c.pid!)!;
    expect(start).toMatch(/:\d+$/);
    const p = lockPath();
    const lock = (s: string | null) => writeFileSync(p, JSON.stringify({ pid: c.pid, host: hostname(), since: '2026-01-01T00:00:00.000Z', start: s }));
    // recorded as it is: the live owner keeps it, however old
    lock(start);
    age(p, 10 * OWNED_STALE_MS);
    expect(tryLock(p)).toMatchObject({ acquired: false, owner: { pid: c.pid, start } });
    // the same pid, another start: the owner died and the pid went to this process
    const ticks = Number(start.split(':').at(-1));
    lock(start.replace(/\d+$/, String(ticks + 1)));
    expect(tryLock(p)).toEqual({ acquired: true });
    unlock(p);
    lock(`another-boot:${ticks}`);
    expect(tryLock(p)).toEqual({ acquired: true });
    unlock(p);
  });

  it.runIf(linux)('a lock without a start time (written before it was recorded) is judged by its pid alone, as it was', async () => {
    const c = await sleeper();
    const p = lockPath();
    writeFileSync(p, JSON.stringify({ pid: c.pid, host: hostname(), since: '' }));
    age(p, 10 * OWNED_STALE_MS);
    expect(readLockOwner(p)).toEqual({ pid: c.pid, host: hostname(), since: '' });
    expect(tryLock(p)).toMatchObject({ acquired: false, owner: { pid: c.pid } });
    await killed(c);
    expect(tryLock(p)).toEqual({ acquired: true });
    unlock(p);
  });

  it('where start times cannot be compared (no /proc), a lock its holder stopped refreshing is taken after OWNED_STALE_MS', async () => {
    const c = await sleeper();
    const p = lockPath();
    writeFileSync(p, JSON.stringify({ pid: c.pid, host: hostname(), since: '', start: null }));
    expect(readLockOwner(p)?.start).toBeNull();
    age(p, OWNED_STALE_MS - 60_000);
    expect(tryLock(p)).toMatchObject({ acquired: false, owner: { pid: c.pid } });
    age(p, OWNED_STALE_MS + 1000);
    expect(tryLock(p)).toEqual({ acquired: true });
    unlock(p);
  });

  it('the holder refreshes its lock while it holds it, and stops at unlock', () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const p = lockPath();
    expect(tryLock(p)).toEqual({ acquired: true });
    age(p, OWNED_STALE_MS / 2);
    vi.advanceTimersByTime(LOCK_REFRESH_MS);
    expect(Date.now() - statSync(p).mtimeMs).toBeLessThan(LOCK_REFRESH_MS);
    unlock(p);
    expect(vi.getTimerCount()).toBe(0);
  });

  // [what the owner (alive: this process) recorded, the start its pid has now, stale fresh, stale unrefreshed for OWNED_STALE_MS]
  it.each([
    [{ start: 'b:1' }, 'b:2', true, true],
    [{ start: 'b:1' }, 'b:1', false, false],
    [{ start: 'b:1' }, null, false, true],
    [{ start: null }, null, false, true],
    [{}, 'b:2', false, false],
  ])('rule: a live owner recording %j, its pid started %j now: stale %s, unrefreshed %s', (rec, now, fresh, unrefreshed) => {
    const owner = { pid: process.pid, host: hostname(), since: '', ...rec };
    expect(isStaleLock({ owner, ageMs: 0, heldBy: null, ownerStart: now })).toBe(fresh);
    expect(isStaleLock({ owner, ageMs: OWNED_STALE_MS, heldBy: null, ownerStart: now })).toBe(unrefreshed);
  });
});

describe('the sync lock', () => {
  it.runIf(linux)('is taken from a lock whose pid a live unrelated process now has', async () => {
    const c = await sleeper();
    const repo = { paths: { commonDir: join(root, `repo-${n++}`) } } as unknown as Repo;
    const p = syncLockPath(repo);
    tryLock(p);
    unlock(p);
    writeFileSync(p, JSON.stringify({ pid: c.pid, host: hostname(), since: '', start: 'boot:1' }));
    const waited: (number | null)[] = [];
    const lock = await acquireSyncLock(repo, Date.now() + 2000, (pid) => waited.push(pid));
    expect(waited).toEqual([]);
    expect(readLockOwner(p)?.pid).toBe(process.pid);
    lock.release();
    expect(readLockOwner(p)).toBeNull();
  });
});
