/**
 * What the agent hooks decide, given the recorded session and the event (issue 5). Pure:
 * the state before and the facts in, the state after and the answer out. The use cases in
 * `src/app/agent-hook.ts` gather the facts and store the state.
 */
import type { SessionState } from './session.js';
import type { PhraseClass } from './phrases.js';

export interface SessionStartFacts {
  sessionId: string;
  agent: string;
  now: string;
  head: string | null;
  /** did the recorded (previous) session write a handoff? null when unknown or none recorded */
  previousWrote: boolean | null;
}

export interface SessionStartDecision {
  state: SessionState;
  /** the same session resumed, cleared into itself or compacted: nothing about "the previous one" */
  continuing: boolean;
  /** say "the previous session ended without writing a handoff" */
  previousEndedWithout: boolean;
}

/** A new session id starts a new record; the same id continues the recorded one. */
export function decideSessionStart(prev: SessionState | null, f: SessionStartFacts): SessionStartDecision {
  if (prev && prev.session_id === f.sessionId) {
    // resumed (even after it ended), cleared into itself, or compacted: the same session goes on
    return { state: prev.ended_at ? { ...prev, ended_at: null } : prev, continuing: true, previousEndedWithout: false };
  }
  const state: SessionState = {
    session_id: f.sessionId,
    agent: f.agent,
    started_at: f.now,
    started_head: f.head,
    wrote_handoff: false,
    ended_at: null,
  };
  return { state, continuing: false, previousEndedWithout: prev !== null && prev.session_id !== f.sessionId && f.previousWrote === false };
}

/** The record for `sessionId`, or a fresh one when the hooks meet a session they did not see start. */
export function sessionFor(prev: SessionState | null, sessionId: string, agent: string, now: string, head: string | null): SessionState {
  if (prev && prev.session_id === sessionId) return prev;
  return { session_id: sessionId, agent, started_at: now, started_head: head, wrote_handoff: false, ended_at: null };
}

export type PromptAnswer =
  | { kind: 'write-now'; proposeRitual: boolean }
  | { kind: 'ask-scope' }
  | { kind: 'silent' };

/**
 * A session-end phrase: write the handoff now, and propose the closing ritual once per
 * session (seed 001: a declined ritual is not proposed again). Ambiguous: ask. Anything
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
