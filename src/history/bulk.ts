/**
 * The reader's listing (`VersionReader.select`) over the streamed history
 * (../git/version-stream.ts: one `git log`, one `git cat-file --batch`), for listings that
 * read the whole history (`log`): the same versions in the same order, the heads together.
 */
import type { Repo } from '../git/repo.js';
import { writeBranchIndex } from '../git/branch-index.js';
import { isRead, streamVersions, type StreamedVersion } from '../git/version-stream.js';
import { VersionReader, type Latest, type Selection } from './reader.js';
import { isUsable } from './heads.js';

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
    // The heads are asked of the reader when the stream meets the first version of the
    // selection it can use (VersionReader.lateHeads): a history with none a reader can use
    // (all encrypted, no key) is streamed once, not walked to its end first.
    let l: Latest | null = tip && (await reader.lateHeads(sel, tip)) ? null : await latest();
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
      if (!l && taken && isUsable(v)) await learn();
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
