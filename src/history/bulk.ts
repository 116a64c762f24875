/**
 * The reader's listing (`VersionReader.select`) over the streamed history
 * (../git/version-stream.ts: one `git log`, one `git cat-file --batch`), for listings that
 * read the whole history (`log`): the same versions in the same order, the heads together.
 */
import type { Repo } from '../git/repo.js';
import { writeBranchIndex } from '../git/branch-index.js';
import { isRead, streamVersions, type StreamedVersion } from '../git/version-stream.js';
import { VersionReader, type Latest, type Selection } from './reader.js';

export async function selectBulk(
  repo: Repo,
  sel: Selection,
  /** filled with the bytes of each listed version's commit, as streamVersions fills it */
  commits?: Map<string, Buffer>,
): Promise<{ versions: AsyncGenerator<StreamedVersion>; fallback: () => boolean; latest: () => Promise<Latest> }> {
  const reader = new VersionReader(repo);
  let picked: Promise<Latest> | null = null;
  const latest = () => (picked ??= reader.latest(sel));
  let fallback = false;
  async function* gen(): AsyncGenerator<StreamedVersion> {
    const tip = await reader.store.tip();
    // The heads are asked of the reader only when the stream meets the first usable version
    // of the selection (a head is one: nothing newer can continue it), so the versions that
    // cannot be used before it (encrypted for others, invalid) cost no walk of their own, and
    // a history with none a reader can use (all encrypted, no key) is streamed once, not
    // walked to its end first. Not when the branch may have no version at all (the fallback
    // to every branch decides what is streamed).
    const deferred = Boolean(tip) && (sel.all || (await branchHasVersion(reader, tip!, sel.branch ?? null)));
    let l: Latest | null = deferred ? null : await latest();
    fallback = l?.fallback ?? false;
    if (!tip) return;
    let shown = new Set<string>();
    let heads: StreamedVersion[] = [];
    const learn = async () => {
      l = await latest();
      const first = [...(l.version ? [l.version] : []), ...l.diverged];
      shown = new Set(first.map((v) => v.id));
      heads = first.map(({ commit: _, blob: __, ...v }) => v);
    };
    if (l) await learn();
    let placed = false;
    const want = sel.branch ?? null;
    const wide = sel.all || fallback;
    const branches: (string | null)[] = [];
    let unplacedAnywhere = 0;
    for await (const v of streamVersions(repo, tip, wide ? () => true : (u) => u.branch === want, null, undefined, commits)) {
      const b = v.branch ?? null;
      if (!branches.includes(b)) branches.push(b);
      const unplaced = v.native && isRead(v) && !v.valid && v.handoff.branch === undefined;
      if (unplaced) unplacedAnywhere++;
      // (`branch` undefined: a native note that could not be read; it matches no branch)
      const taken = isRead(v) && (wide || (v.branch !== undefined && b === want) || unplaced);
      if (!l && taken && usable(v)) await learn();
      if (shown.has(v.id)) {
        if (!placed) yield* heads;
        placed = true;
        continue;
      }
      if (taken) yield v;
    }
    if (!placed) yield* heads;
    if (!wide) writeBranchIndex(repo, { tip, branches, unplaced: unplacedAnywhere });
  }
  return { versions: gen(), fallback: () => fallback, latest };
}

/** A version the reader can take for a head (src/history/heads.ts: valid, not a purge tombstone). */
const usable = (v: StreamedVersion) => v.valid && v.handoff.purged !== true;

/**
 * Whether `branch` has a version (then the reader's latest is no fallback): the branch index
 * says so, else the walk's first version of the branch (one step in the common case).
 */
async function branchHasVersion(reader: VersionReader, tip: string, branch: string | null): Promise<boolean> {
  const index = await reader.store.branchIndex(tip);
  if (index) return index.branches.includes(branch);
  return (await reader.branchVersions(branch)).found;
}
