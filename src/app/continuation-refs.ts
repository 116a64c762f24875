/**
 * The latest handoff's continuation_refs for the current branch: the paths the fidelity
 * sweep treats as the current continuation (DESIGN.md "The fidelity sweep"). A module of its
 * own so `git handoff sweep` loads the handoff store only when there is a handoff.
 */
import type { Repo } from '../git/repo.js';
import { HandoffStore } from '../git/handoff-store.js';

export async function latestContinuationRefs(repo: Repo): Promise<string[]> {
  try {
    const { version } = await new HandoffStore(repo).latest({ branch: repo.headBranch() });
    const refs = version?.handoff.continuation_refs;
    return Array.isArray(refs) ? refs.filter((r): r is string => typeof r === 'string') : [];
  } catch {
    return [];
  }
}
