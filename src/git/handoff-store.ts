/**
 * The versioned handoff store on `refs/notes/handoff` (docs/format.md).
 * A version is a commit that changed a handoff note; bookkeeping commits are not versions.
 * Every update is a compare-and-swap; a writer that loses the race rebuilds on the new tip.
 */
import { NOTES_REF, type Repo, type PendingRefUpdate } from './repo.js';
import { EMPTY_TREE_OID, parseTrailers, serializeCommit, type Commit } from './objects.js';
import { renderCommitMessage } from '../core/commit-message.js';
import { requireCommit } from './read-objects.js';
import { diffNotes, findNote } from './notes-tree.js';
import { resolveIdentities, type Identities } from './identity.js';
import { binaryProblem, decodeTextUnsearched, hasBinary, DEFAULT_MAX_BYTES } from '../core/bytes.js';
import { fastDocument, parseDocument } from '../core/parse.js';
import { checkStored, type Handoff } from '../core/schema.js';
import { noteBranch } from '../core/front-matter.js';
import { ConcurrentWriters, LockHeld, UnknownVersion } from '../errors.js';
import { causalLatest } from './causal-latest.js';
import { readBranchIndex, writeBranchIndex, type BranchIndex } from './branch-index.js';
import { isObjectId } from '../core/object-id.js';
import { refLockHeld } from './ref-locks.js';
import { signingWanted, writeSignedCommit } from './signing.js';

export type HandoffKind = 'version' | 'receipt' | 'item' | 'policy' | 'merge' | 'repair';

export interface VersionInfo {
  id: string;
  target: string;
  /** committer time, seconds */
  timestamp: number;
  /** from our trailer; undefined for a native commit until its note is read */
  branch: string | null | undefined;
  native: boolean;
  commit: Commit;
}

export interface ReadVersion extends VersionInfo {
  valid: boolean;
  problems: string[];
  handoff: Handoff;
  text: string | null;
}

export interface Selection {
  /** versions of this branch (null: detached); undefined with `all` */
  branch?: string | null;
  all?: boolean;
}

/** What a version's note says, once its bytes are found. */
export interface NoteReading {
  /** undefined only for a native version whose note could not be read */
  branch: string | null | undefined;
  valid: boolean;
  problems: string[];
  handoff: Handoff;
  text: string | null;
}

/**
 * A note's bytes read as `HandoffStore.read` reads them (also for the bulk reader,
 * version-stream.ts): decoded, parsed, checked; the branch from the note when the commit
 * did not say it. An unreadable note is reported, never thrown.
 */
export async function interpretNote<V extends { branch: string | null | undefined }>(v: V, data: Buffer, maxBytes: number): Promise<V & NoteReading> {
  const bad = (problem: string, text: string | null = null) => ({ ...v, valid: false, problems: [problem], handoff: {}, text });
  // The search for binary bytes is left to the notes the fast reader declines: it accepts
  // none (src/core/bytes.ts, decodeTextUnsearched); the answers are decodeText's.
  const decoded = decodeTextUnsearched(data, maxBytes);
  if ('problem' in decoded) return bad(decoded.problem.message.replace(/^input/, 'the note'));
  let value: unknown;
  try {
    value = fastDocument(decoded.text);
  } catch {
    value = undefined; // parseDocument says what is wrong
  }
  if (value === undefined) {
    const binary = hasBinary(decoded.text) ? binaryProblem(data) : null;
    if (binary) return bad(binary.problem.message.replace(/^input/, 'the note'));
    try {
      value = await parseDocument(decoded.text);
    } catch (e) {
      return bad((e as Error).message, decoded.text);
    }
  }
  const { handoff, problems } = checkStored(value);
  const branch = v.branch === undefined ? (typeof handoff.branch === 'string' ? handoff.branch : null) : v.branch;
  return { ...v, branch, valid: problems.length === 0, problems: problems.map(String), handoff, text: decoded.text };
}

const MAX_CAS_ATTEMPTS = 100;
const LOCK_WAIT_MS = 5000;
/** How many new notes commits the branch index reads itself before asking git which are new. */
const INDEX_WALK_LIMIT = 200;

export class HandoffStore {
  constructor(readonly repo: Repo) {}

  tip(): Promise<string | null> {
    return this.repo.resolveRef(NOTES_REF);
  }

  readCommit(oid: string): Promise<Commit> {
    return requireCommit(this.repo.objects, oid);
  }

