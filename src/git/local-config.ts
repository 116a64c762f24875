/**
 * The git side of `init` / `uninstall`: the effective hooks folder and `git config --local`
 * (the files and the install record are in ../state/install-files.ts).
 */
import { join } from 'node:path';
import type { Repo } from './repo.js';
import { GitFailed } from '../errors.js';
import { fileState } from '../state/install-files.js';
import { writeFileAtomic } from '../state/atomic-write.js';

/** The effective hooks folder: `git rev-parse --git-path hooks` (core.hooksPath honoured). */
export async function effectiveHooksDir(repo: Repo): Promise<string> {
  const out = await repo.git(['rev-parse', '--path-format=absolute', '--git-path', 'hooks'], { readOnly: true });
  return out.trim();
}

/** The local config file `git config --local` writes. */
export function localConfigPath(repo: Repo): string {
  return join(repo.paths.commonDir, 'config');
}

export async function configLocal(repo: Repo, action: 'set' | 'add' | 'unset', key: string, value: string): Promise<void> {
  const args =
    action === 'set'
      ? ['config', '--local', key, value]
      : action === 'add'
        ? ['config', '--local', '--add', key, value]
        : ['config', '--local', '--fixed-value', '--unset-all', key, value];
  const r = await repo.runGit(args);
  // exit 5: nothing to unset, which is what we wanted.
  if (r.code !== 0 && !(action === 'unset' && r.code === 5)) throw new GitFailed(`git config ${key} failed: ${r.stderr.trim().split('\n')[0]}`);
}

/** Local config values of `key` (not global or system). */
export async function configLocalAll(repo: Repo, key: string): Promise<string[]> {
  const r = await repo.runGit(['config', '--local', '--get-all', key], { readOnly: true });
  return r.code === 0
    ? r.stdout
        .toString('utf8')
        .split('\n')
        .filter((l) => l !== '')
    : [];
}

/** Removes `[section]` from the local config when it holds nothing any more. */
export async function removeEmptySection(repo: Repo, section: string): Promise<void> {
  const r = await repo.runGit(['config', '--local', '--get-regexp', `^${section.replace(/\./g, '\\.')}\\.`], { readOnly: true });
  if (r.code === 0 && r.stdout.length) return;
  const text = fileState(localConfigPath(repo)).data?.toString('utf8');
  if (!text) return;
  // git leaves an empty `[section]` header behind after unsetting its last key.
  const re = new RegExp(`^\\[${section.replace(/\./g, '\\.')}\\]\\s*\\n(?=\\[|$)`, 'im');
  if (re.test(text)) writeFileAtomic(localConfigPath(repo), text.replace(re, ''), { mode: fileState(localConfigPath(repo)).mode ?? 0o644 });
}
