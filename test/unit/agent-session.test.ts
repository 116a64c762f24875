import { describe, expect, it } from 'vitest';
import {
  SESSION_IDLE_SECONDS,
  decidePrompt,
  decideSessionEnd,
  decideSessionStart,
  decideStop,
  finishedSessions,
  previousSession,
  sessionFor,
} from '../../src/core/agent-session.js';
import { currentSession, type SessionState } from '../../src/core/session.js';

const base: SessionState = {
  session_id: 's1',
  agent: 'claude',
  started_at: '2026-01-01T00:00:00Z',
  started_head: 'a'.repeat(40),
  wrote_handoff: false,
  ended_at: null,
};
const start = (own: SessionState | null, sessionId: string, previousWrote: boolean | null) =>
  decideSessionStart(own, { sessionId, agent: 'claude', now: '2026-01-02T00:00:00Z', head: 'b'.repeat(40), previousWrote });

describe('decideSessionStart', () => {
  it('a first session starts a record and says nothing about a previous one', () => {
    const d = start(null, 's1', null);
    expect(d).toEqual({
      state: {
        session_id: 's1',
        agent: 'claude',
        started_at: '2026-01-02T00:00:00Z',
        started_head: 'b'.repeat(40),
        wrote_handoff: false,
        ended_at: null,
        seen_at: '2026-01-02T00:00:00Z',
      },
      continuing: false,
      previousEndedWithout: false,
    });
  });
  it('a new session after one that wrote nothing says so', () => {
    expect(start(null, 's2', false).previousEndedWithout).toBe(true);
    expect(start(null, 's2', true).previousEndedWithout).toBe(false);
    // another session's record is never taken for this one's
    expect(start(base, 's2', null)).toMatchObject({ continuing: false, previousEndedWithout: false, state: { session_id: 's2' } });
  });
  it('the same session resumed or compacted continues its record', () => {
    const d = start({ ...base, ended_at: '2026-01-01T01:00:00Z', ritual_proposed: true }, 's1', null);
    expect(d.continuing).toBe(true);
    expect(d.previousEndedWithout).toBe(false);
    expect(d.state).toEqual({ ...base, ended_at: null, ritual_proposed: true, seen_at: '2026-01-02T00:00:00Z' });
  });
});

describe('several sessions in one worktree', () => {
  const rec = (id: string, started: string, extra: Partial<SessionState> = {}): SessionState => ({ ...base, session_id: id, started_at: started, ...extra });
  const now = '2026-01-02T12:00:00Z';
  const idle = new Date(Date.parse(now) - SESSION_IDLE_SECONDS * 1000).toISOString().replace('.000', '');
  const justBefore = new Date(Date.parse(now) - SESSION_IDLE_SECONDS * 1000 + 1000).toISOString().replace('.000', '');

  it('finished: ended, or silent for the idle time; a live one beside it is not', () => {
    const records = [
      rec('ended', '2026-01-02T11:00:00Z', { ended_at: '2026-01-02T11:30:00Z' }),
      rec('live', '2026-01-01T00:00:00Z', { seen_at: justBefore }),
      rec('silent', '2026-01-01T00:00:00Z', { seen_at: idle }),
      rec('never-heard', '2026-01-01T00:00:00Z'),
      rec('fresh', '2026-01-02T11:59:00Z'),
    ];
    expect(finishedSessions(records, now).map((r) => r.session_id)).toEqual(['ended', 'silent', 'never-heard']);
  });

  it('the previous session is the finished one that ended last', () => {
    expect(previousSession([])).toBeNull();
    const a = rec('a', '2026-01-01T00:00:00Z', { ended_at: '2026-01-01T05:00:00Z' });
    const b = rec('b', '2026-01-01T01:00:00Z', { ended_at: '2026-01-01T03:00:00Z' });
    const c = rec('c', '2026-01-01T02:00:00Z', { seen_at: '2026-01-01T04:00:00Z' });
    expect(previousSession([b, a, c])?.session_id).toBe('a');
    expect(previousSession([b, c])?.session_id).toBe('c');
  });

  it('the current session: the one HANDOFF_SESSION_ID names while live, else the live one that started last', () => {
    const records = [
      rec('a', '2026-01-01T01:00:00Z'),
      rec('b', '2026-01-01T02:00:00Z'),
      rec('c', '2026-01-01T03:00:00Z', { ended_at: '2026-01-01T04:00:00Z' }),
    ];
    expect(currentSession(records, undefined)?.session_id).toBe('b');
    expect(currentSession(records, 'a')?.session_id).toBe('a');
    expect(currentSession(records, 'c')?.session_id).toBe('b');
    expect(currentSession(records, 'unknown')?.session_id).toBe('b');
    expect(currentSession([records[2]], undefined)).toBeNull();
    expect(currentSession([], 'a')).toBeNull();
  });
});

