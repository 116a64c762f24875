/**
 * The heads of the version graph among the versions a selection takes (docs/format.md
 * "Lineage"): the usable versions (valid, not a purge tombstone) that no usable version of
 * the selection continues, directly or through versions of other branches. A version
 * written before lineage (or by native git) continues every version its commit has below it.
 *
 * Lineage always points into a commit's own history (a writer continues what it read), so
 * in the walk newest first every version that could continue V is met before V. The walk
 * stops once it has a head, every line of the history still open lies below a version of
 * the selection (nothing above them is unseen), and every head a writer named as left open
 * (`Handoff-Beside`) has been met: a writer records the heads it did not continue, so older
 * divergences are found without reading the whole history.
 */
import type { HandoffStore, ReadVersion, VersionInfo } from '../git/handoff-store.js';
import { walkVersions } from './walk.js';

/** How many commits past the first head are read, at most, looking for heads named as left open. */
const MAX_WALK_PAST_HEAD = 5000;

export interface HeadsFound {
  /** the heads, in walk order (the caller orders them) */
  heads: ReadVersion[];
  /** versions of the selection that could not be used (invalid notes, purge tombstones), met before the first head */
  skipped: ReadVersion[];
  /** whether any version of the selection was met at all */
  any: boolean;
  /** the walk read the whole history: then the branches it met, and the invalid notes that name none (the branch index's facts) */
  complete: { branches: (string | null)[]; unplaced: number } | null;
}

export interface HeadQuery {
  /** whether a version belongs to the selection (its branch read from the note for a native one) */
  matches: (branch: string | null) => boolean;
  /** an invalid note that names no branch is shown to every selection (it may have been meant for it) */
  takesUnplaced: boolean;
  /** stop at the first head (`--all`, the fallback to the newest overall) */
  first: boolean;
}

/** A version that may be a head: valid, not a purge tombstone (a version encrypted for others is not valid to its reader). */
export const isUsable = (r: Pick<ReadVersion, 'valid' | 'handoff'>) => r.valid && r.handoff.purged !== true;

export async function findHeads(store: HandoffStore, tip: string, q: HeadQuery): Promise<HeadsFound> {
  const heads: ReadVersion[] = [];
  const skipped: ReadVersion[] = [];
  let any = false;
  /** version ids continued by a usable version of the selection, or by a version such a one continues */
  const continued = new Set<string>();
  /** commits below a usable version of the selection written without lineage (it continued all of them) */
  const covered = new Set<string>();
  /** commits below a usable version of the selection */
  const below = new Set<string>();
  const discovered = new Set<string>([tip]);
  const popped = new Set<string>();
  /** discovered, not yet walked, not below a version of the selection */
  let open = 1;
  /** heads named as left open, not met yet */
  const wanted = new Set<string>();
  let past = 0;
  const branches: (string | null)[] = [];
  let unplaced = 0;
  let complete = true;

  for await (const { id, commit, version } of walkVersions(store, tip)) {
    popped.add(id);
    const isBelow = below.has(id);
    if (!isBelow) open--;
    let mark = isBelow;
    let cover = covered.has(id);
    if (version) {
      wanted.delete(id);
      const r = await consider(store, version, q, { continued: continued.has(id) || cover });
      if (r.matched) any = true;
      if (!branches.includes(r.branch)) branches.push(r.branch);
      if (r.unplaced) unplaced++;
      if (r.passOn) {
        for (const c of version.continues ?? []) continued.add(c);
        if (version.continues === null) cover = true;
      }
      if (r.read && r.matched && isUsable(r.read)) mark = true;
      if (r.head) {
        heads.push(r.head);
        for (const b of r.head.beside) if (!popped.has(b) && !continued.has(b)) wanted.add(b);
      } else if (r.skip && !heads.length) skipped.push(r.skip);
    }
    for (const p of commit.parents) {
      const fresh = !discovered.has(p);
      if (fresh) discovered.add(p);
      if (mark && !below.has(p)) {
        below.add(p);
        if (!fresh && !popped.has(p)) open--;
      } else if (fresh && !below.has(p)) open++;
      if (cover) covered.add(p);
    }
    if (heads.length && (q.first || (open <= 0 && wanted.size === 0))) {
      complete = false;
      break;
    }
    if (heads.length && ++past > MAX_WALK_PAST_HEAD) {
      complete = false;
      break;
    }
  }
  return { heads, skipped, any, complete: complete ? { branches, unplaced } : null };
}

/** One version met by the walk: whether it is the selection's, a head, passed over, and whether it continues others for the selection. */
async function consider(
  store: HandoffStore,
  v: VersionInfo,
  q: HeadQuery,
  how: { continued: boolean },
): Promise<{
  branch: string | null;
  unplaced: boolean;
  matched: boolean;
  passOn: boolean;
  read: ReadVersion | null;
  head: ReadVersion | null;
  skip: ReadVersion | null;
}> {
  let read: ReadVersion | null = v.branch === undefined ? await store.read(v) : null;
  const branch = (read ?? v).branch ?? null;
  const unplaced = Boolean(read && !read.valid && read.handoff.branch === undefined);
  const matched = (read?.branch !== undefined || v.branch !== undefined) && q.matches(branch);
  const facts = { branch, unplaced, matched };
  if (!matched && !(unplaced && q.takesUnplaced)) return { ...facts, passOn: how.continued, read, head: null, skip: null };
  read ??= await store.read(v);
  if (!isUsable(read)) return { ...facts, passOn: how.continued, read, head: null, skip: how.continued ? null : read };
  return { ...facts, passOn: true, read, head: how.continued ? null : read, skip: null };
}
