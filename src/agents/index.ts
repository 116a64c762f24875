/**
 * The agents by name, the mapping from any spelling of an event (ours, or the agent's
 * own: `SessionStart`, `BeforeAgent`, `AfterAgent`, `PreCompress`, `agentStop`) to ours,
 * and which program is running a hook.
 */
import { claude } from './claude.js';
import { codex } from './codex.js';
import { gemini } from './gemini.js';
import { cursor } from './cursor.js';
import { copilot } from './copilot.js';
import { opencode } from './opencode.js';
import { droid } from './droid.js';
import { AGENT_EVENTS, AGENT_NAMES, type AgentAdapter, type AgentEvent, type AgentName } from './types.js';

export const AGENTS: Record<AgentName, AgentAdapter> = { claude, codex, gemini, cursor, copilot, opencode, droid };

/** "claude, codex, gemini, ... or droid" */
export const AGENT_LIST = `${AGENT_NAMES.slice(0, -1).join(', ')} or ${AGENT_NAMES[AGENT_NAMES.length - 1]}`;

export function isAgentName(s: string): s is AgentName {
  return (AGENT_NAMES as readonly string[]).includes(s);
}

/** Our event for `name` as this agent spells it, or null when the agent has no such event. */
export function agentEvent(agent: AgentAdapter, name: string): AgentEvent | null {
  const kebab = name
    .replace(/([a-z])([A-Z])/g, '$1-$2')
    .replace(/_/g, '-')
    .toLowerCase();
  if ((AGENT_EVENTS as readonly string[]).includes(kebab)) return kebab as AgentEvent;
  return agent.hooks.find((h) => h.native.toLowerCase() === name.toLowerCase())?.event ?? null;
}

/**
 * Who is calling a hook installed for `named`: another program that runs `named`'s hook
 * files (Cursor and Copilot CLI run Claude Code's) when its marks are in the input or the
 * environment, else `named` itself. Only such a program is considered, so a variable that
 * leaks from an agent's shell into another agent (`CLAUDECODE=1` in a Codex started from
 * Claude Code) never changes the answer's format.
 */
export function detectHost(named: AgentAdapter, raw: Record<string, unknown>, env: NodeJS.ProcessEnv): AgentAdapter {
  for (const a of AGENT_NAMES.map((n) => AGENTS[n])) {
    if (a.name !== named.name && a.runsHooksOf.includes(named.name) && a.detect(raw, env)) return a;
  }
  return named;
}

/**
 * The agent session a command run by an agent belongs to: `HANDOFF_SESSION_ID` (exported
 * through the agent's env file, or by our OpenCode plugin), else the id the agent itself
 * puts in its shell commands' environment (`CODEX_THREAD_ID`, which is the `session_id` of
 * Codex's hooks; Codex has no env file), else none.
 */
export function sessionIdFromEnv(env: NodeJS.ProcessEnv): string | undefined {
  if (env.HANDOFF_SESSION_ID) return env.HANDOFF_SESSION_ID;
  for (const n of AGENT_NAMES) for (const v of AGENTS[n].sessionEnvVars) if (env[v]) return env[v];
  return undefined;
}
