/**
 * GitHub Copilot CLI (docs.github.com/en/copilot/reference/copilot-cli-reference/
 * cli-hooks-reference): every `.github/hooks/*.json` of the repository, `{"version": 1,
 * "hooks": {"sessionStart": [{"type": "command", "bash": "...", "timeoutSec": 30}]}}`.
 * Events sessionStart (`source`: new | resume, `initialPrompt`), userPromptSubmitted
 * (`prompt`), preCompact, agentStop (`stopReason`, `stop_hook_active`), sessionEnd
 * (`reason`; in `-p` mode after every completed turn, with `complete`). The input is
 * camelCase for camelCase event names (`sessionId`, `timestamp` in ms, `cwd`).
 * sessionStart and userPromptSubmitted add context with `{"additionalContext": "..."}`;
 * agentStop blocks with `{"decision": "block", "reason": "..."}` (at most 8 times in a row).
 * Repository hooks load in `-p` mode only in a trusted folder. Hook processes get
 * `COPILOT_CLI=1` and `COPILOT_HOOK_DIR` (and `CLAUDE_PROJECT_DIR`: Copilot picks up
 * `.claude` hooks too).
 */
import { hookEntries, jsonAnswer, type AgentAdapter, type AgentEvent, type AgentReply } from './types.js';

function render(event: AgentEvent, reply: AgentReply): string {
  const out: Record<string, unknown> = {};
  if ((event === 'session-start' || event === 'user-prompt-submit') && reply.context) out.additionalContext = reply.context;
  if (event === 'stop' && reply.blockStop) Object.assign(out, { decision: 'block', reason: reply.blockStop });
  return jsonAnswer(out);
}

export const copilot: AgentAdapter = {
  name: 'copilot',
  title: 'Copilot CLI',
  instructionFiles: ['AGENTS.md', '.github/copilot-instructions.md'],
  hooks: hookEntries({
    'session-start': 'sessionStart',
    'user-prompt-submit': 'userPromptSubmitted',
    'pre-compact': 'preCompact',
    stop: 'agentStop',
    'session-end': 'sessionEnd',
  }),
  timeout: 30,
  envFileVars: [],
  sessionEnvVars: [],
  hookFiles: ['.github/hooks/git-handoff.json'],
  detect: (raw, env) => Boolean(env.COPILOT_HOOK_DIR) || env.COPILOT_CLI === '1' || (typeof raw.sessionId === 'string' && raw.session_id === undefined),
  runsHooksOf: ['claude'],
  promptContext: true,
  render,
};
