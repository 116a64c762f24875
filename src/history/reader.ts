/**
 * The one reader of versions (docs/architecture.md): "latest" is the head of the version
 * graph among the selection's versions (docs/format.md "Lineage"), and every listing puts
 * the heads first, in the one order between heads, then the other versions newest first.
 * `show`, `log`, `diff`, `~N`, `search`, `export`, MCP, the hooks, `sync` and `doctor`
 * all ask here, so they name the same latest version in every clone holding the same history.
 */
import type { Repo } from '../git/repo.js';
import { HandoffStore, type ReadVersion, type Selection, type VersionInfo } from '../git/handoff-store.js';
import { writeBranchIndex } from '../git/branch-index.js';
import { orderHeads } from '../core/lineage.js';
import { UnknownVersion } from '../errors.js';
import { findHeads, isUsable, type HeadQuery, type HeadsFound } from './heads.js';
import { walkVersions } from './walk.js';
import { findNote } from '../git/notes-tree.js';
import { ProvenanceReader } from './provenance.js';

export type { Selection } from '../git/handoff-store.js';

export interface Latest {
  /** the latest version (the first head), or null when the selection has none usable */
  version: ReadVersion | null;
  /** invalid versions passed over on the way to it */
  skipped: ReadVersion[];
  /** the current branch has no version; the newest overall stands in */
  fallback: boolean;
  /** the other heads, in order: sessions whose work the latest does not continue, nor they its */
  diverged: ReadVersion[];
}

export class VersionReader {
  readonly store: HandoffStore;
  /**
   * Whose words each version holds (author, origin, signature: ./provenance.ts), asked of the
   * reader that found the version: show, log, both JSON outputs, MCP, the agent contexts, the
   * view and relay all get it here, never from a reader of their own.
   */
  readonly provenance: ProvenanceReader;

  constructor(readonly repo: Repo) {
    this.store = new HandoffStore(repo);
    this.provenance = new ProvenanceReader(repo);
  }

  /** The latest version of a selection (at `tip`, default the ref's value), with the heads beside it. */
  async latest(sel: Selection, at?: string | null): Promise<Latest> {
    const tip = at === undefined ? await this.store.tip() : at;
    if (!tip) return { version: null, skipped: [], fallback: !sel.all, diverged: [] };
    const want = sel.branch ?? null;
    const wide: HeadQuery = { matches: () => true, takesUnplaced: true, first: true };
    if (sel.all) return this.fromHeads(tip, wide, false);
    // A branch with no version yet: the index says so without walking the whole history.
    const index = await this.store.branchIndex(tip);
    if (index && !index.branches.includes(want) && index.unplaced === 0) return this.fromHeads(tip, wide, true);
    const found = await this.fromHeads(tip, { matches: (b) => b === want, takesUnplaced: true, first: false }, false);
    // The whole history was walked: keep what it taught for the next read.
    if (!index && found.complete) writeBranchIndex(this.repo, { tip, ...found.complete });
    if (found.any) return found;
    return { ...(await this.fromHeads(tip, wide, true)), skipped: found.skipped };
  }

  private async fromHeads(tip: string, q: HeadQuery, fallback: boolean): Promise<Latest & Pick<HeadsFound, 'any' | 'complete'>> {
    const { heads, skipped, any, complete } = await findHeads(this.store, tip, q);
    const ordered = heads.length > 1 ? orderHeads(heads, await this.maximalTargets(heads)) : heads;
    return { version: ordered[0] ?? null, skipped, fallback, diverged: ordered.slice(1), any, complete };
  }

  /** The heads' targets no other head's target descends from (git's `merge-base --independent`), or null. */
  private async maximalTargets(heads: VersionInfo[]): Promise<Set<string> | null> {
    const targets = [...new Set(heads.map((h) => h.target))];
    if (targets.length < 2) return null;
    for (const t of targets) if ((await this.repo.objects.read(t))?.type !== 'commit') return null;
    const r = await this.repo.runGit(['merge-base', '--independent', ...targets], { readOnly: true });
    return r.code === 0 ? new Set(r.stdout.toString('utf8').split(/\s+/).filter(Boolean)) : null;
  }

