/**
 * Factory Droid (docs.factory.ai/reference/hooks-reference): hooks in Claude Code's shape,
 * in `.factory/hooks.json` (the event map itself) when that file exists, else under `hooks`
 * in `.factory/settings.json` (Droid 0.225 runs no hooks from settings.local.json); the same events (SessionStart, UserPromptSubmit, PreCompact, Stop,
 * SessionEnd), input (`session_id`, `transcript_path`, `cwd`, `hook_event_name`, ...) and
 * answers (`hookSpecificOutput.additionalContext`, `decision: "block"`). Hook processes
 * get `FACTORY_PROJECT_DIR`, `DROID_PROJECT_DIR` and `CLAUDE_ENV_FILE`, whose `export` lines
 * its later shell commands source, as Claude Code's. `droid exec` in plain text mode runs no UserPromptSubmit
 * hooks (its stream-jsonrpc mode does).
 */
import { CLAUDE_STYLE, type AgentAdapter } from './types.js';

export const droid: AgentAdapter = {
  ...CLAUDE_STYLE,
  name: 'droid',
  title: 'Factory Droid',
  instructionFiles: ['AGENTS.md'],
  // Droid hands its hooks CLAUDE_ENV_FILE too (in the environment and the input)
  envFileVars: ['CLAUDE_ENV_FILE'],
  sessionEnvVars: [],
  hookFiles: ['.factory/hooks.json', '.factory/settings.json'],
  detect: (raw, env) => Boolean(env.FACTORY_PROJECT_DIR) || (typeof raw.transcript_path === 'string' && /[\\/]\.factory[\\/]/.test(raw.transcript_path)),
};
