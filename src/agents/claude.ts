/**
 * Claude Code (code.claude.com/docs/en/hooks): hooks in `.claude/settings.local.json` or
 * `.claude/settings.json`; JSON on stdin (`session_id`, `cwd`, `hook_event_name`, `source`,
 * `prompt`, `stop_hook_active`, `reason`, `trigger`); SessionStart and UserPromptSubmit
 * add context through `hookSpecificOutput.additionalContext`; Stop blocks with
 * `{"decision":"block","reason"}`; PreCompact and SessionEnd output reach the user only.
 * SessionStart may append `export` lines to `$CLAUDE_ENV_FILE` for the session's shell.
 */
import { renderClaudeStyle, type AgentAdapter } from './types.js';

export const claude: AgentAdapter = {
  name: 'claude',
  instructionFiles: ['CLAUDE.md', '.claude/CLAUDE.md', 'CLAUDE.local.md'],
  hooks: [
    { native: 'SessionStart', event: 'session-start' },
    { native: 'UserPromptSubmit', event: 'user-prompt-submit' },
    { native: 'PreCompact', event: 'pre-compact' },
    { native: 'Stop', event: 'stop' },
    { native: 'SessionEnd', event: 'session-end' },
  ],
  timeout: 30,
  envFileVars: ['CLAUDE_ENV_FILE'],
  render: (event, reply) => renderClaudeStyle(event, reply),
};
