/**
 * Local, per-worktree state under the git dir (`<git-dir>/handoff/<name>.json`): never
 * shared, never in the notes. JSON files (./json-file.ts).
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { readJsonFile, writeJsonFile } from './json-file.js';

export function localStateDir(gitDir: string): string {
  return join(gitDir, 'handoff');
}

export function readLocalState<T>(gitDir: string, name: string): T | null {
  return readJsonFile<T>(join(localStateDir(gitDir), `${name}.json`));
}

/** `name` may name a file in a subfolder (`sessions/<key>`). */
export function writeLocalState(gitDir: string, name: string, value: unknown): void {
  writeJsonFile(join(localStateDir(gitDir), `${name}.json`), value);
}

export function removeLocalState(gitDir: string, name: string): void {
  rmSync(join(localStateDir(gitDir), `${name}.json`), { force: true });
}
