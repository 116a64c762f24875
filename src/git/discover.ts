/**
 * Repository discovery in-process, the way git does it (setup.c): walk up from the working
 * directory to a `.git` folder or `gitdir:` file, or a bare repository. Cases this does not
 * reproduce exactly (ceilings, core.worktree, ...) return null and the caller asks
 * `git rev-parse` instead. Saves a git process on every hook and `show`.
 */
import { readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { readRepoConfig } from './config-file.js';

export interface Discovered {
  gitDir: string;
  commonDir: string;
  workTree: string | null;
  objectFormat: string;
}

// Missing paths are the common answer here: ask without an exception (each costs ~40 µs).
function isFile(p: string): boolean {
  return statSync(p, { throwIfNoEntry: false })?.isFile() ?? false;
}
function isDir(p: string): boolean {
  return statSync(p, { throwIfNoEntry: false })?.isDirectory() ?? false;
}

/** A git dir has HEAD, objects/ and refs/ (or a commondir file pointing at them). */
function looksLikeGitDir(d: string): boolean {
  if (!isFile(join(d, 'HEAD'))) return false;
  if (isFile(join(d, 'commondir'))) return true;
  return isDir(join(d, 'objects')) && isDir(join(d, 'refs'));
}

function commonDirOf(gitDir: string): string {
  if (!isFile(join(gitDir, 'commondir'))) return gitDir;
  try {
    const rel = readFileSync(join(gitDir, 'commondir'), 'utf8').trim();
    return resolve(gitDir, rel);
  } catch {
    return gitDir;
  }
}

function finish(gitDir: string, workTree: string | null): Discovered | null {
  const commonDir = commonDirOf(gitDir);
  const cfg = readRepoConfig(commonDir);
  if (!cfg) return null;
  if (cfg.has('core.worktree')) return null;
  const bare = cfg.get('core.bare')?.at(-1);
  const format = (cfg.get('extensions.objectformat')?.at(-1) ?? 'sha1').toLowerCase();
  const isBare = bare !== undefined && /^(true|yes|on|1)$/i.test(bare);
  return { gitDir, commonDir, workTree: isBare ? null : workTree, objectFormat: format };
}

export function discoverInProcess(cwd: string): Discovered | null {
  const env = process.env;
  if (env.GIT_CEILING_DIRECTORIES || env.GIT_COMMON_DIR || env.GIT_DISCOVERY_ACROSS_FILESYSTEM) return null;
  if (env.GIT_DIR) {
    const gitDir = resolve(cwd, env.GIT_DIR);
    if (!looksLikeGitDir(gitDir)) return null;
    // git: with GIT_DIR and no GIT_WORK_TREE, the current directory is the work tree's top.
    const wt = env.GIT_WORK_TREE ? resolve(cwd, env.GIT_WORK_TREE) : cwd;
    return finish(gitDir, wt);
  }
  if (env.GIT_WORK_TREE) return null;
  let dir = resolve(cwd);
  for (;;) {
    const dotGit = join(dir, '.git');
    if (isDir(dotGit) && looksLikeGitDir(dotGit)) return finish(dotGit, dir);
    if (isFile(dotGit)) {
      const m = /^gitdir:\s*(.+?)\s*$/m.exec(readFileSync(dotGit, 'utf8'));
      if (!m) return null;
      const gitDir = resolve(dir, m[1]);
      return looksLikeGitDir(gitDir) ? finish(gitDir, dir) : null;
    }
    if (looksLikeGitDir(dir)) {
      // A bare repository, or the inside of a .git folder: no work tree either way.
      const d = finish(dir, null);
      return d && { ...d, workTree: null };
    }
    const parent = dirname(dir);
    // Not found: let git say so (and apply rules this reader does not know).
    if (parent === dir) return null;
    dir = parent;
  }
}
