/**
 * The agent session as the agent hooks record it (local state `session`, per worktree).
 * The post-commit rule reads `started_head`: the first non-excluded commit after the start
 * of the session is always substantive (DESIGN.md "Git hooks").
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
  /** ISO-8601 UTC: when the user last said a session-end phrase */
  end_requested_at?: string | null;
  /** the closing ritual was proposed once; it is not proposed again in this session */
  ritual_proposed?: boolean;
  /** the `end_requested_at` for which the stop was already blocked once */
  stop_blocked_for?: string | null;
  [k: string]: unknown;
}

export const SESSION_STATE = 'session';
