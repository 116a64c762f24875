/**
 * OpenCode (opencode.ai/docs/plugins): no hook commands, only plugins, so init writes a
 * small plugin, `.opencode/plugins/git-handoff.js`, that calls `git-handoff-hook <event>
 * --agent opencode` with our own JSON (`session_id`, `cwd`, `prompt`, `source`) and reads
 * this answer back: `{"context": ..., "followup": ...}`.
 * - `session.created` (an event) -> session-start: the context goes into that session's
 *   system prompt (`experimental.chat.system.transform`);
 * - `chat.message` -> user-prompt-submit: the context is added to the user's message;
 * - `session.idle` -> stop: no plugin event can hold a stop, so a blocked stop is sent as
 *   the session's next prompt;
 * - `experimental.session.compacting` -> pre-compact: the reminder goes into the
 *   compaction's context;
 * - there is no session-end event.
 * `shell.env` exports HANDOFF_SESSION_ID and HANDOFF_AGENT to the agent's shell commands.
 */
import { hookEntries, jsonAnswer, type AgentAdapter, type AgentEvent, type AgentReply } from './types.js';

function render(event: AgentEvent, reply: AgentReply): string {
  const out: Record<string, unknown> = {};
  const context = event === 'pre-compact' ? [reply.userMessage, reply.context].filter(Boolean).join('\n') : reply.context;
  if (context) out.context = context;
  if (event === 'stop' && reply.blockStop) out.followup = reply.blockStop;
  return jsonAnswer(out);
}

export const opencode: AgentAdapter = {
  name: 'opencode',
  title: 'OpenCode',
  instructionFiles: ['AGENTS.md', 'CLAUDE.md'],
  // there is no session-end event
  hooks: hookEntries({
    'session-start': 'session.created',
    'user-prompt-submit': 'chat.message',
    'pre-compact': 'experimental.session.compacting',
    stop: 'session.idle',
  }),
  timeout: 30,
  envFileVars: [],
  sessionEnvVars: [],
  hookFiles: ['.opencode/plugins/git-handoff.js'],
  // only our plugin calls `--agent opencode`; OpenCode runs no other agent's hook commands
  detect: (raw) => raw.host === 'opencode',
  runsHooksOf: [],
  promptContext: true,
  render,
};