describe('decidePrompt', () => {
  it('a session-end phrase: write now, and the ritual only the first time', () => {
    const a = decidePrompt(base, 'session-end', 'T1');
    expect(a.answer).toEqual({ kind: 'write-now', proposeRitual: true });
    expect(a.state).toMatchObject({ end_requested_at: 'T1', ritual_proposed: true });
    const b = decidePrompt(a.state, 'session-end', 'T2');
    expect(b.answer).toEqual({ kind: 'write-now', proposeRitual: false });
    expect(b.state.end_requested_at).toBe('T2');
  });
  it('ambiguous asks; task and none say nothing and change nothing', () => {
    expect(decidePrompt(base, 'ambiguous', 'T')).toEqual({ state: base, answer: { kind: 'ask-scope' } });
    expect(decidePrompt(base, 'task', 'T')).toEqual({ state: base, answer: { kind: 'silent' } });
    expect(decidePrompt(base, 'none', 'T')).toEqual({ state: base, answer: { kind: 'silent' } });
  });
});

describe('decideStop', () => {
  const ended = { ...base, end_requested_at: 'T1' };
  it('blocks once after a session-end phrase while no handoff was written', () => {
    const a = decideStop(ended, { stopHookActive: false, wroteHandoff: false });
    expect(a.block).toBe(true);
    expect(decideStop(a.state, { stopHookActive: false, wroteHandoff: false }).block).toBe(false);
  });
  it('never blocks when the stop hook is already active, a handoff was written, or no end was asked', () => {
    expect(decideStop(ended, { stopHookActive: true, wroteHandoff: false }).block).toBe(false);
    expect(decideStop(ended, { stopHookActive: false, wroteHandoff: true }).block).toBe(false);
    expect(decideStop(base, { stopHookActive: false, wroteHandoff: false }).block).toBe(false);
    expect(decideStop(null, { stopHookActive: false, wroteHandoff: false }).block).toBe(false);
  });
  it('a new session-end phrase may block once more', () => {
    const a = decideStop(ended, { stopHookActive: false, wroteHandoff: false });
    expect(decideStop({ ...a.state!, end_requested_at: 'T2' }, { stopHookActive: false, wroteHandoff: false }).block).toBe(true);
  });
});

describe('decideSessionEnd and sessionFor', () => {
  it('records the end and whether a handoff was written', () => {
    expect(decideSessionEnd(base, { now: 'T9', wroteHandoff: true })).toEqual({ ...base, ended_at: 'T9', wrote_handoff: true });
    expect(decideSessionEnd({ ...base, wrote_handoff: true }, { now: 'T9', wroteHandoff: false }).wrote_handoff).toBe(true);
  });
  it('starts a record for a session the hooks did not see start', () => {
    expect(sessionFor(base, 's1', 'claude', 'T', null)).toBe(base);
    expect(sessionFor(base, 's2', 'codex', 'T', null)).toEqual({
      session_id: 's2',
      agent: 'codex',
      started_at: 'T',
      started_head: null,
      wrote_handoff: false,
      ended_at: null,
    });
  });
});