  /**
   * Commits of the notes history, newest first (committer date, never a parent before its
   * child). `stop` and what lies only behind it are not walked.
   */
  async *walk(from?: string | null, stop?: string): AsyncGenerator<{ id: string; commit: Commit }> {
    const start = from === undefined ? await this.tip() : from;
    if (!start || start === stop) return;
    const seen = new Set<string>([start, ...(stop ? [stop] : [])]);
    const queue: { id: string; commit: Commit; seq: number }[] = [];
    let seq = 0;
    const push = async (id: string) => queue.push({ id, commit: await this.readCommit(id), seq: seq++ });
    await push(start);
    while (queue.length) {
      let best = 0;
      for (let i = 1; i < queue.length; i++) {
        const a = queue[i];
        const b = queue[best];
        if (a.commit.committer.timestamp > b.commit.committer.timestamp || (a.commit.committer.timestamp === b.commit.committer.timestamp && a.seq < b.seq))
          best = i;
      }
      const [next] = queue.splice(best, 1);
      yield { id: next.id, commit: next.commit };
      for (const p of next.commit.parents) {
        if (seen.has(p)) continue;
        seen.add(p);
        await push(p);
      }
    }
  }

  /** The version a commit records, or null for a bookkeeping commit. */
  async versionOf(id: string, commit: Commit): Promise<VersionInfo | null> {
    const trailers = parseTrailers(commit.message);
    const kind = trailers['Handoff-Kind'];
    if (kind) {
      const target = trailers['Handoff-Target'];
      if (kind !== 'version' || !isObjectId(target)) return null;
      return { id, target, timestamp: commit.committer.timestamp, branch: trailers['Handoff-Branch'] ?? null, native: false, commit };
    }
    if (commit.parents.length > 1) return null;
    const parentTree = commit.parents.length ? (await this.readCommit(commit.parents[0])).tree : EMPTY_TREE_OID;
    const changed = (await diffNotes(this.repo.objects, parentTree, commit.tree)).filter((d) => d.newBlob);
    if (!changed.length) return null;
    return { id, target: changed[0].target, timestamp: commit.committer.timestamp, branch: undefined, native: true, commit };
  }

  async *versions(from?: string | null): AsyncGenerator<VersionInfo> {
    for await (const { id, commit } of this.walk(from)) {
      const v = await this.versionOf(id, commit);
      if (v) yield v;
    }
  }

  /**
   * The latest version of `branch` (else the newest overall) without parsing YAML: our
   * commits name their target and branch in trailers; a native note's branch is read from
   * its `branch:` line. Its note is not validated: what hooks need is where it sits. Used
   * on the post-commit path, where js-yaml would cost more than the whole hook. `limit`
   * bounds the versions read (then the newest overall stands in).
   */
  async latestInfo(branch: string | null, limit = Infinity): Promise<VersionInfo | null> {
    let newest: VersionInfo | null = null;
    let n = 0;
    for await (const v of this.versions()) {
      newest ??= v;
      if (++n > limit) break;
      let b = v.branch;
      if (b === undefined) {
        const note = await findNote(this.repo.objects, v.commit.tree, v.target);
        const blob = note && (await this.repo.objects.read(note.blob));
        b = blob ? await noteBranch(blob.data.toString('utf8')) : null;
      }
      if (b === branch) return v;
    }
    return newest;
  }

  /** Reads a version's note; an unreadable note is reported, never thrown. */
  async read(v: VersionInfo): Promise<ReadVersion> {
    const bad = (problem: string, text: string | null = null): ReadVersion => ({ ...v, valid: false, problems: [problem], handoff: {}, text });
    const note = await findNote(this.repo.objects, v.commit.tree, v.target);
    if (!note) return bad('the note is missing from this version');
    const blob = await this.repo.objects.read(note.blob);
    if (!blob) return bad(`note blob ${note.blob} is missing`);
    return interpretNote(v, blob.data, Math.max(DEFAULT_MAX_BYTES, await this.repo.configInt('handoff.maxBytes', DEFAULT_MAX_BYTES)));
  }

