/**
 * Which of several concurrent versions is "the latest" (docs/format.md, "Order"):
 * causality first, dates only between unrelated work. Versions here are
 * concurrent in the notes history (none was written after the other was seen); among them,
 * one whose `head` descends from another's continues that work and is the newer, whatever
 * the clocks say. Only between versions whose heads are unrelated (or equal) does the date
 * decide, and then the sessions diverged.
 */

export interface ConcurrentVersion {
  id: string;
  /** committer time of the version, seconds */
  timestamp: number;
  /** the commit the session was on (`head`, else the note's target) */
  head: string;
}

export interface LatestChoice {
  chosen: string;
  /** other versions that neither continue nor are continued by the chosen one */
  diverged: string[];
}

/**
 * `maximalHeads`: the heads that are not ancestors of another candidate's head (git's
 * `merge-base --independent`); null when that could not be told (a head not in this clone):
 * then every candidate counts as unrelated. `candidates` come newest-walk first; equal
 * dates keep that order.
 */
export function chooseLatest(candidates: ConcurrentVersion[], maximalHeads: Set<string> | null): LatestChoice {
  if (candidates.length === 0) throw new Error('chooseLatest: no candidates');
  const top = maximalHeads ? candidates.filter((c) => maximalHeads.has(c.head)) : candidates;
  const pool = top.length ? top : candidates;
  let best = pool[0];
  for (const c of pool) if (c.timestamp > best.timestamp) best = c;
  return { chosen: best.id, diverged: pool.filter((c) => c !== best).map((c) => c.id) };
}
