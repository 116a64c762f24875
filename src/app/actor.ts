/**
 * Who is acting: a person, or an agent. Some acts are a person's only (approving a policy,
 * reopening a work item), and a receipt records which of the two made it.
 */
import type { Repo } from '../git/repo.js';
import { readSessions } from '../state/session-store.js';

/** True when an agent is acting: HANDOFF_AGENT is set or an agent hook's session is active. */
export function agentActive(repo: Repo): boolean {
  if (process.env.HANDOFF_AGENT) return true;
  return readSessions(repo.gitDir).some((s) => !s.ended_at);
}
