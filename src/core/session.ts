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
  [k: string]: unknown;
}

export const SESSION_STATE = 'session';
