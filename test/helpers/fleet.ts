/**
 * A bare "remote" and clones of it sharing one clock (one minute per git call, across all
 * of them), so "newer" means what happened later in the test, whichever clone did it.
 */
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { expect } from 'vitest';
import { BASE_EPOCH, TestRepo, isolatedEnv, tempDir } from './repo.js';
import { handoff } from './cli.js';

export class FleetRepo extends TestRepo {
  constructor(
    dir: string,
    env: NodeJS.ProcessEnv,
    readonly fleet: Fleet,
    readonly name: string,
  ) {
    super(dir, env);
  }
  override tick(): NodeJS.ProcessEnv {
    this.fleet.clock += 60;
    this.clock = this.fleet.clock;
    const date = `@${this.clock} +0000`;
    return { ...this.env, GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date };
  }
}

export class Fleet {
  clock = BASE_EPOCH;
  readonly root = tempDir('handoff-fleet-');
  readonly remote: FleetRepo;
  readonly clones: FleetRepo[] = [];

  /** A bare remote with one commit on main, and `n` clones of it. */
  constructor(n: number) {
    this.remote = new FleetRepo(join(this.root, 'remote.git'), isolatedEnv(), this, 'remote');
    execFileSync('git', ['init', '-q', '--bare', '--initial-branch=main', this.remote.dir], { env: this.remote.env });
    for (let i = 0; i < n; i++) this.clone(String.fromCharCode(97 + i));
    const first = this.clones[0];
    first.commit('init', { 'README.md': 'hello\n' });
    first.git('push', '-q', 'origin', 'main');
    for (const c of this.clones.slice(1)) c.git('pull', '-q', 'origin', 'main');
  }

  clone(name: string): FleetRepo {
    const dir = join(this.root, name);
    execFileSync('git', ['clone', '-q', this.remote.dir, dir], { env: this.remote.env, stdio: 'pipe' });
    const repo = new FleetRepo(dir, isolatedEnv(), this, name);
    repo.git('checkout', '-q', '-B', 'main');
    this.clones.push(repo);
    return repo;
  }

  /** Every repository of the fleet, the remote included. */
  all(): FleetRepo[] {
    return [this.remote, ...this.clones];
  }
}

/** Writes a version with this summary; returns its id. */
export function writeVersion(repo: TestRepo, summary: string, extra: string[] = []): string {
  const r = handoff(repo, ['write', '--json', '--summary', summary, ...extra]);
  expect(r.code, r.stderr).toBe(0);
  expect(r.json.unchanged).toBe(false);
  return r.json.version;
}

export function sync(repo: TestRepo, args: string[] = []): any {
  const r = handoff(repo, ['sync', '--json', ...args]);
  expect(r.code, r.stderr).toBe(0);
  return r.json;
}

/** The ids of every version in `log --all --json`. */
export function loggedVersions(repo: TestRepo): string[] {
  const r = handoff(repo, ['log', '--all', '--json']);
  expect(r.code, r.stderr).toBe(0);
  return r.json.versions.map((v: { version: string }) => v.version);
}

/** The invariants after every scenario: each version on every repo's log, fsck clean. */
export function expectEverywhere(fleet: Fleet, versions: string[], opts: { remote?: boolean } = {}): void {
  for (const repo of opts.remote === false ? fleet.clones : fleet.all()) {
    const logged = new Set(loggedVersions(repo));
    for (const v of versions) expect(logged.has(v), `${repo.name} lacks version ${v}`).toBe(true);
    repo.fsck();
  }
}
