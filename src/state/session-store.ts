/**
 * The agent session records (local state, per worktree): one file per session id under
 * `<git-dir>/handoff/sessions/`, so two agents in one worktree never overwrite each
 * other's record. The single `session.json` older versions wrote is still read (as one
 * more record) and removed once its session is written again or judged finished.
 * Plain fs only: post-commit reads this on every commit.
 */
import { readdirSync, rmSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { readJsonFile } from './json-file.js';
import { localStateDir, readLocalState, removeLocalState, writeLocalState } from './local-state.js';
import { SESSION_STATE, SESSIONS_DIR, type SessionState } from '../core/session.js';

const SAFE_ID = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,99}$/;

/** The file name of a session's record: the id itself when it is a safe name, else `~<hex>`. */
export function sessionKey(id: string): string {
  return SAFE_ID.test(id) ? id : `~${Buffer.from(id, 'utf8').toString('hex').slice(0, 200)}`;
}

const isRecord = (v: unknown): v is SessionState => Boolean(v) && typeof v === 'object' && typeof (v as SessionState).session_id === 'string';

function legacy(gitDir: string): SessionState | null {
  const s = readLocalState<unknown>(gitDir, SESSION_STATE);
  return isRecord(s) ? s : null;
}

/** Every recorded session: the keyed records, and the legacy one unless its id has a keyed record. */
export function readSessions(gitDir: string): SessionState[] {
  const dir = join(localStateDir(gitDir), SESSIONS_DIR);
  const out: SessionState[] = [];
  let names: string[] = [];
  if (existsSync(dir)) {
    try {
      names = readdirSync(dir);
    } catch {
      /* unreadable: as if no session was recorded */
    }
  }
  for (const name of names) {
    if (!name.endsWith('.json') || name.startsWith('.')) continue;
    const v = readJsonFile(join(dir, name)); // a damaged record counts as none
    if (isRecord(v)) out.push(v);
  }
  const old = legacy(gitDir);
  if (old && !out.some((r) => r.session_id === old.session_id)) out.push(old);
  return out;
}

/** The record of one session (keyed, else the legacy one when it holds this id). */
export function readSession(gitDir: string, id: string): SessionState | null {
  const s = readLocalState<unknown>(gitDir, `${SESSIONS_DIR}/${sessionKey(id)}`);
  if (isRecord(s) && s.session_id === id) return s;
  const old = legacy(gitDir);
  return old && old.session_id === id ? old : null;
}

/** Writes a session's own record (atomically); a legacy record of the same session is retired. */
export function writeSession(gitDir: string, s: SessionState): void {
  writeLocalState(gitDir, `${SESSIONS_DIR}/${sessionKey(s.session_id)}`, s);
  if (legacy(gitDir)?.session_id === s.session_id) removeLocalState(gitDir, SESSION_STATE);
}

export function removeSession(gitDir: string, id: string): void {
  rmSync(join(localStateDir(gitDir), SESSIONS_DIR, `${sessionKey(id)}.json`), { force: true });
  if (legacy(gitDir)?.session_id === id) removeLocalState(gitDir, SESSION_STATE);
}

/** Every session record of this git dir (`uninstall`: the agent hooks that wrote them are gone). */
export function forgetSessions(gitDir: string): void {
  rmSync(join(localStateDir(gitDir), SESSIONS_DIR), { recursive: true, force: true });
  removeLocalState(gitDir, SESSION_STATE);
}
