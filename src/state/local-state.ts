/**
 * Local, per-worktree state under the git dir (`<git-dir>/handoff/<name>.json`): never
 * shared, never in the notes. Written atomically (temporary file, then rename).
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

export function localStateDir(gitDir: string): string {
  return join(gitDir, 'handoff');
}

export function readLocalState<T>(gitDir: string, name: string): T | null {
  const file = join(localStateDir(gitDir), `${name}.json`);
  // Usually absent (hooks read it on every commit): no exception for the common answer.
  if (!existsSync(file)) return null;
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as T;
  } catch {
    return null;
  }
}

/** `name` may name a file in a subfolder (`sessions/<key>`). */
export function writeLocalState(gitDir: string, name: string, value: unknown): void {
  const file = join(localStateDir(gitDir), `${name}.json`);
  const dir = dirname(file);
  mkdirSync(dir, { recursive: true });
  const tmp = join(dir, `.${basename(file, '.json')}.${process.pid}.${Date.now().toString(36)}.tmp`);
  writeFileSync(tmp, `${JSON.stringify(value, null, 2)}\n`);
  renameSync(tmp, file);
}

export function removeLocalState(gitDir: string, name: string): void {
  rmSync(join(localStateDir(gitDir), `${name}.json`), { force: true });
}
