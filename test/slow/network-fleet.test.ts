/**
 * Ten clones syncing at once through real servers on 127.0.0.1: half over
 * git:// (`git daemon`), half over smart HTTP (`git http-backend` behind lighttpd), all on
 * one bare repository. Each clone writes versions and alternates `git handoff sync` with a
 * plain `git push` carried by the pre-push hook. Asserted: no sync fails (contention is
 * retried within its budget), the hook carries the history on at least 95% of pushes, no
 * command runs past its budget, and afterwards every version written anywhere is in every
 * clone's log and on the remote, with `git fsck --strict` clean everywhere.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { TestRepo, isolatedEnv, tempDir } from '../helpers/repo.js';
import { cliPath, handoff } from '../helpers/cli.js';
import { LIGHTTPD, httpBackend, run, startGitDaemon, startLighttpd, type Server } from '../helpers/servers.js';

const CLONES = 10;
const ROUNDS = 5;
const SYNC_BUDGET_S = 60;
/**
 * What is measured here is contention: ten clones pushing into one ref at the same moment.
 * The hook's default budget (8 s) holds on an idle machine, but on a shared 2-core machine
 * under heavy load a single `git push` can take longer than that, which says nothing about
 * contention; so the fleet runs with a roomier hook budget. That the hook keeps to its
 * budget is asserted in network-faults.test.ts.
 */
const HOOK_BUDGET_S = 30;
const SLACK_MS = 8000;

const missing = !LIGHTTPD ? 'lighttpd is not installed (apt-get install lighttpd)' : !httpBackend() ? 'git http-backend is missing' : null;

let root: string;
let bare: string;
const servers: Server[] = [];

beforeAll(async () => {
  if (missing) return;
  root = tempDir('handoff-fleet-net-');
  mkdirSync(join(root, 'srv'));
  bare = join(root, 'srv', 'team.git');
  const env = isolatedEnv();
  execFileSync('git', ['init', '-q', '--bare', '--initial-branch=main', bare], { env });
  execFileSync('git', ['-C', bare, 'config', 'http.receivepack', 'true'], { env });
  const seed = new TestRepo(join(root, 'seed'), env);
  execFileSync('git', ['init', '-q', '--initial-branch=main', seed.dir], { env });
  seed.commit('init', { 'README.md': 'team\n' });
  seed.git('push', '-q', bare, 'main');
  servers.push(await startGitDaemon(join(root, 'srv'), env));
  servers.push(await startLighttpd(join(root, 'srv'), root, env));
});

afterAll(async () => {
  for (const s of servers.splice(0)) await s.stop();
});

function remoteHas(version: string): boolean {
  return spawnSync('git', ['-C', bare, 'merge-base', '--is-ancestor', version, 'refs/notes/handoff']).status === 0;
}

