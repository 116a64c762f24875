/**
 * Repository discovery, configuration and refs: the facts every command starts from.
 */
import { readFileSync, statSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { git, runGit, firstLine } from './exec.js';
import { GitObjectStore } from './object-store.js';
import { NotARepository, UnsupportedRepository, GitFailed } from '../errors.js';

export const NOTES_REF = 'refs/notes/handoff';
const ZERO = '0'.repeat(40);

export type CasResult = 'ok' | 'moved' | 'locked';

export interface RepoPaths {
  gitDir: string;
  commonDir: string;
  /** null in a bare repository */
  workTree: string | null;
}

export class Repo {
  readonly objects: GitObjectStore;
  private configCache: Map<string, string[]> | null = null;

  private constructor(readonly paths: RepoPaths, readonly cwd: string) {
    const objectsDir = process.env.GIT_OBJECT_DIRECTORY || join(paths.commonDir, 'objects');
    this.objects = new GitObjectStore(paths.gitDir, objectsDir);
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

  /** Finds the repository containing `cwd`; refuses outside one and in SHA-256 repositories. */
  static async discover(cwd = process.cwd()): Promise<Repo> {
    const r = await runGit(
      ['rev-parse', '--path-format=absolute', '--git-dir', '--git-common-dir', '--is-bare-repository', '--show-object-format', '--show-toplevel'],
      { cwd, readOnly: true },
    );
    const lines = r.stdout.toString('utf8').split('\n');
    if (lines.length < 4 || !lines[0]) {
      throw new NotARepository(`not a git repository: ${cwd}`, { cwd });
    }
    const [gitDir, commonDir, bare, format, top] = lines;
    if (format !== 'sha1') {
      throw new UnsupportedRepository(`this repository uses ${format} object ids; git-handoff supports sha1 repositories only`);
    }
    // --show-toplevel fails (after printing the rest) in a bare repository or inside .git.
    const workTree = bare === 'true' || r.code !== 0 || !top ? null : top;
    return new Repo({ gitDir, commonDir, workTree }, cwd);
  }

  /**
   * The repository a git hook runs in, found without starting git: git runs hooks at the
   * top of the work tree, where `.git` is the git dir or a `gitdir:` file (a linked
   * worktree). Anything else (GIT_DIR set, a bare repository) takes `discover`.
   */
  static async forHook(cwd = process.cwd()): Promise<Repo> {
    if (process.env.GIT_DIR || process.env.GIT_WORK_TREE || process.env.GIT_COMMON_DIR) return Repo.discover(cwd);
    const dotGit = join(cwd, '.git');
    let gitDir: string | null = null;
    try {
      if (statSync(dotGit).isDirectory()) gitDir = dotGit;
      else {
        const m = /^gitdir:\s*(.+?)\s*$/m.exec(readFileSync(dotGit, 'utf8'));
        if (m) gitDir = resolve(cwd, m[1]);
      }
    } catch {
      return Repo.discover(cwd);
    }
    if (!gitDir) return Repo.discover(cwd);
    let commonDir = gitDir;
    try {
      commonDir = resolve(gitDir, readFileSync(join(gitDir, 'commondir'), 'utf8').trim());
    } catch {}
    try {
      if (/^\s*objectformat\s*=\s*(?!sha1\b)\S/im.test(readFileSync(join(commonDir, 'config'), 'utf8'))) {
        throw new UnsupportedRepository('this repository does not use sha1 object ids; git-handoff supports sha1 repositories only');
      }
    } catch (e) {
      if (e instanceof UnsupportedRepository) throw e;
    }
    return new Repo({ gitDir, commonDir, workTree: cwd }, cwd);
  }

  /** Runs git in this repository. */
  git(args: string[], opts: { input?: string | Buffer; env?: NodeJS.ProcessEnv; readOnly?: boolean } = {}) {
    return git(args, { cwd: this.workTree ?? this.gitDir, env: { GIT_DIR: this.gitDir, ...opts.env }, input: opts.input, readOnly: opts.readOnly });
  }

  runGit(args: string[], opts: { input?: string | Buffer; env?: NodeJS.ProcessEnv; readOnly?: boolean } = {}) {
    return runGit(args, { cwd: this.workTree ?? this.gitDir, env: { GIT_DIR: this.gitDir, ...opts.env }, input: opts.input, readOnly: opts.readOnly });
  }

  /** All config values, read once per process (`git config -l -z`). Keys are lower-cased as git prints them. */
  async config(): Promise<Map<string, string[]>> {
    if (this.configCache) return this.configCache;
    const r = await this.runGit(['config', '-l', '-z'], { readOnly: true });
    const map = new Map<string, string[]>();
    for (const item of r.stdout.toString('utf8').split('\0')) {
      if (!item) continue;
      const nl = item.indexOf('\n');
      const key = (nl < 0 ? item : item.slice(0, nl)).toLowerCase();
      const value = nl < 0 ? 'true' : item.slice(nl + 1);
      const list = map.get(key) ?? [];
      list.push(value);
      map.set(key, list);
    }
    this.configCache = map;
    return map;
  }

  async configGet(key: string): Promise<string | undefined> {
    const v = (await this.config()).get(key.toLowerCase());
    return v?.[v.length - 1];
  }

  async configAll(key: string): Promise<string[]> {
    return (await this.config()).get(key.toLowerCase()) ?? [];
  }

  async configInt(key: string, fallback: number): Promise<number> {
    const v = await this.configGet(key);
    if (v === undefined) return fallback;
    const m = /^(-?\d+)([kmg]?)$/i.exec(v.trim());
    if (!m) return fallback;
    const mult = { '': 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 }[m[2].toLowerCase() as '' | 'k' | 'm' | 'g'];
    return Number(m[1]) * mult;
  }

  async configBool(key: string, fallback = false): Promise<boolean> {
    const v = await this.configGet(key);
    if (v === undefined) return fallback;
    return /^(true|yes|on|1)$/i.test(v.trim());
  }

  /** The branch HEAD points at (short name), or null when detached. */
  headBranch(): string | null {
    try {
      const head = readFileSync(join(this.gitDir, 'HEAD'), 'utf8').trim();
      const m = /^ref:\s*refs\/heads\/(.+)$/.exec(head);
      return m ? m[1] : null;
    } catch {
      return null;
    }
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
    if (depth > 5) return undefined;
    const dir = ref === 'HEAD' || ref.startsWith('refs/bisect') || ref.startsWith('refs/worktree') ? this.gitDir : this.paths.commonDir;
    let text: string | null = null;
    try {
      text = readFileSync(join(dir, ref), 'utf8').trim();
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') return undefined;
    }
    if (text !== null) {
      if (/^[0-9a-f]{40}$/.test(text)) return text;
      const m = /^ref:\s*(\S+)$/.exec(text);
      return m ? this.readRefFile(m[1], depth + 1) : undefined;
    }
    if (ref === 'HEAD') return undefined;
    let packed: string;
    try {
      packed = readFileSync(join(this.paths.commonDir, 'packed-refs'), 'utf8');
    } catch (e) {
      return (e as NodeJS.ErrnoException).code === 'ENOENT' ? (this.usesFilesBackend() ? null : undefined) : undefined;
    }
    for (const line of packed.split('\n')) {
      if (line.length > 41 && line.endsWith(` ${ref}`) && line[40] === ' ') return line.slice(0, 40);
    }
    return this.usesFilesBackend() ? null : undefined;
  }

  private usesFilesBackend(): boolean {
    // A reftable repository keeps no loose refs; let git answer for it.
    try {
      return !/refstorage\s*=\s*reftable/i.test(readFileSync(join(this.paths.commonDir, 'config'), 'utf8'));
    } catch {
      return true;
    }
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
    const r = await this.runGit(['update-ref', '--create-reflog', '-m', message, ref, newOid, oldOid ?? ZERO]);
    if (r.code === 0) return 'ok';
    if (/\.lock'?: File exists|Unable to create .*\.lock/i.test(r.stderr)) return 'locked';
    if (/is at .* but expected|reference already exists|unable to resolve reference|cannot lock ref/i.test(r.stderr)) return 'moved';
    throw new GitFailed(`git update-ref failed: ${firstLine(r.stderr)}`);
  }

  /** The lock file git uses for `ref`. */
  refLockPath(ref: string): string {
    return join(this.paths.commonDir, `${ref}.lock`);
  }

  close(): void {
    this.objects.close();
  }
}
