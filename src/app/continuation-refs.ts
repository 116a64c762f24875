/**
 * The latest handoff's continuation_refs for the current branch: the paths the fidelity
 * sweep treats as the current continuation (docs/sweep.md). A module of its
 * own so `git handoff sweep` loads the handoff store only when there is a handoff.
 */
import type { Repo } from '../git/repo.js';
import { VersionReader } from '../history/reader.js';

/** What the sweep reads of the latest handoff: continuation_refs, consolidation.produced and its date. */
export interface LatestCadence {
  refs: string[];
  produced: string[];
  /** the version's date (ms), null when there is none */
  date: number | null;
}

export async function latestCadence(repo: Repo): Promise<LatestCadence> {
  try {
    const { version } = await new VersionReader(repo).latest({ branch: repo.headBranch() });
    const strings = (v: unknown) => (Array.isArray(v) ? v.filter((r): r is string => typeof r === 'string') : []);
    const h = version?.handoff;
    const date = typeof h?.date === 'string' ? Date.parse(h.date) : NaN;
    return { refs: strings(h?.continuation_refs), produced: strings(h?.consolidation?.produced), date: Number.isFinite(date) ? date : null };
  } catch {
    return { refs: [], produced: [], date: null };
  }
}
