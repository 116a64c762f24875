/**
 * The agents by name, and the mapping from any spelling of an event (ours, or the agent's
 * own: `SessionStart`, `BeforeAgent`, `AfterAgent`, `PreCompress`) to ours.
 */
import { claude } from './claude.js';
import { codex } from './codex.js';
import { gemini } from './gemini.js';
import { AGENT_EVENTS, AGENT_NAMES, type AgentAdapter, type AgentEvent, type AgentName } from './types.js';

export const AGENTS: Record<AgentName, AgentAdapter> = { claude, codex, gemini };

export function isAgentName(s: string): s is AgentName {
  return (AGENT_NAMES as readonly string[]).includes(s);
}

/** Our event for `name` as this agent spells it, or null when the agent has no such event. */
export function agentEvent(agent: AgentAdapter, name: string): AgentEvent | null {
  const kebab = name.replace(/([a-z])([A-Z])/g, '$1-$2').replace(/_/g, '-').toLowerCase();
  if ((AGENT_EVENTS as readonly string[]).includes(kebab)) return kebab as AgentEvent;
  return agent.hooks.find((h) => h.native.toLowerCase() === name.toLowerCase())?.event ?? null;
}
