/**
 * git's ownership rule (setup.c ensure_valid_ownership, Documentation/config/safe.txt, git
 * 2.39): a discovered repository whose work tree, git dir or `.git` file is not owned by
 * the current user is refused unless `safe.directory` names it (or is `*`), read only from
 * the system, global and command-line config, never from the repository's own files. And
 * `safe.bareRepository=explicit` refuses a bare repository found by discovery. Each answer
 * is git's, or `undefined`: the caller then asks git itself.
 */
import { lstatSync } from 'node:fs';
import { envBool, gitPrefix, readProtectedConfig } from './config-file.js';
import type { ConfigEntry } from './config-text.js';

/** git-compat-util.h is_path_owned_by_current_uid: lstat, and root acting for SUDO_UID. */
export function ownedByCurrentUser(path: string): boolean {
  const st = lstatSync(path, { throwIfNoEntry: false });
  if (!st) return false;
  let euid = process.geteuid!();
  if (euid === 0) {
    if (st.uid === 0) return true;
    const sudo = process.env.SUDO_UID;
    if (sudo && /^\d+$/.test(sudo) && Number(sudo) <= 0xffffffff) euid = Number(sudo);
  }
  return st.uid === euid;
}

/** safe.directory's value with `~/` and `%(prefix)/` expanded (git_config_pathname); undefined: only git can say. */
function interpolate(value: string): string | undefined {
  if (value.startsWith('%(prefix)/')) {
    const rest = value.slice('%(prefix)/'.length);
    if (rest.startsWith('/')) return rest;
    const prefix = gitPrefix();
    return prefix ? `${prefix}/${rest}` : undefined;
  }
  if (value.startsWith('~')) {
    const slash = value.indexOf('/');
    const user = slash < 0 ? value.slice(1) : value.slice(1, slash);
    const home = process.env.HOME;
    if (user !== '' || home === undefined) return undefined; // ~user, or git dies: git says it
    return home + (slash < 0 ? '' : value.slice(slash));
  }
  return value;
}

/** Whether the protected config lists `path` (safe_directory_cb: the last matching rule wins, an empty value resets). */
function listedSafe(entries: ConfigEntry[], path: string): boolean | undefined {
  let safe = false;
  for (const [key, value] of entries) {
    if (key !== 'safe.directory') continue;
    if (value === null || value === '') safe = false;
    else if (value === '*') safe = true;
    else {
      const p = interpolate(value);
      if (p === undefined) return undefined;
      if (p === path) safe = true;
    }
  }
  return safe;
}

export type Verdict = 'ok' | 'dubious' | 'bare-disallowed';

/**
 * The ownership verdict on a discovered repository: `gitfile` is the `.git` file when there
 * is one, `worktree` the directory holding `.git` (null for a bare repository), `gitDir`
 * the git dir. `path` names the repository in git's message and in safe.directory.
 */
export function ownershipVerdict(gitfile: string | null, worktree: string | null, gitDir: string): Verdict | undefined {
  const assumeOther = envBool('GIT_TEST_ASSUME_DIFFERENT_OWNER', false);
  if (assumeOther === undefined) return undefined;
  if (!assumeOther && (!gitfile || ownedByCurrentUser(gitfile)) && (!worktree || ownedByCurrentUser(worktree)) && ownedByCurrentUser(gitDir)) {
    return 'ok';
  }
  const entries = readProtectedConfig();
  if (!entries) return undefined;
  const safe = listedSafe(entries, worktree ?? gitDir);
  return safe === undefined ? undefined : safe ? 'ok' : 'dubious';
}

/** safe.bareRepository from the protected config: 'all' (git's default) or 'explicit'; undefined: git would die or cannot be read here. */
export function allowedBare(): 'all' | 'explicit' | undefined {
  const entries = readProtectedConfig();
  if (!entries) return undefined;
  let allowed: 'all' | 'explicit' = 'all';
  for (const [key, value] of entries) {
    if (key !== 'safe.barerepository') continue;
    if (value === 'all' || value === 'explicit') allowed = value;
    else return undefined;
  }
  return allowed;
}

/** sq_quote_buf_pretty: a path as git prints it in its `git config --add safe.directory` advice. */
export function shellQuotePretty(s: string): string {
  if (s !== '' && /^[A-Za-z0-9+,\-./:=@_^]+$/.test(s)) return s;
  return `'${s.replace(/'/g, "'\\''")}'`;
}