  /**
   * The branches that have a version, from the cache under `.git/handoff/`: as
   * saved when it was made at today's tip, else brought up to date by reading only the
   * commits since the cached tip. Null when there is no cache, or the history was rewritten
   * (`purge`): then `select`'s full walk builds it again. The same classification as `select`.
   */
  async branchIndex(tip: string): Promise<BranchIndex | null> {
    const cached = readBranchIndex(this.repo);
    if (!cached) return null;
    if (cached.tip === tip) return cached;
    let fresh: string[] | null = [];
    let met = false;
    // Appends (writes, native `git notes add`): a short walk meets the cached tip.
    for await (const { id, commit } of this.walk(tip, cached.tip)) {
      if (fresh.length >= INDEX_WALK_LIMIT) {
        fresh = null;
        break;
      }
      fresh.push(id);
      if (commit.parents.includes(cached.tip)) met = true;
    }
    if (fresh && !met) return null;
    if (!fresh) {
      // A merge (sync) joins the history below the cached tip: git tells the new commits.
      const anc = await this.repo.runGit(['merge-base', '--is-ancestor', cached.tip, tip], { readOnly: true });
      if (anc.code !== 0) return null;
      const r = await this.repo.runGit(['rev-list', tip, `^${cached.tip}`], { readOnly: true });
      if (r.code !== 0) return null;
      fresh = r.stdout
        .toString('utf8')
        .split('\n')
        .filter((l) => /^[0-9a-f]{40,64}$/.test(l));
    }
    const branches: (string | null)[] = [];
    let unplaced = cached.unplaced;
    for (const id of fresh) {
      const v = await this.versionOf(id, await this.readCommit(id));
      if (!v) continue;
      const r = v.branch === undefined ? await this.read(v) : null;
      const b = (r ?? v).branch ?? null;
      if (!branches.includes(b)) branches.push(b);
      if (r && !r.valid && r.handoff.branch === undefined) unplaced++;
    }
    for (const b of cached.branches) if (!branches.includes(b)) branches.push(b);
    const index = { tip, branches, unplaced };
    writeBranchIndex(this.repo, index);
    return index;
  }

  private matches(v: VersionInfo, branch: string | null): boolean {
    return v.branch === branch;
  }

  /**
   * Versions of a selection, newest first. Without `all`, the versions of `branch`; when
   * that branch has none, every version, flagged as a fallback.
   */
  async select(sel: Selection): Promise<{ versions: AsyncGenerator<ReadVersion>; fallback: () => boolean }> {
    let fallback = false;
    const self = this;
    async function* gen(): AsyncGenerator<ReadVersion> {
      if (sel.all) {
        for await (const v of self.versions()) yield self.read(v);
        return;
      }
      // A branch with no version yet: the index says so without walking the whole
      // history, and the fallback starts at once. With an unplaced invalid note in the history
      // the walk below is kept: it lists that note first, where it may have been meant.
      const tip = await self.tip();
      if (!tip) {
        fallback = true;
        return;
      }
      const index = await self.branchIndex(tip);
      if (index && !index.branches.includes(sel.branch ?? null) && index.unplaced === 0) {
        fallback = true;
        for await (const v of self.versions(tip)) yield self.read(v);
        return;
      }
      let any = false;
      // An invalid note that does not say its branch belongs to every branch: show must
      // warn about it and log must list it wherever it may have been meant.
      const unplaced = new Set<string>();
      const branches: (string | null)[] = [];
      let unplacedAnywhere = 0;
      for await (const v of self.versions(tip)) {
        const r = v.branch === undefined ? await self.read(v) : null;
        const info = r ?? v;
        if (!branches.includes(info.branch ?? null)) branches.push(info.branch ?? null);
        if (r && !r.valid && r.handoff.branch === undefined) unplacedAnywhere++;
        if (self.matches(info, sel.branch ?? null)) {
          any = true;
          yield r ?? (await self.read(v));
        } else if (r && !r.valid && r.handoff.branch === undefined) {
          unplaced.add(r.id);
          yield r;
        }
      }
      // The whole history was walked: keep what it taught for the next read.
      if (!index) writeBranchIndex(self.repo, { tip, branches, unplaced: unplacedAnywhere });
      if (!any) {
        fallback = true;
        for await (const v of self.versions(tip)) if (!unplaced.has(v.id)) yield self.read(v);
      }
    }
    return { versions: gen(), fallback: () => fallback };
  }

  /**
   * The newest valid version of a selection, with the invalid ones skipped on the way. A
   * purge's tombstone is passed over too: after a purge the latest is the newest version
   * that was not purged, and nothing carries the tombstone forward.
   */
  async latest(sel: Selection): Promise<{ version: ReadVersion | null; skipped: ReadVersion[]; fallback: boolean; diverged: ReadVersion[] }> {
    const { versions, fallback } = await this.select(sel);
    const skipped: ReadVersion[] = [];
    for await (const v of versions) {
      if (v.valid && v.handoff.purged === true) continue;
      if (v.valid) {
        // "Newest" is causal first: a concurrent version whose head continues this one's wins over a fast clock.
        const wide = sel.all || fallback();
        const accept = (c: ReadVersion) => c.valid && c.handoff.purged !== true && (wide || c.branch === (sel.branch ?? null));
        const { version, diverged } = await causalLatest(this.repo, this, v, accept);
        return { version, skipped, fallback: fallback(), diverged };
      }
      skipped.push(v);
    }
    return { version: null, skipped, fallback: fallback(), diverged: [] };
  }

