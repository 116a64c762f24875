/**
 * Gemini CLI (geminicli.com/docs/hooks/reference): hooks in `.gemini/settings.json`,
 * timeouts in milliseconds, and stdout must be JSON only. Events: SessionStart (source
 * startup | resume | clear), BeforeAgent (the role of UserPromptSubmit: `prompt`, answers
 * with `hookSpecificOutput.additionalContext`), AfterAgent (the role of Stop: `decision:
 * "deny"` with a `reason` sends the reason back as a new prompt; `stop_hook_active`),
 * PreCompress and SessionEnd (advisory: `systemMessage` only). Gemini fires PreCompress
 * with trigger `auto` on every turn, before it decides whether to compress at all, so only
 * a `manual` one (`/compress`) is taken for a real compaction. Hook processes get
 * `GEMINI_PROJECT_DIR` and `GEMINI_SESSION_ID` (and `CLAUDE_PROJECT_DIR`: Gemini runs
 * Claude-style hooks too).
 */
import { hookEntries, jsonAnswer, type AgentAdapter, type AgentEvent, type AgentReply } from './types.js';

const NATIVE: Record<AgentEvent, string> = {
  'session-start': 'SessionStart',
  'user-prompt-submit': 'BeforeAgent',
  'pre-compact': 'PreCompress',
  stop: 'AfterAgent',
  'session-end': 'SessionEnd',
};

function render(event: AgentEvent, reply: AgentReply): string {
  const out: Record<string, unknown> = {};
  if ((event === 'session-start' || event === 'user-prompt-submit') && reply.context) {
    out.hookSpecificOutput = { hookEventName: NATIVE[event], additionalContext: reply.context };
  }
  if (event === 'stop' && reply.blockStop) Object.assign(out, { decision: 'deny', reason: reply.blockStop });
  const shown = [reply.userMessage, event === 'pre-compact' || event === 'session-end' ? reply.context : undefined].filter(Boolean).join('\n');
  if (shown) out.systemMessage = shown;
  return jsonAnswer(out);
}

export const gemini: AgentAdapter = {
  name: 'gemini',
  title: 'Gemini CLI',
  instructionFiles: ['GEMINI.md'],
  hooks: hookEntries(NATIVE),
  timeout: 30000,
  envFileVars: [],
  sessionEnvVars: ['GEMINI_SESSION_ID'],
  hookFiles: ['.gemini/settings.json'],
  detect: (raw, env) =>
    Boolean(env.GEMINI_PROJECT_DIR) || (typeof raw.hook_event_name === 'string' && ['BeforeAgent', 'AfterAgent', 'PreCompress'].includes(raw.hook_event_name)),
  runsHooksOf: [],
  promptContext: true,
  compacts: (input) => input.trigger === 'manual',
  render,
};
