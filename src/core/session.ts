/**
 * The agent sessions as the agent hooks record them: one record per session id, per
 * worktree (local state `sessions/<id>.json`; older versions kept a single record in
 * `session.json`, still read). The post-commit rule reads `started_head`: the first
 * non-excluded commit after the start of the current session is always substantive
 * (docs/hooks.md).
 */
export interface SessionState {
  session_id: string;
  agent: 'claude' | 'codex' | 'gemini' | string;
  /** ISO-8601 UTC */
  started_at: string;
  /** HEAD when the session started (null on an unborn branch) */
  started_head: string | null;
  /** a version was written during this session */
  wrote_handoff: boolean;
  /** ISO-8601 UTC, set by the session-end hook */
  ended_at?: string | null;
  /** ISO-8601 UTC: the last hook event of this session */
  seen_at?: string | null;
  /** ISO-8601 UTC: when the user last said a session-end phrase */
  end_requested_at?: string | null;
  /** the closing ritual was proposed once; it is not proposed again in this session */
  ritual_proposed?: boolean;
  /** the version the session was shown (its session-start bookmark, or the last it wrote): a whole-document write continues it */
  shown_version?: string | null;
  /** the `end_requested_at` for which the stop was already blocked once */
  stop_blocked_for?: string | null;
  [k: string]: unknown;
}

/** The single record of older versions (`<git-dir>/handoff/session.json`): read, never written. */
export const SESSION_STATE = 'session';
/** One record per session: `<git-dir>/handoff/sessions/<key>.json`. */
export const SESSIONS_DIR = 'sessions';

/** A session id that is its record's file name as it is (any other id is hex-encoded). */
export const SAFE_SESSION_ID = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,99}$/;

/**
 * Beside a record, for the agent hooks' shell fast path (bin/git-handoff-hook): while
 * `<key>.end-requested` exists the session's next stop may block, so the shell leaves the
 * stop to Node; without it the shell answers the stop itself and records that the session
 * was heard from by touching `<key>.seen`, whose modification time counts as `seen_at`.
 */
export const END_REQUESTED_SUFFIX = '.end-requested';
export const SEEN_SUFFIX = '.seen';

/** May this session's next stop block (a session end was asked for, and neither a handoff nor a block answered it yet)? */
export function stopMayBlock(s: SessionState): boolean {
  return Boolean(s.end_requested_at) && !s.ended_at && !s.wrote_handoff && s.stop_blocked_for !== s.end_requested_at;
}

/**
 * The session a hook or command acts for: the one named by `HANDOFF_SESSION_ID` (exported
 * to the agent's shell commands) while it is live, else the live one that started last.
 * Null when no session is live.
 */
export function currentSession(records: SessionState[], envId: string | undefined): SessionState | null {
  const live = records.filter((r) => !r.ended_at);
  if (envId) {
    const named = live.find((r) => r.session_id === envId);
    if (named) return named;
  }
  return live.reduce<SessionState | null>((best, r) => (!best || r.started_at > best.started_at ? r : best), null);
}
