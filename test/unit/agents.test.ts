import { describe, expect, it } from 'vitest';
import { AGENTS, agentEvent } from '../../src/agents/index.js';
import { parseHookInput } from '../../src/agents/types.js';

const reply = { context: 'CTX', blockStop: 'WHY', userMessage: 'SEE' };
const json = (s: string) => (s ? JSON.parse(s) : null);

describe('agent output formats', () => {
  it('Claude Code: additionalContext on SessionStart/UserPromptSubmit, decision block on Stop, systemMessage for PreCompact, nothing for SessionEnd', () => {
    const c = AGENTS.claude;
    expect(json(c.render('session-start', { context: 'CTX' }))).toEqual({ hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: 'CTX' } });
    expect(json(c.render('user-prompt-submit', { context: 'CTX' }))).toEqual({
      hookSpecificOutput: { hookEventName: 'UserPromptSubmit', additionalContext: 'CTX' },
    });
    expect(json(c.render('stop', { blockStop: 'WHY' }))).toEqual({ decision: 'block', reason: 'WHY' });
    expect(json(c.render('pre-compact', { userMessage: 'SEE' }))).toEqual({ systemMessage: 'SEE' });
    expect(c.render('session-end', reply)).toBe('');
    expect(c.render('session-start', {})).toBe('');
    expect(c.render('stop', {})).toBe('');
  });

  it('Codex answers as Claude Code does', () => {
    for (const ev of ['session-start', 'user-prompt-submit', 'stop', 'pre-compact'] as const) {
      expect(AGENTS.codex.render(ev, reply)).toBe(AGENTS.claude.render(ev, reply));
    }
    // SessionEnd since Codex 0.169; its output is ignored, and Codex rejects unknown fields
    expect(AGENTS.codex.hooks.map((h) => h.native)).toEqual(['SessionStart', 'UserPromptSubmit', 'PreCompact', 'Stop', 'SessionEnd']);
    expect(AGENTS.codex.render('session-end', reply)).toBe('');
  });

  it('Gemini CLI: BeforeAgent context, AfterAgent deny with reason, JSON only', () => {
    const g = AGENTS.gemini;
    expect(json(g.render('session-start', { context: 'CTX' }))).toEqual({ hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: 'CTX' } });
    expect(json(g.render('user-prompt-submit', { context: 'CTX' }))).toEqual({
      hookSpecificOutput: { hookEventName: 'BeforeAgent', additionalContext: 'CTX' },
    });
    expect(json(g.render('stop', { blockStop: 'WHY' }))).toEqual({ decision: 'deny', reason: 'WHY' });
    expect(json(g.render('pre-compact', { userMessage: 'SEE' }))).toEqual({ systemMessage: 'SEE' });
    for (const ev of ['session-start', 'user-prompt-submit', 'stop', 'pre-compact', 'session-end'] as const) {
      const out = g.render(ev, reply);
      if (out) expect(() => JSON.parse(out)).not.toThrow();
    }
  });
});

describe('agent events and input', () => {
  it('accepts our names and each agent’s own', () => {
    expect(agentEvent(AGENTS.claude, 'session-start')).toBe('session-start');
    expect(agentEvent(AGENTS.claude, 'SessionStart')).toBe('session-start');
    expect(agentEvent(AGENTS.claude, 'UserPromptSubmit')).toBe('user-prompt-submit');
    expect(agentEvent(AGENTS.gemini, 'BeforeAgent')).toBe('user-prompt-submit');
    expect(agentEvent(AGENTS.gemini, 'AfterAgent')).toBe('stop');
    expect(agentEvent(AGENTS.gemini, 'PreCompress')).toBe('pre-compact');
    expect(agentEvent(AGENTS.claude, 'PreToolUse')).toBeNull();
  });

  it('normalizes the fields the agents send and reports bad input without throwing', () => {
    const r = parseHookInput(
      JSON.stringify({ session_id: 'abc', transcript_path: '/t', cwd: '/w', hook_event_name: 'Stop', stop_hook_active: true, permission_mode: 'default' }),
    );
    expect(r).toMatchObject({ input: { sessionId: 'abc', cwd: '/w', nativeEvent: 'Stop', stopHookActive: true, prompt: null } });
    expect(parseHookInput('')).toEqual({ problem: expect.stringContaining('no hook input') });
    expect(parseHookInput('{oops')).toEqual({ problem: expect.stringContaining('not JSON') });
    // the parser's message quotes the input: one whole line, whatever the input holds
    const multi = parseHookInput(`nope\n${'x'.repeat(500)}\nmore`) as { problem: string };
    expect(multi.problem).not.toContain('\n');
    expect(multi.problem).toMatch(/^hook input is not JSON: .*(valid JSON|\.\.\.)$/);
    expect(multi.problem.length).toBeLessThanOrEqual(200);
    expect(parseHookInput('[1]')).toEqual({ problem: 'hook input is not a JSON object' });
  });
});
