/**
 * Codex CLI (developers.openai.com/codex/hooks): `.codex/hooks.json` in Claude Code's shape.
 * Hooks are on by default since 0.169 (`[features] hooks`; the old `codex_hooks` key is a
 * deprecated alias that makes Codex warn on every run, so init writes neither). Codex runs
 * a project's hooks only in a trusted project and only once the user trusted each hook
 * (`/hooks` in the interactive UI; `codex exec` skips untrusted hooks without a word, or
 * runs them with `--dangerously-bypass-hook-trust`). Events SessionStart (source startup |
 * resume | clear | compact), UserPromptSubmit, PreCompact, Stop, SessionEnd (its timeout
 * is clamped to 3 s). Answers as Claude Code's, and Codex rejects unknown fields.
 * Codex gives hooks no env file: the hook input's `session_id` is the thread id, which
 * Codex exports to the agent's shell commands as `CODEX_THREAD_ID`, so `write` reads that.
 * Its hook input is told apart by `turn_id` and the rollout transcript path.
 */
import { CLAUDE_EVENT_NAMES, CLAUDE_STYLE, hookEntries, renderClaudeStyle, type AgentAdapter } from './types.js';

export const codex: AgentAdapter = {
  ...CLAUDE_STYLE,
  name: 'codex',
  title: 'Codex CLI',
  instructionFiles: ['AGENTS.md', 'AGENTS.override.md'],
  hooks: hookEntries(CLAUDE_EVENT_NAMES, { 'session-end': 3 }),
  envFileVars: [],
  sessionEnvVars: ['CODEX_THREAD_ID'],
  hookFiles: ['.codex/hooks.json'],
  detect: (raw) =>
    typeof raw.turn_id === 'string' ||
    (typeof raw.transcript_path === 'string' && /[\\/]\.codex[\\/]sessions[\\/]|[\\/]rollout-[^\\/]*\.jsonl$/.test(raw.transcript_path)),
  render: (event, reply) => (event === 'session-end' ? '' : renderClaudeStyle(event, reply)),
};
