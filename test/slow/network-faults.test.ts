/**
 * Bad networks: a real `git daemon` on 127.0.0.1 behind a fault-injecting proxy
 * (black hole, reset, drop, truncation, delay), a stale lock on the remote, two syncs in one
 * clone. Asserted: no command runs past its budget, every failure is one line and exit 4
 * with the local history untouched, and a re-run over a working path completes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, rmSync, writeFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { TestRepo, isolatedEnv, tempDir } from '../helpers/repo.js';
import { cliPath, handoff } from '../helpers/cli.js';
import { run, startFaultProxy, startGitDaemon, type FaultMode, type Server } from '../helpers/servers.js';

const SYNC_BUDGET_S = 6;
const STALL_S = 3;
const HOOK_BUDGET_S = 3;
/** Slack over a budget for process start-up and SIGTERM grace on a loaded 2-core machine. */
const SLACK_MS = 6000;

let root: string;
let daemon: Server;
const stops: (() => Promise<void>)[] = [];

function seedRemote(name: string): string {
  const bare = join(root, 'srv', name);
  execFileSync('git', ['init', '-q', '--bare', '--initial-branch=main', bare], { env: isolatedEnv() });
  const seed = new TestRepo(join(root, `seed-${name}`), isolatedEnv());
  execFileSync('git', ['init', '-q', '--initial-branch=main', seed.dir], { env: seed.env });
  seed.commit('init', { 'README.md': 'hello\n' });
  seed.git('push', '-q', bare, 'main');
  return bare;
}

function cloneOf(url: string, name: string): TestRepo {
  const dir = join(root, name);
  execFileSync('git', ['clone', '-q', url, dir], { env: isolatedEnv(), stdio: 'pipe' });
  const repo = new TestRepo(dir, isolatedEnv());
  repo.git('config', 'handoff.sync.timeout', String(SYNC_BUDGET_S));
  repo.git('config', 'handoff.sync.stallTimeout', String(STALL_S));
  repo.git('config', 'handoff.sync.hookTimeout', String(HOOK_BUDGET_S));
  return repo;
}

async function proxied(mode: FaultMode): Promise<number> {
  const p = await startFaultProxy(daemon.port, mode);
  stops.push(p.stop);
  return p.port;
}

/** The one error line of a failed command (progress lines aside), asserted to be the only one. */
function oneErrorLine(stderr: string): string {
  const lines = stderr.split('\n').filter((l) => l.trim() && !/^(fetching the handoff history|pushing to|merging|waiting for another sync|reading )/.test(l));
  expect(lines, stderr).toHaveLength(1);
  return lines[0];
}

function remoteTip(bare: string): string | null {
  try {
    return execFileSync('git', ['-C', bare, 'rev-parse', '-q', '--verify', 'refs/notes/handoff'], { env: isolatedEnv(), encoding: 'utf8' }).trim();
  } catch {
    return null;
  }
}

function leftovers(repo: TestRepo): string[] {
  const found: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (/^tmp_|\.lock$|^sync\.lock$/.test(e.name)) found.push(p);
    }
  };
  walk(repo.gitDir());
  return found;
}

beforeAll(async () => {
  root = tempDir('handoff-net-');
  mkdirSync(join(root, 'srv'));
  daemon = await startGitDaemon(join(root, 'srv'), isolatedEnv());
});

afterAll(async () => {
  for (const s of stops.splice(0)) await s();
  await daemon?.stop();
});

