/**
 * Claude Code (code.claude.com/docs/en/hooks): hooks in `.claude/settings.local.json` or
 * `.claude/settings.json`; JSON on stdin (`session_id`, `cwd`, `hook_event_name`, `source`,
 * `prompt`, `stop_hook_active`, `reason`, `trigger`); SessionStart and UserPromptSubmit
 * add context through `hookSpecificOutput.additionalContext`; Stop blocks with
 * `{"decision":"block","reason"}`; PreCompact and SessionEnd output reach the user only.
 * SessionStart may append `export` lines to `$CLAUDE_ENV_FILE` for the session's shell.
 * Hook processes get `CLAUDE_PROJECT_DIR` and `CLAUDECODE=1` (Gemini CLI and Copilot CLI
 * set `CLAUDE_PROJECT_DIR` too, and both run `.claude` hooks: they are told apart first).
 */
import { CLAUDE_STYLE, type AgentAdapter } from './types.js';

export const claude: AgentAdapter = {
  ...CLAUDE_STYLE,
  name: 'claude',
  title: 'Claude Code',
  instructionFiles: ['CLAUDE.md', '.claude/CLAUDE.md', 'CLAUDE.local.md'],
  envFileVars: ['CLAUDE_ENV_FILE'],
  sessionEnvVars: ['CLAUDE_CODE_SESSION_ID'],
  hookFiles: ['.claude/settings.local.json', '.claude/settings.json'],
  detect: (_raw, env) => env.CLAUDECODE === '1',
};
