/**
 * Repository discovery in-process, the way git 2.39 does it (setup.c
 * setup_git_directory_gently_1): walk up from the working directory to a `.git` folder or
 * `gitdir:` file, or a bare repository, stopping at a filesystem boundary, and apply git's
 * ownership rule (safe-directory.ts) to what it finds. Cases this does not reproduce exactly
 * (ceilings, core.worktree, reftable, unknown extensions, ...) return null and the caller
 * asks `git rev-parse` instead. Saves a git process on every hook and `show`.
 */
import { readFileSync, realpathSync, statSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, resolve } from 'node:path';
import { envBool } from './config-file.js';
import { readRepoFormat } from './repo-format.js';
import { allowedBare, ownershipVerdict } from './safe-directory.js';
import { hasValidHead } from './head.js';

export interface Discovered {
  gitDir: string;
  commonDir: string;
  workTree: string | null;
  objectFormat: string;
}

/** A repository git itself refuses, and why (git's own words are built from this). */
export interface Refusal {
  refused: 'dubious' | 'bare-disallowed';
  /** the path git names: the work tree's top, or the bare repository */
  path: string;
}

// Missing paths are the common answer here: ask without an exception (each costs ~40 µs).
function isFile(p: string): boolean {
  return statSync(p, { throwIfNoEntry: false })?.isFile() ?? false;
}
function isDir(p: string): boolean {
  return statSync(p, { throwIfNoEntry: false })?.isDirectory() ?? false;
}
function realpath(p: string): string {
  try {
    return realpathSync.native(p);
  } catch {
    return resolve(p);
  }
}

/** get_common_dir: the `commondir` file, resolved against the git dir. */
function commonDirOf(gitDir: string): string {
  if (!isFile(join(gitDir, 'commondir'))) return gitDir;
  try {
    const rel = readFileSync(join(gitDir, 'commondir'), 'utf8').replace(/\n$/, '');
    return realpath(isAbsolute(rel) ? rel : join(gitDir, rel));
  } catch {
    return gitDir;
  }
}

/** setup.c is_git_directory: a valid HEAD here, objects/ and refs/ in the common dir. */
function isGitDirectory(d: string): boolean {
  if (!hasValidHead(d)) return false;
  const common = commonDirOf(d);
  return isDir(join(common, 'objects')) && isDir(join(common, 'refs'));
}

/** setup.c read_gitfile_gently: the git dir a `.git` file names, or null when git would complain. */
function readGitfile(path: string): string | null {
  let text: string;
  try {
    if (statSync(path).size > 1 << 20) return null;
    text = readFileSync(path, 'utf8');
  } catch {
    return null;
  }
  if (!text.startsWith('gitdir: ')) return null;
  const target = text.slice(8).replace(/[\r\n]+$/, '');
  if (!target) return null;
  const dir = isAbsolute(target) ? target : join(dirname(path), target);
  return isGitDirectory(dir) ? realpath(dir) : null;
}

function finish(gitDir: string, workTree: string | null, explicitWorkTree = false): Discovered | null {
  const commonDir = commonDirOf(gitDir);
  const format = readRepoFormat(gitDir, commonDir);
  if (!format || format.worktree !== null) return null;
  const bare = format.bare === true && !explicitWorkTree;
  return { gitDir, commonDir, workTree: bare ? null : workTree, objectFormat: format.objectFormat };
}

/** The candidate git found: ownership first (git refuses before it reads the repository's config). */
function candidate(gitfile: string | null, worktree: string, gitDir: string): Discovered | Refusal | null {
  const verdict = ownershipVerdict(gitfile, worktree, gitDir);
  if (verdict === undefined) return null;
  if (verdict !== 'ok') return { refused: 'dubious', path: worktree };
  return finish(gitDir, worktree);
}

/** The repository containing `cwd`, git's refusal of it, or null when git must answer. */
export function discoverInProcess(cwd: string): Discovered | Refusal | null {
  try {
    return discover(cwd);
  } catch (e) {
    // A path this process may not stat or read (EACCES, ELOOP, ...): git says what it makes of it.
    if (typeof (e as NodeJS.ErrnoException).code === 'string' && (e as NodeJS.ErrnoException).syscall) return null;
    throw e;
  }
}

function discover(cwd: string): Discovered | Refusal | null {
  const env = process.env;
  if (process.platform === 'win32' || !process.geteuid) return null;
  if (env.GIT_CEILING_DIRECTORIES || env.GIT_COMMON_DIR || env.GIT_OBJECT_DIRECTORY || env.GIT_IMPLICIT_WORK_TREE !== undefined) return null;
  let start: string;
  try {
    start = realpathSync.native(cwd);
  } catch {
    return null;
  }
  if (env.GIT_DIR) {
    // An explicit GIT_DIR: git checks no ownership (setup_explicit_git_dir), nor do we.
    const gitDir = resolve(start, env.GIT_DIR);
    if (!isGitDirectory(gitDir)) return null;
    // git: with GIT_DIR and no GIT_WORK_TREE, the current directory is the work tree's top.
    return env.GIT_WORK_TREE ? finish(gitDir, resolve(start, env.GIT_WORK_TREE), true) : finish(gitDir, start);
  }
  if (env.GIT_WORK_TREE) return null;
  const across = envBool('GIT_DISCOVERY_ACROSS_FILESYSTEM', false);
  if (across === undefined) return null;
  const device = across ? 0 : statSync(start).dev;
  let dir = start;
  for (;;) {
    const dotGit = join(dir, '.git');
    const st = statSync(dotGit, { throwIfNoEntry: false });
    if (st?.isFile()) {
      const gitDir = readGitfile(dotGit);
      return gitDir ? candidate(dotGit, dir, gitDir) : null;
    }
    if (st && isGitDirectory(dotGit)) return candidate(null, dir, dotGit);
    if (isGitDirectory(dir)) {
      // A bare repository, or the inside of a .git folder: no work tree either way.
      const allowed = allowedBare();
      if (allowed === undefined) return null;
      // git versions differ on whether a .git folder counts as bare here: let git say.
      if (allowed === 'explicit') return basename(dir) === '.git' ? null : { refused: 'bare-disallowed', path: dir };
      const verdict = ownershipVerdict(null, null, dir);
      if (verdict === undefined) return null;
      if (verdict !== 'ok') return { refused: 'dubious', path: dir };
      const d = finish(dir, null);
      return d && { ...d, workTree: null };
    }
    const parent = dirname(dir);
    // Not found: let git say so (and apply rules this reader does not know).
    if (parent === dir) return null;
    // git stops at a filesystem boundary unless GIT_DISCOVERY_ACROSS_FILESYSTEM is set.
    if (!across && statSync(parent).dev !== device) return null;
    dir = parent;
  }
}
