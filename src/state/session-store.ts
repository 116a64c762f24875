/**
 * The agent session records (local state, per worktree): one file per session id under
 * `<git-dir>/handoff/sessions/`, so two agents in one worktree never overwrite each
 * other's record. The single `session.json` older versions wrote is still read (as one
 * more record) and removed once its session is written again or judged finished.
 * Plain fs only: post-commit reads this on every commit.
 */
import { readdirSync, rmSync, existsSync, lstatSync } from 'node:fs';
import { join } from 'node:path';
import { readJsonFile } from './json-file.js';
import { writeFileAtomic } from './atomic-write.js';
import { localStateDir, readLocalState, removeLocalState, writeLocalState } from './local-state.js';
import { END_REQUESTED_SUFFIX, SAFE_SESSION_ID, SEEN_SUFFIX, SESSION_STATE, SESSIONS_DIR, stopMayBlock, type SessionState } from '../core/session.js';

/** The file name of a session's record: the id itself when it is a safe name, else `~<hex>`. */
export function sessionKey(id: string): string {
  return SAFE_SESSION_ID.test(id) ? id : `~${Buffer.from(id, 'utf8').toString('hex').slice(0, 200)}`;
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
    if (isRecord(v)) out.push(withSeen(gitDir, v));
  }
  const old = legacy(gitDir);
  if (old && !out.some((r) => r.session_id === old.session_id)) out.push(old);
  return out;
}

/** The record of one session (keyed, else the legacy one when it holds this id). */
export function readSession(gitDir: string, id: string): SessionState | null {
  const s = readLocalState<unknown>(gitDir, `${SESSIONS_DIR}/${sessionKey(id)}`);
  if (isRecord(s) && s.session_id === id) return withSeen(gitDir, s);
  const old = legacy(gitDir);
  return old && old.session_id === id ? old : null;
}

const besideRecord = (gitDir: string, id: string, suffix: string) => join(localStateDir(gitDir), SESSIONS_DIR, `${sessionKey(id)}${suffix}`);

/** The record with `seen_at` the later of its own and the modification time of `<key>.seen` (the shell's stops touch it). */
function withSeen(gitDir: string, s: SessionState): SessionState {
  let mtime: number;
  try {
    const st = lstatSync(besideRecord(gitDir, s.session_id, SEEN_SUFFIX));
    if (!st.isFile()) return s; // a link or anything else there is not ours
    mtime = st.mtimeMs;
  } catch {
    return s;
  }
  const seen = new Date(Math.floor(mtime / 1000) * 1000).toISOString().replace('.000Z', 'Z');
  return s.seen_at && s.seen_at >= seen ? s : { ...s, seen_at: seen };
}

/**
 * Writes a session's own record (atomically); a legacy record of the same session is
 * retired. The end-requested mark beside it follows the record: made before a record whose
 * stop may block is written, removed after one whose stop may not, so the shell never
 * answers a stop that Node would block.
 */
export function writeSession(gitDir: string, s: SessionState): void {
  const mark = besideRecord(gitDir, s.session_id, END_REQUESTED_SUFFIX);
  const blocks = stopMayBlock(s);
  if (blocks) writeFileAtomic(mark, `${s.end_requested_at}\n`);
  writeLocalState(gitDir, `${SESSIONS_DIR}/${sessionKey(s.session_id)}`, s);
  if (!blocks) rmSync(mark, { force: true });
  if (legacy(gitDir)?.session_id === s.session_id) removeLocalState(gitDir, SESSION_STATE);
}

export function removeSession(gitDir: string, id: string): void {
  rmSync(join(localStateDir(gitDir), SESSIONS_DIR, `${sessionKey(id)}.json`), { force: true });
  for (const suffix of [END_REQUESTED_SUFFIX, SEEN_SUFFIX]) rmSync(besideRecord(gitDir, id, suffix), { force: true });
  if (legacy(gitDir)?.session_id === id) removeLocalState(gitDir, SESSION_STATE);
}

/** Every session record of this git dir (`uninstall`: the agent hooks that wrote them are gone). */
export function forgetSessions(gitDir: string): void {
  rmSync(join(localStateDir(gitDir), SESSIONS_DIR), { recursive: true, force: true });
  removeLocalState(gitDir, SESSION_STATE);
}
