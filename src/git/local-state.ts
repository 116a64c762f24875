/**
 * Local, per-worktree state under the git dir (`<git-dir>/handoff/<name>.json`): never
 * shared, never in the notes. Written atomically (temporary file, then rename).
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';

export function localStateDir(gitDir: string): string {
  return join(gitDir, 'handoff');
}

export function readLocalState<T>(gitDir: string, name: string): T | null {
  try {
    return JSON.parse(readFileSync(join(localStateDir(gitDir), `${name}.json`), 'utf8')) as T;
  } catch {
    return null;
  }
}

export function writeLocalState(gitDir: string, name: string, value: unknown): void {
  const dir = localStateDir(gitDir);
  mkdirSync(dir, { recursive: true });
  const tmp = join(dir, `.${name}.${process.pid}.${Date.now().toString(36)}.tmp`);
  writeFileSync(tmp, `${JSON.stringify(value, null, 2)}\n`);
  renameSync(tmp, join(dir, `${name}.json`));
}

export function removeLocalState(gitDir: string, name: string): void {
  rmSync(join(localStateDir(gitDir), `${name}.json`), { force: true });
}
