/**
 * Cursor (cursor.com/docs/agent/hooks): `.cursor/hooks.json`, `{"version": 1, "hooks":
 * {"sessionStart": [{"command": "...", "timeout": 30}], ...}}`, flat entries (no groups),
 * timeouts in seconds. Every input carries `conversation_id`, `generation_id`,
 * `hook_event_name`, `workspace_roots` and `cursor_version`; sessionStart and sessionEnd
 * add `session_id` (the conversation's id). Answers:
 * - sessionStart: `{"additional_context": "..."}` for the model;
 * - beforeSubmitPrompt: `{"continue": true}` only: it cannot add context, so a session-end
 *   phrase reaches the model through the stop below;
 * - stop (`status`, `loop_count`): `{"followup_message": "..."}` is sent as the next user
 *   message (at most `loop_limit` times): our stop blocked once;
 * - preCompact (`trigger`, `context_usage_percent`, ...): `{"user_message": "..."}`;
 * - sessionEnd (`reason`, `duration_ms`): fire and forget.
 * Cursor also runs Claude Code's hooks ("third-party hooks"): the input tells it apart.
 */
import { hookEntries, jsonAnswer, type AgentAdapter, type AgentEvent, type AgentReply } from './types.js';

function render(event: AgentEvent, reply: AgentReply): string {
  const out: Record<string, unknown> = {};
  if (event === 'session-start' && reply.context) out.additional_context = reply.context;
  if (event === 'user-prompt-submit') out.continue = true;
  if (event === 'stop' && reply.blockStop) out.followup_message = reply.blockStop;
  if (event === 'pre-compact') {
    const text = [reply.userMessage, reply.context].filter(Boolean).join('\n');
    if (text) out.user_message = text;
  }
  return jsonAnswer(out);
}

export const cursor: AgentAdapter = {
  name: 'cursor',
  title: 'Cursor',
  instructionFiles: ['AGENTS.md', 'CLAUDE.md'],
  hooks: hookEntries({
    'session-start': 'sessionStart',
    'user-prompt-submit': 'beforeSubmitPrompt',
    'pre-compact': 'preCompact',
    stop: 'stop',
    'session-end': 'sessionEnd',
  }),
  timeout: 30,
  envFileVars: [],
  sessionEnvVars: [],
  hookFiles: ['.cursor/hooks.json'],
  detect: (raw) => typeof raw.cursor_version === 'string' || (typeof raw.conversation_id === 'string' && typeof raw.generation_id === 'string'),
  runsHooksOf: ['claude'],
  inputMarks: ['cursor_version', 'conversation_id', 'generation_id'],
  promptContext: false,
  render,
};
