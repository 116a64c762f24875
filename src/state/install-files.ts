/**
 * The file side of `init` / `uninstall`: hook files and the install record under the git
 * common dir (local state, never pushed). Writes are atomic (temporary file, then rename).
 * The `git config --local` side is in ../git/local-config.ts.
 */
import { existsSync, lstatSync, mkdirSync, readlinkSync, rmdirSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { createHash } from 'node:crypto';
import { readJsonFile, writeJsonFile } from './json-file.js';
import { readRegularFile } from './bounded-file.js';
import type { RepositoryPlaces } from './repository-places.js';

export const INSTALL_RECORD = 'install.json';

export interface FileState {
  data: Buffer | null;
  mode: number | null;
  link: string | null;
}

/** What is at `path`: a regular file's bytes and mode (through a symlink: its target's, never a link's 0777), read without blocking and within a bound. */
export function fileState(path: string): FileState {
  const read = (): Buffer | null => {
    try {
      return readRegularFile(path, path);
    } catch {
      return null;
    }
  };
  try {
    const st = lstatSync(path);
    if (st.isSymbolicLink()) {
      let mode: number | null = null;
      try {
        mode = statSync(path).mode & 0o7777;
      } catch {}
      return { data: read(), mode, link: readlinkSync(path) };
    }
    if (!st.isFile()) return { data: null, mode: null, link: null };
    return { data: read(), mode: st.mode & 0o7777, link: null };
  } catch {
    return { data: null, mode: null, link: null };
  }
}

export function sha1(data: Buffer | null): string | null {
  return data === null ? null : createHash('sha1').update(data).digest('hex');
}

export function removeFile(path: string): void {
  rmSync(path, { force: true });
}

/** How many folders above `path` do not exist yet (the ones writing it would create). */
export function missingParents(path: string): number {
  let n = 0;
  for (let dir = dirname(path); !existsSync(dir) && dirname(dir) !== dir; dir = dirname(dir)) n++;
  return n;
}

/** The `levels` folders above `path`, deepest first. */
export function parentDirs(path: string, levels: number): string[] {
  const out: string[] = [];
  for (let i = 0, dir = dirname(path); i < levels; i++, dir = dirname(dir)) out.push(dir);
  return out;
}

/** Removes each folder that is empty, deepest first; a folder with anything in it stays. */
export function removeEmptyDirs(dirs: Iterable<string>): void {
  for (const dir of [...new Set(dirs)].sort((a, b) => b.split(sep).length - a.split(sep).length)) {
    try {
      rmdirSync(dir);
    } catch {
      /* not empty, or gone already */
    }
  }
}

export function writeLink(path: string, target: string): void {
  rmSync(path, { force: true });
  mkdirSync(dirname(path), { recursive: true });
  symlinkSync(target, path);
}

export function installRecordPath(repo: RepositoryPlaces): string {
  return join(repo.paths.commonDir, 'handoff', INSTALL_RECORD);
}

export function readInstallRecord<T>(repo: RepositoryPlaces): T | null {
  return readJsonFile<T>(installRecordPath(repo));
}

export function writeInstallRecord(repo: RepositoryPlaces, record: unknown): void {
  writeJsonFile(installRecordPath(repo), record, { mode: 0o644 });
}

/** Removes the record, and its folder when nothing else lives there (init created it). */
export function removeInstallRecord(repo: RepositoryPlaces): void {
  const path = installRecordPath(repo);
  removeFile(path);
  try {
    rmdirSync(dirname(path));
  } catch {
    // not empty: local state of other commands lives there too
  }
}

/** Where a path is recorded: relative to the common dir or work tree, so a moved repository still uninstalls. */
export function recordPath(repo: RepositoryPlaces, abs: string): { base: 'common' | 'worktree' | 'absolute'; path: string } {
  const inside = (root: string) => {
    const rel = relative(root, abs);
    return rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel.split(sep).join('/') : null;
  };
  const common = inside(repo.paths.commonDir);
  if (common) return { base: 'common', path: common };
  const wt = repo.workTree ? inside(repo.workTree) : null;
  if (wt) return { base: 'worktree', path: wt };
  return { base: 'absolute', path: abs };
}

export function resolveRecordPath(repo: RepositoryPlaces, f: { base: 'common' | 'worktree' | 'absolute'; path: string }): string {
  if (f.base === 'common') return resolve(repo.paths.commonDir, f.path);
  if (f.base === 'worktree') return resolve(repo.workTree ?? repo.paths.commonDir, f.path);
  return f.path;
}
