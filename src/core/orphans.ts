/**
 * Where an orphaned note belongs now (`doctor`). A hosting server's rebase merge
 * replays each commit with the same patch (`head_patch_id`), a squash merge makes one
 * commit with the branch's final tree (`head_tree`): both facts are in the note itself, so
 * the note can be found a home even after its commit is gone.
 */

export interface Orphan {
  /** the commit the note is attached to, now missing or unreachable */
  target: string;
  blob: string;
  /** committer time of the version that wrote the note (seconds); newer orphans choose first */
  timestamp: number;
  patchId: string | null;
  tree: string | null;
  /**
   * Only a commit made at or after the note was written can take it: set for a target this
   * clone lacks, whose older same-patch commits here may be stale copies of it, not its
   * replacement (a branch rebased and force-pushed elsewhere, not fetched here yet).
   */
  onlyNewer?: boolean;
  /**
   * The note is encrypted, no key here reads it and its commit is not in this clone: nothing
   * in the clear says where it belongs (docs/privacy.md).
   */
  sealed?: boolean;
}

export interface Candidate {
  id: string;
  tree: string;
  /** committer time, seconds: the newest of several matches wins */
  timestamp: number;
  patchId: string | null;
}

export type Placement = { orphan: Orphan; to: string; by: 'patch-id' | 'tree' } | { orphan: Orphan; to: null; reason: string };

/**
 * Places each orphan on the newest reachable commit with its patch id, else with its tree.
 * A commit that already carries a note, or was chosen for a newer orphan, is not taken.
 */
export function placeOrphans(orphans: Orphan[], candidates: Candidate[], noted: Set<string>): Placement[] {
  const byPatch = new Map<string, Candidate[]>();
  const byTree = new Map<string, Candidate[]>();
  for (const c of candidates) {
    if (c.patchId) byPatch.set(c.patchId, [...(byPatch.get(c.patchId) ?? []), c]);
    byTree.set(c.tree, [...(byTree.get(c.tree) ?? []), c]);
  }
  const taken = new Set(noted);
  const out: Placement[] = [];
  const order = [...orphans].sort((a, b) => b.timestamp - a.timestamp || (a.target < b.target ? -1 : 1));
  for (const o of order) {
    let stale = false;
    const pick = (list: Candidate[] | undefined) => {
      const all = (list ?? []).filter((c) => c.id !== o.target);
      const fit = o.onlyNewer ? all.filter((c) => c.timestamp >= o.timestamp) : all;
      if (fit.length < all.length) stale = true;
      return fit.sort((a, b) => b.timestamp - a.timestamp || (a.id < b.id ? -1 : 1))[0];
    };
    const viaPatch = o.patchId ? pick(byPatch.get(o.patchId)) : undefined;
    const viaTree = o.tree ? pick(byTree.get(o.tree)) : undefined;
    const hit = viaPatch ? { c: viaPatch, by: 'patch-id' as const } : viaTree ? { c: viaTree, by: 'tree' as const } : null;
    if (!hit) {
      const facts = [o.patchId ? 'patch id' : null, o.tree ? 'tree' : null].filter(Boolean).join(' or ');
      const reason = o.sealed
        ? 'the note is encrypted for others and its commit is not in this clone, so neither its patch id nor its tree is known here (a clone that has the commit, or a reader of the note, can re-attach it)'
        : !facts
          ? 'the note records neither head_patch_id nor head_tree'
          : stale
            ? `only commits older than the note have the same ${facts} (stale copies, not its replacement)`
            : `no reachable commit has the same ${facts}`;
      out.push({ orphan: o, to: null, reason });
    } else if (taken.has(hit.c.id)) {
      out.push({ orphan: o, to: null, reason: `${hit.c.id.slice(0, 7)} (same ${hit.by}) already carries a handoff` });
    } else {
      taken.add(hit.c.id);
      out.push({ orphan: o, to: hit.c.id, by: hit.by });
    }
  }
  return out;
}
