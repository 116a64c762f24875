/**
 * Codex CLI (developers.openai.com/codex/hooks): `.codex/hooks.json` in Claude Code's shape,
 * run only with `[features] codex_hooks = true` in `.codex/config.toml` (newer releases
 * also read `hooks`, and enable hooks by default). Events SessionStart (source startup |
 * resume | clear | compact), UserPromptSubmit, PreCompact, Stop; there is no SessionEnd.
 * Answers as Claude Code's: `hookSpecificOutput.additionalContext`, `decision: "block"`.
 * SessionStart exports through `$CODEX_ENV_FILE` (or its alias `$CLAUDE_ENV_FILE`).
 */
import { renderClaudeStyle, type AgentAdapter } from './types.js';

export const codex: AgentAdapter = {
  name: 'codex',
  instructionFiles: ['AGENTS.md', 'AGENTS.override.md'],
  hooks: [
    { native: 'SessionStart', event: 'session-start' },
    { native: 'UserPromptSubmit', event: 'user-prompt-submit' },
    { native: 'PreCompact', event: 'pre-compact' },
    { native: 'Stop', event: 'stop' },
  ],
  timeout: 30,
  envFileVars: ['CODEX_ENV_FILE', 'CLAUDE_ENV_FILE'],
  render: (event, reply) => renderClaudeStyle(event, reply),
};
