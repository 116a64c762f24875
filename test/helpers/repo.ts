/**
 * Temporary repositories driven by the real git, with user config isolated and fixed
 * identities and dates, so results are exact and independent of the machine.
 */
import { execFileSync, spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { mkdtempSync, mkdirSync, writeFileSync, rmSync, realpathSync, readdirSync, readFileSync, lstatSync, readlinkSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll } from 'vitest';

/** 2026-01-01T00:00:00Z; each commit made by a helper advances the clock by one minute. */
export const BASE_EPOCH = 1767225600;

/**
 * A PATH on which `git-handoff` does nothing: plain `git` in tests must behave as on a
 * machine without the tool, even where it is installed globally (the README's first
 * Quick start command installs it, and the second runs these tests).
 */
let stubDir: string | null = null;
const ORIGINAL_PATH = process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin';
export function noHandoffPath(): string {
  if (!stubDir) {
    stubDir = realpathSync(mkdtempSync(join(tmpdir(), 'handoff-absent-')));
    writeFileSync(join(stubDir, 'git-handoff'), '#!/bin/sh\nexit 0\n', { mode: 0o755 });
    made.push(stubDir);
  }
  return `${stubDir}:${ORIGINAL_PATH}`;
}

export function isolatedEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (k.startsWith('GIT_') || k.startsWith('HANDOFF_') || k === 'CLAUDE_ENV_FILE' || k === 'TMUX') continue;
    // an agent running the tests must not lend them its session (write reads these) or its host marks
    if (
      /^(CLAUDECODE|CLAUDE_CODE_SESSION_ID|CLAUDE_PROJECT_DIR|CODEX_THREAD_ID|GEMINI_SESSION_ID|GEMINI_PROJECT_DIR|COPILOT_CLI|COPILOT_HOOK_DIR|FACTORY_PROJECT_DIR|CODEX_HOME)$/.test(
        k,
      )
    )
      continue;
    env[k] = v;
  }
  return {
    ...env,
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_AUTHOR_NAME: 'Ada Tester',
    GIT_AUTHOR_EMAIL: 'ada@example.com',
    GIT_COMMITTER_NAME: 'Ada Tester',
    GIT_COMMITTER_EMAIL: 'ada@example.com',
    NO_COLOR: '1',
    TZ: 'UTC',
    LANG: 'C',
    PATH: noHandoffPath(),
    ...extra,
  };
}

const made: string[] = [];
afterAll(() => {
  if (process.env.HANDOFF_KEEP_TMP) return;
  for (const d of made.splice(0)) rmSync(d, { recursive: true, force: true });
});

export function tempDir(prefix = 'handoff-test-'): string {
  const d = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  made.push(d);
  return d;
}

export class TestRepo {
  clock = BASE_EPOCH;
  constructor(
    readonly dir: string,
    readonly env: NodeJS.ProcessEnv,
  ) {}

  /** Creates a repository with branch `main` (or a bare one). */
  static init(opts: { bare?: boolean; branch?: string; dir?: string } = {}): TestRepo {
    const dir = opts.dir ?? tempDir();
    const repo = new TestRepo(dir, isolatedEnv());
    repo.git('init', '-q', `--initial-branch=${opts.branch ?? 'main'}`, ...(opts.bare ? ['--bare'] : []));
    return repo;
  }

  /** Environment for the next command: a clock one minute later than the previous one. */
  tick(): NodeJS.ProcessEnv {
    this.clock += 60;
    const date = `@${this.clock} +0000`;
    return { ...this.env, GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date };
  }

  git(...args: string[]): string {
    return execFileSync('git', args, { cwd: this.dir, env: this.tick(), encoding: 'utf8', stdio: ['pipe', 'pipe', 'pipe'] });
  }

  gitRaw(args: string[], opts: { input?: string; env?: NodeJS.ProcessEnv } = {}): SpawnSyncReturns<string> {
    return spawnSync('git', args, { cwd: this.dir, env: { ...this.tick(), ...opts.env }, input: opts.input, encoding: 'utf8' });
  }

  write(path: string, content: string): void {
    const abs = join(this.dir, path);
    mkdirSync(dirname(abs), { recursive: true });
    writeFileSync(abs, content);
  }

  /** Commits the given files (or an empty commit) with `message`; returns the new HEAD. */
  commit(message: string, files: Record<string, string> = {}): string {
    for (const [p, c] of Object.entries(files)) this.write(p, c);
    if (Object.keys(files).length) this.git('add', '--', ...Object.keys(files));
    this.git('commit', '-q', '--allow-empty', '-m', message);
    return this.head();
  }

  head(): string {
    return this.git('rev-parse', 'HEAD').trim();
  }

  notesRef(): string | null {
    const r = this.gitRaw(['rev-parse', '-q', '--verify', 'refs/notes/handoff']);
    return r.status === 0 ? r.stdout.trim() : null;
  }

  /** `git notes --ref=handoff show <rev>` through native git. */
  nativeNote(rev = 'HEAD'): string | null {
    const r = this.gitRaw(['notes', '--ref=handoff', 'show', rev]);
    return r.status === 0 ? r.stdout : null;
  }

  /** The git dir (`.git`, or the repository itself when bare). */
  gitDir(): string {
    return this.gitRaw(['rev-parse', '--absolute-git-dir']).stdout.trim();
  }

  /**
   * Every file, link and folder under the git dir with a hash of its content, so a test can
   * assert that a command wrote nothing at all (no object, ref, reflog, config or lock).
   */
  snapshot(dir = this.gitDir()): Record<string, string> {
    const out: Record<string, string> = {};
    const walk = (abs: string, rel: string) => {
      for (const name of readdirSync(abs).sort()) {
        const a = join(abs, name);
        const r = rel ? `${rel}/${name}` : name;
        const st = lstatSync(a);
        if (st.isDirectory()) {
          out[`${r}/`] = 'dir';
          walk(a, r);
        } else if (st.isSymbolicLink()) out[r] = `link ${readlinkSync(a)}`;
        else out[r] = createHash('sha1').update(readFileSync(a)).digest('hex');
      }
    };
    walk(dir, '');
    return out;
  }

  fsck(): string {
    const r = this.gitRaw(['fsck', '--strict', '--no-progress']);
    if (r.status !== 0) throw new Error(`git fsck failed: ${r.stderr}`);
    return r.stdout + r.stderr;
  }
}
