/**
 * Repository discovery, configuration and refs: the facts every command starts from.
 */
import { readFileSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { git, runGit, pipeGit, startGit, firstLine, type GitRunOptions } from './exec.js';
import { start } from '../process/run.js';
import { GitObjectStore } from './object-store.js';
import { discoverInProcess, type Refusal } from './discover.js';
import { readConfigInProcess } from './config-file.js';
import { canonicalKey } from './config-text.js';
import { readRepoFormat } from './repo-format.js';
import { shellQuotePretty } from './safe-directory.js';
import { NotARepository, UnsupportedRepository, UntrustedRepository, GitFailed, InvariantBroken, FileSystemRefused } from '../errors.js';
import { describeGitFsFailure } from './fs-failure.js';
import { checkListValues, noteConfigWarning } from './config-values.js';
import { isObjectId, ZERO_OID } from '../core/object-id.js';
import { headViaGit, readHead, refText } from './head.js';
import { refNamesOnDisk } from './ref-names.js';

export const NOTES_REF = 'refs/notes/handoff';

export type CasResult = 'ok' | 'moved' | 'locked';

export interface PendingRefUpdate {
  update(ref: string, newOid: string, oldOid: string | null): Promise<CasResult>;
  cancel(): void;
}

export interface WriteHelper extends PendingRefUpdate {
  /** the `git patch-id --stable` of the diff, or null for an empty diff */
  patchId(): Promise<string | null>;
}

function classifyUpdateRefError(stderr: string): CasResult {
  // A full disk or a read-only file system first: git's "Unable to create '<ref>.lock': No
  // space left on device" is not another writer's lock.
  const refused = describeGitFsFailure(stderr, null);
  if (refused) throw new FileSystemRefused(refused);
  if (/\.lock'?: File exists|Unable to create .*\.lock/i.test(stderr)) return 'locked';
  if (/is at .* but expected|reference already exists|unable to resolve reference|cannot lock ref/i.test(stderr)) return 'moved';
  throw new GitFailed(`git update-ref failed: ${firstLine(stderr)}`);
}

/** The one line a refused repository gets, naming the path and git's own fix. */
function untrusted(r: Refusal): UntrustedRepository {
  if (r.refused === 'bare-disallowed') {
    return new UntrustedRepository(
      `cannot use bare repository '${r.path}' (safe.bareRepository is 'explicit'); name it explicitly: GIT_DIR=${shellQuotePretty(r.path)} git handoff ...`,
      { path: r.path, reason: 'safe.bareRepository' },
    );
  }
  return new UntrustedRepository(
    `detected dubious ownership in repository at '${r.path}' (another user owns it); to trust it: git config --global --add safe.directory ${shellQuotePretty(r.path)}`,
    { path: r.path, reason: 'ownership' },
  );
}

/** git's own refusal in its stderr, when discovery was left to git. */
function refusalIn(stderr: string): Refusal | null {
  const dubious = /detected dubious ownership in repository at '(.*)'\n/.exec(stderr);
  if (dubious) return { refused: 'dubious', path: dubious[1] };
  const bare = /cannot use bare repository '(.*)' \(safe\.bareRepository/.exec(stderr);
  return bare ? { refused: 'bare-disallowed', path: bare[1] } : null;
}

/** git's options for a call in a repository (the repository decides where git runs). */
export type RepoGitOptions = Omit<GitRunOptions, 'cwd'>;

export interface RepoPaths {
  gitDir: string;
  commonDir: string;
  /** null in a bare repository */
  workTree: string | null;
}

export class Repo {
  readonly objects: GitObjectStore;
  private configCache: Map<string, string[]> | null = null;
  /** false where refs are not plain files (reftable): every ref read goes through git. */
  private refsOnDisk = true;
  /** HEAD's branch as git reported it, where refs are not on disk */
  private headRef: string | null = null;

  /** where objects are written (`GIT_OBJECT_DIRECTORY` honoured) */
  readonly objectsDir: string;

  private constructor(
    readonly paths: RepoPaths,
    readonly cwd: string,
  ) {
    this.objectsDir = process.env.GIT_OBJECT_DIRECTORY || join(paths.commonDir, 'objects');
    this.objects = new GitObjectStore(paths.gitDir, this.objectsDir);
  }

  get gitDir(): string {
    return this.paths.gitDir;
  }
  get workTree(): string | null {
    return this.paths.workTree;
  }
  get isBare(): boolean {
    return this.paths.workTree === null;
  }

  /**
   * Finds the repository containing `cwd`; refuses outside one, in SHA-256 repositories,
   * and wherever git itself refuses (dubious ownership, safe.bareRepository): git is never
   * started with an explicit GIT_DIR on a repository it would not open by itself.
   */
  static async discover(cwd = process.cwd()): Promise<Repo> {
    const fast = discoverInProcess(cwd);
    if (fast && 'refused' in fast) throw untrusted(fast);
    if (fast) {
      if (fast.objectFormat !== 'sha1') {
        throw new UnsupportedRepository(`this repository uses ${fast.objectFormat} object ids; git-handoff supports sha1 repositories only`);
      }
      return new Repo({ gitDir: fast.gitDir, commonDir: fast.commonDir, workTree: fast.workTree }, cwd);
    }
    // No GIT_DIR here: git discovers the repository itself and applies its own checks.
    const r = await runGit(
      ['rev-parse', '--path-format=absolute', '--git-dir', '--git-common-dir', '--is-bare-repository', '--show-object-format', '--show-toplevel'],
      { cwd, readOnly: true },
    );
    const lines = r.stdout.toString('utf8').split('\n');
    if (lines.length < 4 || !lines[0]) {
      const refusal = refusalIn(r.stderr);
      if (refusal) throw untrusted(refusal);
      // git's reason when it is more than "not a repository" (an unknown extension, a bad .git file).
      const why = (/^fatal: (.*(?:\n\t.*)*)/m.exec(r.stderr)?.[1] ?? '').replace(/\n\t/g, ' ').trim();
      throw new NotARepository(
        why && !/^not a git repository/.test(why) ? `not a usable git repository: ${cwd} (git: ${why})` : `not a git repository: ${cwd}`,
        { cwd },
      );
    }
    const [gitDir, commonDir, bare, format, top] = lines;
    if (format !== 'sha1') {
      throw new UnsupportedRepository(`this repository uses ${format} object ids; git-handoff supports sha1 repositories only`);
    }
    // --show-toplevel fails (after printing the rest) in a bare repository or inside .git.
    const workTree = bare === 'true' || r.code !== 0 || !top ? null : top;
    const repo = new Repo({ gitDir, commonDir, workTree }, cwd);
    // Refs stored other than as files (reftable), or a format this process cannot read: git answers for refs.
    if (!readRepoFormat(gitDir, commonDir)) {
      repo.refsOnDisk = false;
      repo.headRef = await headViaGit((args) => repo.runGit(args, { readOnly: true }));
    }
    return repo;
  }

  /** Where and how git runs for this repository: in its work tree (or git dir), with GIT_DIR set. */
  private gitOptions(opts: RepoGitOptions): GitRunOptions {
    return { ...opts, cwd: this.workTree ?? this.gitDir, env: { GIT_DIR: this.gitDir, ...opts.env } };
  }

  /** Runs git in this repository and returns stdout as text; throws GitFailed on a non-zero exit. */
  git(args: string[], opts: RepoGitOptions = {}) {
    return git(args, this.gitOptions(opts));
  }

  /** Runs git in this repository; never throws on a non-zero exit. */
  runGit(args: string[], opts: RepoGitOptions = {}) {
    return runGit(args, this.gitOptions(opts));
  }

  pipeGit(first: string[], second: string[], opts: RepoGitOptions = {}) {
    return pipeGit(first, second, this.gitOptions(opts));
  }

  /**
   * A long-lived read-only git (a `cat-file --batch` fed as work comes, a listing handed on as
   * it comes), where runGit runs git and taking no optional locks. `realObjects`: the objects
   * themselves, past any `git replace` (what a push sends, what the in-process reader reads).
   */
  startReadOnlyGit(args: string[], opts: { realObjects?: boolean } = {}): ReturnType<typeof start> {
    return startGit(args, this.gitOptions({ readOnly: true, env: opts.realObjects ? { GIT_NO_REPLACE_OBJECTS: '1' } : {} }));
  }

  /** All config values, read once per process (`git config -l -z`). Keys are spelled as git prints them: section and name lower-cased, a subsection as written. */
  async config(): Promise<Map<string, string[]>> {
    if (this.configCache) return this.configCache;
    const inProcess = readConfigInProcess(this.paths.commonDir, this.paths.gitDir);
    if (inProcess) return (this.configCache = inProcess);
    const r = await this.runGit(['config', '-l', '-z'], { readOnly: true });
    const map = new Map<string, string[]>();
    for (const item of r.stdout.toString('utf8').split('\0')) {
      if (!item) continue;
      const nl = item.indexOf('\n');
      const key = nl < 0 ? item : item.slice(0, nl);
      const value = nl < 0 ? 'true' : item.slice(nl + 1);
      const list = map.get(key) ?? [];
      list.push(value);
      map.set(key, list);
    }
    this.configCache = map;
    return map;
  }

  /** The last value of `key` (`remote.Origin.url` and `remote.origin.url` are two keys, as in git). */
  async configGet(key: string): Promise<string | undefined> {
    const v = (await this.config()).get(canonicalKey(key) ?? key.toLowerCase());
    return v?.[v.length - 1];
  }

  async configAll(key: string): Promise<string[]> {
    const values = (await this.config()).get(canonicalKey(key) ?? key.toLowerCase()) ?? [];
    checkListValues(key, values);
    return values;
  }

  async configInt(key: string, fallback: number): Promise<number> {
    const v = await this.configGet(key);
    if (v === undefined) return fallback;
    const m = /^(-?\d+)([kmg]?)$/i.exec(v.trim());
    if (!m) {
      noteConfigWarning(key, v, `${key} '${v}' is not a whole number; using ${fallback}`);
      return fallback;
    }
    const mult = { '': 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 }[m[2].toLowerCase() as '' | 'k' | 'm' | 'g'];
    return Number(m[1]) * mult;
  }

  async configBool(key: string, fallback = false): Promise<boolean> {
    const v = await this.configGet(key);
    if (v === undefined) return fallback;
    if (!/^(true|yes|on|1|false|no|off|0|)$/i.test(v.trim())) {
      noteConfigWarning(key, v, `${key} '${v}' is not a boolean (true or false); using ${fallback}`);
      return fallback;
    }
    return /^(true|yes|on|1)$/i.test(v.trim());
  }

  /** The branch HEAD points at (short name; an unborn branch too), or null when detached or on a branch whose name is not UTF-8 (src/git/head.ts). */
  headBranch(): string | null {
    if (!this.refsOnDisk) return this.headRef;
    const head = readHead(this.gitDir);
    return head?.kind === 'symbolic' ? head.branch : null;
  }

  /** HEAD's commit id, or null on an unborn branch. */
  async headCommit(): Promise<string | null> {
    return this.resolveRef('HEAD');
  }

  /**
   * Resolves a ref freshly from disk on every call (loose file, then packed-refs), so a
   * compare-and-swap retry sees another writer's update. Falls back to `git rev-parse`.
   */
  async resolveRef(ref: string): Promise<string | null> {
    const direct = this.readRefFile(ref, 0);
    if (direct !== undefined) return direct;
    const r = await this.runGit(['rev-parse', '-q', '--verify', `${ref}^{commit}`], { readOnly: true });
    return r.code === 0 ? r.stdout.toString().trim() : null;
  }

  /** undefined means "could not tell in-process". */
  private readRefFile(ref: string, depth: number): string | null | undefined {
    if (depth > 5 || !this.refsOnDisk) return undefined;
    if (ref === 'HEAD') {
      const head = readHead(this.gitDir);
      if (!head) return undefined;
      if (head.kind === 'detached') return head.oid;
      const target = refText(head.ref);
      return target === null ? undefined : this.readRefFile(target, depth + 1);
    }
    const dir = ref.startsWith('refs/bisect') || ref.startsWith('refs/worktree') ? this.gitDir : this.paths.commonDir;
    let text: string | null = null;
    try {
      text = readFileSync(join(dir, ref), 'utf8').trim();
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') return undefined;
    }
    if (text !== null) {
      if (isObjectId(text)) return text;
      const m = /^ref:\s*(\S+)$/.exec(text);
      return m ? this.readRefFile(m[1], depth + 1) : undefined;
    }
    let packed: string;
    try {
      packed = readFileSync(join(this.paths.commonDir, 'packed-refs'), 'utf8');
    } catch (e) {
      return (e as NodeJS.ErrnoException).code === 'ENOENT' ? null : undefined;
    }
    for (const line of packed.split('\n')) {
      if (line.length > 41 && line.endsWith(` ${ref}`) && line[40] === ' ') return line.slice(0, 40);
    }
    return null;
  }

  /** The names of the refs under `prefix`, as `git for-each-ref --format=%(refname) <prefix>` lists them. */
  async refNames(prefix: string): Promise<string[]> {
    const known = this.refsOnDisk ? refNamesOnDisk(this.paths.commonDir, prefix) : undefined;
    if (known) return known;
    const r = await this.runGit(['for-each-ref', '--format=%(refname)', prefix], { readOnly: true });
    return r.code === 0 ? r.stdout.toString('utf8').split('\n').filter(Boolean) : [];
  }

  /** Absolute path inside the work tree (or null in a bare repository). */
  workPath(rel: string): string | null {
    if (!this.workTree) return null;
    return isAbsolute(rel) ? rel : join(this.workTree, rel);
  }

  /**
   * Compare-and-swap of a ref with a reflog entry: `git update-ref <ref> <new> <old>`.
   * 'moved': the ref no longer holds `oldOid` (another writer won); 'locked': its lock file
   * exists (another writer is mid-update, or a killed one left it behind).
   */
  async casUpdateRef(ref: string, newOid: string, oldOid: string | null, message: string): Promise<CasResult> {
    const r = await this.runGit(['update-ref', '--create-reflog', '-m', message, ref, newOid, oldOid ?? ZERO_OID]);
    if (r.code === 0) return 'ok';
    return classifyUpdateRefError(r.stderr);
  }

  /**
   * One shell, started ahead of time, for the git work of a write: it prints
   * `git diff-tree -p <range> | git patch-id --stable`, then becomes
   * `git update-ref --stdin`, which waits for the compare-and-swap the caller sends at the
   * end. Node forks once instead of three times (each fork of a Node process costs
   * milliseconds on a busy machine), and git's start-up overlaps the caller's own work.
   * Unused, the update is told to do nothing (stdin closed with no command).
   */
  startWriteHelper(diffArgs: string[], refMessage: string | null): WriteHelper {
    const script = refMessage
      ? 'n=$#; m=$1; shift; { git "$@" | git patch-id --stable; echo --; } ; exec git update-ref --stdin --create-reflog -m "$m"'
      : 'm=$1; shift; { git "$@" | git patch-id --stable; echo --; }';
    const child = start('sh', ['-c', script, 'sh', refMessage ?? '', ...diffArgs], {
      cwd: this.workTree ?? this.gitDir,
      env: { GIT_DIR: this.gitDir, GIT_OPTIONAL_LOCKS: '0' },
    });
    let stdout = '';
    let stderr = '';
    let onPatch: ((id: string | null) => void) | null = null;
    let patch: string | null | undefined;
    child.stdout.on('data', (b: Buffer) => {
      stdout += b.toString();
      const end = stdout.indexOf('--\n');
      if (patch === undefined && end >= 0) {
        const id = stdout.slice(0, end).split(/\s/)[0];
        patch = isObjectId(id) ? id : null;
        onPatch?.(patch);
      }
    });
    child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
    child.stdin.on('error', () => {});
    const done = new Promise<number>((res) => {
      child.on('error', (e) => {
        stderr += `cannot run sh: ${e.message}\n`;
        res(128);
      });
      child.on('close', (code) => {
        if (patch === undefined) onPatch?.((patch = null));
        res(code ?? 128);
      });
    });
    let used = false;
    return {
      patchId: () => (patch !== undefined ? Promise.resolve(patch) : new Promise((res) => (onPatch = res))),
      update: async (ref, newOid, oldOid) => {
        if (!refMessage) throw new InvariantBroken('this write helper does not update refs');
        used = true;
        child.stdin.end(`update ${ref} ${newOid} ${oldOid ?? ZERO_OID}\n`);
        const code = await done;
        if (code === 0) return 'ok';
        return classifyUpdateRefError(stderr);
      },
      cancel: () => {
        if (!used) child.stdin.end();
      },
    };
  }

  /** The lock file git uses for `ref`. */
  refLockPath(ref: string): string {
    return join(this.paths.commonDir, `${ref}.lock`);
  }

  close(): void {
    this.objects.close();
  }
}