  /**
   * Versions of a selection in the reader's order: newest first, the heads together in
   * their order (the latest, then the other heads) where the first of them comes (only
   * notes that cannot be used, newer than every head, come before). Without `all`, the versions of
   * `branch` and the invalid notes that name no branch; when the branch has none, every
   * version, flagged as a fallback.
   */
  async select(sel: Selection): Promise<{ versions: AsyncGenerator<ReadVersion>; fallback: () => boolean; latest: () => Promise<Latest> }> {
    let picked: Promise<Latest> | null = null;
    const latest = () => (picked ??= this.latest(sel));
    let fallback = false;
    const self = this;
    async function* gen(): AsyncGenerator<ReadVersion> {
      const tip = await self.store.tip();
      // The heads, in their order, stand where the first of them comes in the walk: what
      // could not be used (invalid notes, versions encrypted for others) newer than all of
      // them is listed before them, and is listed before the heads are asked (lateHeads).
      let l: Latest | null = tip && (await self.lateHeads(sel, tip)) ? null : await latest();
      fallback = l?.fallback ?? false;
      if (!tip) return;
      let first: ReadVersion[] = [];
      let shown = new Set<string>();
      const learn = async () => {
        l = await latest();
        first = [...(l.version ? [l.version] : []), ...l.diverged];
        shown = new Set(first.map((v) => v.id));
      };
      if (l) await learn();
      let placed = false;
      const want = sel.branch ?? null;
      const wide = sel.all || fallback;
      const branches: (string | null)[] = [];
      let unplacedAnywhere = 0;
      for await (const { version } of walkVersions(self.store, tip)) {
        if (!version) continue;
        const r = version.branch === undefined ? await self.store.read(version) : null;
        const info = r ?? version;
        const b = info.branch ?? null;
        if (!branches.includes(b)) branches.push(b);
        const unplaced = Boolean(r && !r.valid && r.handoff.branch === undefined);
        if (unplaced) unplacedAnywhere++;
        const taken = wide || (info.branch !== undefined && b === want) || unplaced;
        const early = !l && taken ? (r ?? (await self.store.read(version))) : null;
        if (early && isUsable(early)) await learn();
        if (shown.has(version.id)) {
          if (!placed) yield* first;
          placed = true;
          continue;
        }
        if (taken) yield early ?? r ?? (await self.store.read(version));
      }
      if (!placed) yield* first;
      // The whole history was walked: keep what it taught for the next read.
      if (!wide) writeBranchIndex(self.repo, { tip, branches, unplaced: unplacedAnywhere });
    }
    return { versions: gen(), fallback: () => fallback, latest };
  }

  /**
   * Whether a listing of `sel` may ask for its heads late, when it meets the first version
   * it can use (a head is one: nothing newer can continue it), and hand on the versions that
   * cannot be used before it (encrypted for others, invalid) without the walk that finds the
   * heads: a history of versions encrypted for others is not read twice, nor to its end
   * when a first few are wanted (~N, MCP's log). Not when the branch may have no version at
   * all: the fallback to every branch decides what is listed. The branch index says so, else
   * the walk's first version of the branch (one step in the common case).
   */
  async lateHeads(sel: Selection, tip: string): Promise<boolean> {
    if (sel.all) return true;
    const want = sel.branch ?? null;
    const index = await this.store.branchIndex(tip);
    if (index) return index.branches.includes(want);
    return (await this.branchVersions(want)).found;
  }

  /**
   * Whether `branch` has a version, and else the branches that do (null: detached), newest
   * first. Stops at the first version of `branch`: the common answer costs one step.
   */
  async branchVersions(branch: string | null): Promise<{ found: boolean; branches: (string | null)[]; total: number }> {
    const branches: (string | null)[] = [];
    let total = 0;
    const tip = await this.store.tip();
    if (!tip) return { found: false, branches, total };
    for await (const { version: v } of walkVersions(this.store, tip)) {
      if (!v) continue;
      total++;
      const b = v.branch === undefined ? (await this.store.read(v)).branch : v.branch;
      if (b === branch) return { found: true, branches: [], total };
      if (!branches.includes(b ?? null)) branches.push(b ?? null);
    }
    return { found: false, branches, total };
  }

  /**
   * Of these note blobs (the notes a rewrite or a squash brought together on one commit),
   * the one whose version the walk meets first: the newest by lineage, since a version is
   * met before every version it continues, whatever the dates say. Walks at most `limit`
   * commits; null when no version of the history wrote any of them (the caller decides).
   */
  async newestOf(blobs: string[], limit = 5000): Promise<string | null> {
    return (await this.writerOf(blobs, limit))?.blob ?? null;
  }

  /**
   * The newest version that wrote one of these note blobs (its own commit set the note to
   * it), and which blob: what a version carrying an encrypted note as it is learns of it
   * without a key (its branch, its visibility: src/app/carried-note.ts). Walks at most
   * `limit` commits; null when none did.
   */
  async writerOf(blobs: string[], limit = 5000): Promise<{ blob: string; version: VersionInfo } | null> {
    const want = new Set(blobs);
    const tip = await this.store.tip();
    if (!tip || !want.size) return null;
    let steps = 0;
    for await (const { version } of walkVersions(this.store, tip)) {
      if (++steps > limit) break;
      if (!version) continue;
      const note = await findNote(this.repo.objects, version.commit.tree, version.writtenAt);
      if (note && want.has(note.blob)) return { blob: note.blob, version };
    }
    return null;
  }

