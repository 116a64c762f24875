/**
 * What the agent hooks decide, given the recorded sessions and the event. Pure:
 * the state before and the facts in, the state after and the answer out. Each session has
 * its own record, so two agents in one worktree never judge or overwrite each other. The
 * use cases in `src/app/agent-hook.ts` gather the facts and store the state.
 */
import { currentSession, type SessionState } from './session.js';
import type { PhraseClass } from './phrases.js';

export interface SessionStartFacts {
  sessionId: string;
  agent: string;
  now: string;
  head: string | null;
  /** did the previous session (see `previousSession`) write a handoff? null when there is none */
  previousWrote: boolean | null;
}

export interface SessionStartDecision {
  state: SessionState;
  /** the same session resumed, cleared into itself or compacted: nothing about "the previous one" */
  continuing: boolean;
  /** say "the previous session ended without writing a handoff" */
  previousEndedWithout: boolean;
}

/**
 * A session that never reports its end (Codex has no SessionEnd; an agent may be killed)
 * counts as ended once none of its hooks has run for this long. Until then it may be
 * running beside a new one in the same worktree.
 */
export const SESSION_IDLE_SECONDS = 12 * 3600;

const lastHeard = (s: SessionState): string => s.seen_at ?? s.started_at;

/**
 * The other sessions' records a new session start judges and retires: those that ended,
 * or fell silent `SESSION_IDLE_SECONDS` ago. A live one may be another agent working in
 * the same worktree right now: it is neither "the previous session" nor touched.
 */
export function finishedSessions(others: SessionState[], now: string): SessionState[] {
  const at = Date.parse(now);
  return others.filter((s) => s.ended_at || !(at - Date.parse(lastHeard(s)) < SESSION_IDLE_SECONDS * 1000));
}

/**
 * The recorded session a write that names none is credited to (an agent whose shell commands
 * get no session id): the live one that started last, never one that ended or fell silent
 * `SESSION_IDLE_SECONDS` ago, which `uninstall` or a crash may have left behind.
 */
export function sessionForWrite(records: SessionState[], now: string): SessionState | null {
  const finished = new Set(finishedSessions(records, now));
  return currentSession(
    records.filter((r) => !finished.has(r)),
    undefined,
  );
}

/** The previous session: of the finished ones, the one that ended (or was last heard from) last. */
export function previousSession(finished: SessionState[]): SessionState | null {
  const end = (s: SessionState) => s.ended_at ?? lastHeard(s);
  return finished.reduce<SessionState | null>((best, s) => (!best || end(s) > end(best) ? s : best), null);
}

/** The session's own record continues (resumed, cleared into itself, compacted); a new id starts a new one. */
export function decideSessionStart(own: SessionState | null, f: SessionStartFacts): SessionStartDecision {
  if (own && own.session_id === f.sessionId) {
    return { state: { ...own, ended_at: null, seen_at: f.now }, continuing: true, previousEndedWithout: false };
  }
  const state: SessionState = {
    session_id: f.sessionId,
    agent: f.agent,
    started_at: f.now,
    started_head: f.head,
    wrote_handoff: false,
    ended_at: null,
    seen_at: f.now,
  };
  return { state, continuing: false, previousEndedWithout: f.previousWrote === false };
}

/** The record for `sessionId`, or a fresh one when the hooks meet a session they did not see start. */
export function sessionFor(own: SessionState | null, sessionId: string, agent: string, now: string, head: string | null): SessionState {
  if (own && own.session_id === sessionId) return own;
  return { session_id: sessionId, agent, started_at: now, started_head: head, wrote_handoff: false, ended_at: null };
}

export type PromptAnswer = { kind: 'write-now'; proposeRitual: boolean } | { kind: 'ask-scope' } | { kind: 'silent' };

/**
 * A session-end phrase: write the handoff now, and propose the closing ritual once per
 * session (a declined ritual is not proposed again). Ambiguous: ask. Anything
 * else, task phrases included: say nothing.
 */
export function decidePrompt(state: SessionState, cls: PhraseClass, now: string): { state: SessionState; answer: PromptAnswer } {
  if (cls === 'session-end') {
    const proposeRitual = !state.ritual_proposed;
    return { state: { ...state, end_requested_at: now, ritual_proposed: true }, answer: { kind: 'write-now', proposeRitual } };
  }
  if (cls === 'ambiguous') return { state, answer: { kind: 'ask-scope' } };
  return { state, answer: { kind: 'silent' } };
}

/**
 * Stop: after a session-end phrase, while no handoff was written in this session, block
 * once; never when the agent is already continuing because of a stop hook.
 */
export function decideStop(state: SessionState | null, f: { stopHookActive: boolean; wroteHandoff: boolean }): { state: SessionState | null; block: boolean } {
  if (!state || !state.end_requested_at || f.stopHookActive || f.wroteHandoff) return { state, block: false };
  if (state.stop_blocked_for === state.end_requested_at) return { state, block: false };
  return { state: { ...state, stop_blocked_for: state.end_requested_at }, block: true };
}

/** Session end: when it ended and whether it wrote a handoff. */
export function decideSessionEnd(state: SessionState, f: { now: string; wroteHandoff: boolean }): SessionState {
  return { ...state, ended_at: f.now, wrote_handoff: state.wrote_handoff || f.wroteHandoff };
}