describe.skipIf(missing)(`ten clones syncing at once over git:// and smart HTTP${missing ? ` (skipped: ${missing})` : ''}`, () => {
  it('every sync succeeds, the pre-push hook carries the history, every version ends up everywhere', async () => {
    const clones: TestRepo[] = [];
    for (let i = 0; i < CLONES; i++) {
      const server = servers[i % 2];
      const dir = join(root, `clone-${i}`);
      execFileSync('git', ['clone', '-q', server.url('team.git'), dir], { env: isolatedEnv(), stdio: 'pipe' });
      const repo = new TestRepo(dir, isolatedEnv());
      repo.git('checkout', '-q', '-b', `work-${i}`);
      repo.git('config', 'handoff.sync.timeout', String(SYNC_BUDGET_S));
      repo.git('config', 'handoff.sync.hookTimeout', String(HOOK_BUDGET_S));
      expect(handoff(repo, ['init', '--sync']).code).toBe(0);
      clones.push(repo);
    }

    const written: string[] = [];
    const exits = new Map<number, number>();
    const syncMs: number[] = [];
    const pushMs: number[] = [];
    let pushes = 0;
    let carried = 0;
    const failures: string[] = [];
    const count = (code: number) => exits.set(code, (exits.get(code) ?? 0) + 1);

    // Each round: every clone writes a version, then all ten hit the remote at the same
    // moment, half with `git handoff sync`, half with a `git push` carried by the hook.
    for (let round = 0; round < ROUNDS; round++) {
      const ready = await Promise.all(
        clones.map(async (repo, i) => {
          const env = { ...repo.tick(), PATH: cliPath() };
          repo.commit(`feat: clone ${i} round ${round}`, { [`c${i}-r${round}.txt`]: `${i} ${round}\n` });
          const w = await run('git', ['handoff', 'write', '--json', '--summary', `clone ${i} round ${round}`], { cwd: repo.dir, env });
          expect(w.code, w.stderr).toBe(0);
          written.push(JSON.parse(w.stdout).version as string);
          return env;
        }),
      );
      await Promise.all(
        clones.map(async (repo, i) => {
          const env = ready[i];
          if ((round + i) % 2 === 0) {
            const s = await run('git', ['handoff', 'sync'], { cwd: repo.dir, env });
            count(s.code);
            syncMs.push(s.ms);
            if (s.code !== 0) failures.push(`clone ${i} sync: ${s.stderr.trim()}`);
          } else {
            const tip = repo.notesRef()!;
            const p = await run('git', ['push', '-q', 'origin', `work-${i}`], { cwd: repo.dir, env });
            pushes++;
            pushMs.push(p.ms);
            if (p.code !== 0) failures.push(`clone ${i} push: ${p.stderr.trim()}`);
            if (remoteHas(tip)) carried++;
            else failures.push(`clone ${i} push did not carry the history: ${p.stderr.trim()}`);
          }
        }),
      );
    }

    // Two sequential passes: the first brings every version to the remote, the second to every clone.
    for (let pass = 0; pass < 2; pass++) {
      for (const repo of clones) {
        const s = await run('git', ['handoff', 'sync'], { cwd: repo.dir, env: { ...repo.tick(), PATH: cliPath() } });
        count(s.code);
        syncMs.push(s.ms);
        if (s.code !== 0) failures.push(`final sync: ${s.stderr.trim()}`);
      }
    }

    const ratio = carried / pushes;
    const longestSync = Math.max(...syncMs);
    const longestPush = Math.max(...pushMs);
    console.info(
      `fleet figures: clones=${CLONES} versions=${written.length} syncs=${syncMs.length} pushes=${pushes} exits=${JSON.stringify(Object.fromEntries(exits))} longest_sync_ms=${longestSync} longest_push_ms=${longestPush} pre_push_ratio=${carried}/${pushes}`,
    );
    if (failures.length) console.info(failures.join('\n---\n'));
    const contention = failures.filter((f) => /kept changing/.test(f));
    expect(contention, 'syncs that failed from contention alone').toEqual([]);
    expect(ratio).toBeGreaterThanOrEqual(0.95);
    expect(longestSync).toBeLessThan(SYNC_BUDGET_S * 1000 + SLACK_MS);
    expect(longestPush).toBeLessThan(HOOK_BUDGET_S * 1000 + SLACK_MS + 10_000);
    expect(failures.filter((f) => !/did not carry/.test(f))).toEqual([]);

    for (const repo of clones) {
      const logged = new Set((handoff(repo, ['log', '--all', '--json']).json.versions as { version: string }[]).map((v) => v.version));
      for (const v of written) expect(logged.has(v), `${repo.dir} lacks ${v}`).toBe(true);
      repo.fsck();
    }
    for (const v of written) expect(remoteHas(v), `the remote lacks ${v}`).toBe(true);
    const fsck = spawnSync('git', ['-C', bare, 'fsck', '--strict', '--no-progress'], { encoding: 'utf8' });
    expect(fsck.status, fsck.stderr).toBe(0);
  });
});