  /**
   * Whether `branch` has a version, and else the branches that do (null: detached), newest
   * first. Stops at the first version of `branch`: the common answer costs one step.
   */
  async branchVersions(branch: string | null): Promise<{ found: boolean; branches: (string | null)[]; total: number }> {
    const branches: (string | null)[] = [];
    let total = 0;
    for await (const v of this.versions()) {
      total++;
      const b = v.branch === undefined ? (await this.read(v)).branch : v.branch;
      if (b === branch) return { found: true, branches: [], total };
      if (!branches.includes(b ?? null)) branches.push(b ?? null);
    }
    return { found: false, branches, total };
  }

  /** The newest few version ids, for a message naming the versions that do exist. */
  async newestIds(n = 5): Promise<string[]> {
    const out: string[] = [];
    for await (const v of this.versions()) {
      out.push(v.id.slice(0, 12));
      if (out.length >= n) break;
    }
    return out;
  }

  private async unknownVersion(message: string): Promise<UnknownVersion> {
    const ids = await this.newestIds();
    const known = ids.length ? `; the newest versions are ${ids.join(', ')} ('git handoff log' lists them all)` : '; there are no versions yet';
    return new UnknownVersion(`${message}${known}`);
  }

  /** Resolves a version name: a full id, a unique prefix of one, or `~N` within the selection. */
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
    for await (const v of this.versions()) if (v.id.startsWith(prefix)) hits.push(v);
    if (hits.length === 0) throw await this.unknownVersion(`no version matches ${name}`);
    if (hits.length > 1) throw new UnknownVersion(`version prefix ${name} is ambiguous: ${hits.map((h) => h.id.slice(0, 12)).join(', ')}`);
    return this.read(hits[0]);
  }

  /**
   * Appends a commit built by `mutate` on top of the current tip, compare-and-swap, retried
   * on the new tip when another writer got there first. Returns the new commit id.
   */
  async commit(
    kind: HandoffKind,
    mutate: (rootTree: string, tip: string | null) => Promise<string>,
    message: { subject: string; trailers?: Record<string, string>; identities?: Identities },
    opts: { extraParents?: string[]; pending?: PendingRefUpdate } = {},
  ): Promise<string> {
    const ids = message.identities ?? (await resolveIdentities(this.repo));
    const text = renderCommitMessage(message.subject, { 'Handoff-Kind': kind, ...message.trailers });
    let lockWaitStart = 0;
    const sign = await signingWanted(this.repo);
    for (let attempt = 0; attempt < MAX_CAS_ATTEMPTS; attempt++) {
      const tip = await this.tip();
      const root = tip ? (await this.readCommit(tip)).tree : EMPTY_TREE_OID;
      const tree = await mutate(root, tip);
      const parents = [...(tip ? [tip] : []), ...(opts.extraParents ?? [])];
      const made = { tree, parents, author: ids.author, committer: ids.committer, message: text };
      const oid = sign ? await writeSignedCommit(this.repo, made) : await this.repo.objects.write('commit', serializeCommit(made));
      const pending = attempt === 0 ? opts.pending : undefined;
      const r = pending ? await pending.update(NOTES_REF, oid, tip) : await this.repo.casUpdateRef(NOTES_REF, oid, tip, `handoff: ${kind}`);
      if (r === 'ok') return oid;
      if (r === 'locked') {
        lockWaitStart ||= Date.now();
        if (Date.now() - lockWaitStart > LOCK_WAIT_MS) throw this.lockHeld();
        await new Promise((res) => setTimeout(res, 20 + Math.random() * 80));
      } else {
        await new Promise((res) => setTimeout(res, Math.random() * 20));
      }
    }
    throw new ConcurrentWriters(`could not update ${NOTES_REF} after ${MAX_CAS_ATTEMPTS} attempts: too many concurrent writers`);
  }

  /** The one-line refusal for a lock on the ref that outlived the wait: its path, its age, the way out. */
  lockHeld(): LockHeld {
    return refLockHeld(this.repo, NOTES_REF);
  }
}