describe('sync over a faulty network (git daemon behind a fault proxy)', () => {
  it.each<[string, FaultMode]>([
    ['accepts and stays silent (black hole)', 'blackhole'],
    ['resets the connection', 'reset'],
    ['closes the connection at once', 'drop'],
    ['cuts the answer short (100 bytes)', 'truncate:100'],
    ['cuts the answer short (1200 bytes)', 'truncate:1200'],
    ['cuts the pack short (4000 bytes)', 'truncate:4000'],
  ])('a remote that %s: exit 4 within the budget, one line, nothing changed; a re-run completes', async (_what, mode) => {
    const name = `r-${mode.replace(/\W/g, '-')}.git`;
    const bare = seedRemote(name);
    const port = await proxied(mode);
    // The remote holds a history of its own (a large note) so that the fetch carries a pack to cut.
    const other = cloneOf(daemon.url(name), `o-${mode.replace(/\W/g, '-')}`);
    expect(handoff(other, ['write', '--summary', randomBytes(12_000).toString('hex')]).code).toBe(0);
    expect(handoff(other, ['sync']).code).toBe(0);
    const repo = cloneOf(daemon.url(name), `c-${mode.replace(/\W/g, '-')}`);
    const summary = `work over ${mode}`;
    expect(handoff(repo, ['write', '--summary', summary]).code).toBe(0);
    const before = repo.notesRef();
    const reflog = repo.git('reflog', 'show', 'refs/notes/handoff');

    repo.git('remote', 'set-url', 'origin', `git://127.0.0.1:${port}/${name}`);
    const r = await run('git', ['handoff', 'sync'], { cwd: repo.dir, env: { ...repo.tick(), PATH: cliPath() } });
    if (process.env.HANDOFF_SHOW_LINES) console.info(mode, r.ms, r.stderr);
    expect(r.code, r.stderr).toBe(4);
    expect(r.ms).toBeLessThan(SYNC_BUDGET_S * 1000 + SLACK_MS);
    expect(oneErrorLine(r.stderr)).toMatch(/^git handoff: (cannot fetch from remote 'origin'|remote 'origin' (stopped answering|did not finish))/);
    expect(repo.notesRef()).toBe(before);
    expect(repo.git('reflog', 'show', 'refs/notes/handoff')).toBe(reflog);
    expect(leftovers(repo)).toEqual([]);

    repo.git('remote', 'set-url', 'origin', daemon.url(name));
    const again = handoff(repo, ['sync', '--json']);
    expect(again.code, again.stderr).toBe(0);
    expect(again.json.action).toBe('merge');
    expect(remoteTip(bare)).toBe(repo.notesRef());
    repo.fsck();
  });

  it('a slow remote (every chunk delayed 150 ms) still syncs', async () => {
    const name = 'r-delay.git';
    const bare = seedRemote(name);
    const port = await proxied('delay:150');
    const repo = cloneOf(`git://127.0.0.1:${port}/${name}`, 'c-delay');
    expect(handoff(repo, ['write', '--summary', 'slow but fine']).code).toBe(0);
    const r = handoff(repo, ['sync', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(remoteTip(bare)).toBe(repo.notesRef());
  });

  it('the pre-push hook gives up on a silent remote within its budget, says so in one line, and the push goes on', async () => {
    const name = 'r-hook.git';
    const bare = seedRemote(name);
    // The user's push gets through (first connection); the hook's own push meets a black hole.
    const port = await proxied('pass-first:1');
    const repo = cloneOf(daemon.url(name), 'c-hook');
    expect(handoff(repo, ['init', '--sync']).code).toBe(0);
    repo.git('remote', 'set-url', 'origin', `git://127.0.0.1:${port}/${name}`);
    repo.commit('feat: work', { 'a.txt': 'a\n' });
    expect(handoff(repo, ['write', '--summary', 'before the push']).code).toBe(0);
    const r = await run('git', ['push', 'origin', 'main'], { cwd: repo.dir, env: { ...repo.tick(), PATH: cliPath() } });
    expect(r.code, r.stderr).toBe(0);
    expect(r.ms).toBeLessThan(HOOK_BUDGET_S * 1000 + SLACK_MS);
    const ours = r.stderr.split('\n').filter((l) => l.startsWith('git-handoff:'));
    expect(ours, r.stderr).toHaveLength(1);
    expect(ours[0]).toMatch(
      /^git-handoff: the handoff history was not pushed \(remote 'origin' (stopped answering|did not finish).*\); your push goes on; run 'git handoff sync origin'$/,
    );
    expect(execFileSync('git', ['-C', bare, 'rev-parse', 'main'], { encoding: 'utf8' }).trim()).toBe(repo.head());
    expect(remoteTip(bare)).toBe(null);
    // The way out it names works.
    repo.git('remote', 'set-url', 'origin', daemon.url(name));
    expect(handoff(repo, ['sync', 'origin']).code).toBe(0);
    expect(remoteTip(bare)).toBe(repo.notesRef());
  });
});

describe('locks', () => {
  it('a stale lock on the remote is named with what to do, not "kept changing"; removing it lets a re-run complete', () => {
    const name = 'r-lock.git';
    const bare = seedRemote(name);
    const repo = cloneOf(daemon.url(name), 'c-lock');
    expect(handoff(repo, ['write', '--summary', 'one']).code).toBe(0);
    expect(handoff(repo, ['sync']).code).toBe(0);
    expect(handoff(repo, ['write', '--summary', 'two']).code).toBe(0);
    const lock = join(bare, 'refs', 'notes', 'handoff.lock');
    writeFileSync(lock, '');
    try {
      const r = handoff(repo, ['sync']);
      expect(r.code, r.stderr).toBe(4);
      const line = oneErrorLine(r.stderr);
      expect(line).toContain(`remote 'origin' has a stale lock: the lock file ${lock}`);
      expect(line).toMatch(/delete that file on the server, then run 'git handoff sync' again$/);
      expect(line).not.toMatch(/kept changing/);
    } finally {
      rmSync(lock, { force: true });
    }
    expect(handoff(repo, ['sync']).code).toBe(0);
    expect(remoteTip(bare)).toBe(repo.notesRef());
  });

  it('a sync lock left by a killed sync (its process gone) is taken over, not waited on', () => {
    const name = 'r-deadlock.git';
    const bare = seedRemote(name);
    const repo = cloneOf(daemon.url(name), 'c-deadlock');
    expect(handoff(repo, ['write', '--summary', 'after a crash']).code).toBe(0);
    // A pid that certainly exited: a process we ran to completion.
    const dead = spawnSync('true').pid!;
    mkdirSync(join(repo.gitDir(), 'handoff'), { recursive: true });
    writeFileSync(join(repo.gitDir(), 'handoff', 'sync.lock'), `${dead} 0-killed\n`);
    const r = handoff(repo, ['sync']);
    expect(r.code, r.stderr).toBe(0);
    expect(remoteTip(bare)).toBe(repo.notesRef());
    expect(existsSync(join(repo.gitDir(), 'handoff', 'sync.lock'))).toBe(false);
  });

  it('two syncs in one clone (a manual sync and the pre-push hook) serialise instead of failing on the tracking ref', async () => {
    const name = 'r-twice.git';
    const bare = seedRemote(name);
    const other = cloneOf(daemon.url(name), 'c-twice-other');
    const repo = cloneOf(daemon.url(name), 'c-twice');
    repo.git('config', 'handoff.sync.timeout', '60');
    repo.git('config', 'handoff.sync.hookTimeout', '30');
    expect(handoff(repo, ['init', '--sync']).code).toBe(0);
    const failures: string[] = [];
    for (let round = 0; round < 6; round++) {
      // The remote moves each round, so both syncs of `repo` fetch and merge.
      expect(handoff(other, ['write', '--summary', `other ${round}`]).code).toBe(0);
      expect(handoff(other, ['sync']).code).toBe(0);
      expect(handoff(repo, ['write', '--summary', `mine ${round}`]).code).toBe(0);
      repo.commit(`feat: round ${round}`, { [`r${round}.txt`]: `${round}\n` });
      const env = { ...repo.tick(), PATH: cliPath() };
      const [a, b, c] = await Promise.all([
        run('git', ['handoff', 'sync'], { cwd: repo.dir, env }),
        run('git', ['handoff', 'sync'], { cwd: repo.dir, env }),
        run('git', ['push', '-q', 'origin', 'main'], { cwd: repo.dir, env }),
      ]);
      for (const r of [a, b, c]) if (r.code !== 0 || /cannot lock ref|not pushed/.test(r.stderr)) failures.push(r.stderr.trim());
    }
    expect(failures).toEqual([]);
    expect(handoff(repo, ['sync']).code).toBe(0);
    expect(execFileSync('git', ['-C', bare, 'merge-base', '--is-ancestor', repo.notesRef()!, 'refs/notes/handoff']).length).toBe(0);
    expect(existsSync(join(repo.gitDir(), 'handoff', 'sync.lock'))).toBe(false);
    repo.fsck();
  });
});