  /**
   * Re-attaches (notes carried onto the commits that now hold their work: post-rewrite where
   * git copied nothing, a local or forge squash or rebase merge, `doctor --fix`; docs/format.md
   * "Rewritten commits") in the order to write them: oldest by lineage first (by date among
   * notes no version within `limit` commits wrote), each with the version whose note it
   * carries. The caller chains them (core/lineage.ts `reattachLineage`), so the newest is
   * the one head they make and the lineage says where each came from.
   */
  async reattachOrder<T extends { blob: string; timestamp: number }>(items: T[], limit = 5000): Promise<{ item: T; carried: string | undefined }[]> {
    const want = new Set(items.map((i) => i.blob));
    const writers = new Map<string, { id: string; rank: number }>();
    const tip = await this.store.tip();
    if (tip && want.size) {
      let steps = 0;
      let rank = 0;
      for await (const { version } of walkVersions(this.store, tip)) {
        if (++steps > limit || writers.size === want.size) break;
        if (!version) continue;
        const note = await findNote(this.repo.objects, version.commit.tree, version.writtenAt);
        if (note && want.has(note.blob) && !writers.has(note.blob)) writers.set(note.blob, { id: version.id, rank });
        rank++;
      }
    }
    const rank = (i: T) => writers.get(i.blob)?.rank ?? Number.MAX_SAFE_INTEGER;
    return [...items].sort((x, y) => rank(y) - rank(x) || x.timestamp - y.timestamp).map((item) => ({ item, carried: writers.get(item.blob)?.id }));
  }

  /** The ids of a branch's heads at the tip (none while it has no version of its own): what a writer there leaves open beside what it continues. */
  async headIds(branch: string | null): Promise<string[]> {
    const l = await this.latest({ branch });
    return l.fallback || !l.version ? [] : [l.version.id, ...l.diverged.map((d) => d.id)];
  }

  /** The newest few version ids, for a message naming the versions that do exist. */
  async newestIds(n = 5): Promise<string[]> {
    const out: string[] = [];
    const tip = await this.store.tip();
    if (!tip) return out;
    for await (const { version } of walkVersions(this.store, tip)) {
      if (!version) continue;
      out.push(version.id.slice(0, 12));
      if (out.length >= n) break;
    }
    return out;
  }

  private async unknownVersion(message: string): Promise<UnknownVersion> {
    const ids = await this.newestIds();
    const known = ids.length ? `; the newest versions are ${ids.join(', ')} ('git handoff log' lists them all)` : '; there are no versions yet';
    return new UnknownVersion(`${message}${known}`);
  }

  /** Reads one version by its full id (null when the id names no version), its target where its note sits now. */
  async byId(id: string): Promise<ReadVersion | null> {
    const tip = await this.store.tip();
    if (!tip) return null;
    for await (const { version } of walkVersions(this.store, tip)) if (version?.id === id) return this.store.read(version);
    return null;
  }

  /** Resolves a version name: a full id, a unique prefix of one, or `~N` in the selection's order (`~0` the latest). */
  async resolve(name: string, sel: Selection): Promise<ReadVersion> {
    const tilde = /^~(\d+)$/.exec(name);
    if (tilde) {
      let n = Number(tilde[1]);
      const { versions } = await this.select(sel);
      for await (const v of versions) if (n-- === 0) return v;
      const count = Number(tilde[1]) - n - 1;
      throw new UnknownVersion(
        `no version ${name}: there ${count === 1 ? 'is' : 'are'} only ${count} version${count === 1 ? '' : 's'} before the latest${sel.branch !== undefined && !sel.all ? ` on ${sel.branch ?? 'this detached HEAD'}` : ''}`,
      );
    }
    if (!/^[0-9a-f]{4,40}$/i.test(name)) throw await this.unknownVersion(`not a version name: ${name} (use an id, a unique prefix of one, or ~N)`);
    const prefix = name.toLowerCase();
    const hits: VersionInfo[] = [];
    const tip = await this.store.tip();
    if (tip) for await (const { version } of walkVersions(this.store, tip)) if (version?.id.startsWith(prefix)) hits.push(version);
    if (hits.length === 0) throw await this.unknownVersion(`no version matches ${name}`);
    if (hits.length > 1) throw new UnknownVersion(`version prefix ${name} is ambiguous: ${hits.map((h) => h.id.slice(0, 12)).join(', ')}`);
    return this.store.read(hits[0]);
  }
}
