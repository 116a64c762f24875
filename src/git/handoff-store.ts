/**
 * The versioned handoff store on `refs/notes/handoff` (docs/format.md).
 * A version is a commit that changed a handoff note; bookkeeping commits are not versions.
 * Every update is a compare-and-swap; a writer that loses the race rebuilds on the new tip.
 */
import { NOTES_REF, type Repo, type PendingRefUpdate } from './repo.js';
import { EMPTY_TREE_OID, parseTrailers, serializeCommit, type Commit } from './objects.js';
import { renderCommitMessage } from '../core/commit-message.js';
import { requireCommit } from './read-objects.js';
import { diffNotes, noteCopies, type NoteRef } from './notes-tree.js';
import { HeldNotes } from './held-notes.js';
import { parseLineage } from '../core/lineage.js';
import { resolveIdentities, type Identities } from './identity.js';
import { DEFAULT_MAX_BYTES } from '../core/bytes.js';
import type { Handoff } from '../core/schema.js';
import { ConcurrentWriters, LockHeld } from '../errors.js';
import { readBranchIndex, writeBranchIndex, type BranchIndex } from './branch-index.js';
import { isObjectId } from '../core/object-id.js';
import { refLockHeld } from './ref-locks.js';
import type { Visibility } from '../core/age.js';
import { noteKeys } from './note-keys.js';
import { interpretNote } from './note-reading.js';
import { signingWanted, writeSignedCommit } from './signing.js';

export type HandoffKind = 'version' | 'receipt' | 'item' | 'policy' | 'merge' | 'repair';

export interface VersionInfo {
  id: string;
  /** the commit the note sits on now: where this version's commit put it, unless a rewrite (git's note copy) moved it since */
  target: string;
  /** where the version's own commit put the note (its `Handoff-Target`) */
  writtenAt: string;
  /**
   * the versions it continues (docs/format.md "Lineage"): ids from `Handoff-Continues`, [] for
   * `none`; null for a version written before lineage or by another tool (it continues what
   * its commit had below it)
   */
  continues: string[] | null;
  /** the other heads of its branch its writer knew of and left open (`Handoff-Beside`) */
  beside: string[];
  /** committer time, seconds */
  timestamp: number;
  /** from our trailer; undefined for a native commit until its note is read */
  branch: string | null | undefined;
  native: boolean;
  commit: Commit;
}

/** A note blob git copied from the commits `from` (where the parent tree held it) to `target`. */
export interface NoteMove {
  blob: string;
  from: string[];
  target: string;
}

export interface ReadVersion extends VersionInfo {
  /** the note's blob id (absent when the note could not be found) */
  blob?: string;
  valid: boolean;
  problems: string[];
  handoff: Handoff;
  text: string | null;
  visibility: Visibility;
  readable: boolean;
  sealed?: boolean;
}

/** Which versions a reader looks at (src/history/reader.ts). */
export interface Selection {
  /** versions of this branch (null: detached); undefined with `all` */
  branch?: string | null;
  all?: boolean;
}

/** What a version's note says, once its bytes are found. */
const MAX_CAS_ATTEMPTS = 100;
const LOCK_WAIT_MS = 5000;
/** How many new notes commits the branch index reads itself before asking git which are new. */
const INDEX_WALK_LIMIT = 200;
/** How many new commits git may name for the branch index to be brought up to date one by one. */
const INDEX_FRESH_LIMIT = 5000;

/**
 * Whether a commit records no version and moves none, from its message and parents alone
 * (docs/format.md "Which commits are versions"): one with our kind trailer that is not a
 * version with a target (bookkeeping: receipts, items, policy, merges), or a merge without
 * it. Such commits are nothing to a reader of versions but the way to their parents.
 */
export function recordsNothing(commit: Commit, trailers: Record<string, string> = parseTrailers(commit.message)): boolean {
  const kind = trailers['Handoff-Kind'];
  if (kind) return kind !== 'version' || !isObjectId(trailers['Handoff-Target']);
  return commit.parents.length > 1;
}

export class HandoffStore {
  private readonly held: HeldNotes;
  private readonly copies = new Map<string, NoteRef[]>();

  constructor(readonly repo: Repo) {
    this.held = new HeldNotes(repo);
  }

  tip(): Promise<string | null> {
    return this.repo.resolveRef(NOTES_REF);
  }

  readCommit(oid: string): Promise<Commit> {
    return requireCommit(this.repo.objects, oid);
  }

  /**
   * Commits of the notes history, newest first (committer date, never a parent before its
   * child). `stop` and what lies only behind it are not walked. `jump` names, for a commit,
   * the commits its walk goes on from instead of its parents (bookkeeping commits passed
   * over, src/git/walk-skips.ts): the commit is given with those as its parents.
   */
  async *walk(from?: string | null, stop?: string, jump?: (id: string) => string[] | undefined): AsyncGenerator<{ id: string; commit: Commit }> {
    const start = from === undefined ? await this.tip() : from;
    if (!start || start === stop) return;
    const seen = new Set<string>([start, ...(stop ? [stop] : [])]);
    const queue: { id: string; commit: Commit; seq: number }[] = [];
    let seq = 0;
    const push = async (id: string) => {
      const commit = await this.readCommit(id);
      const to = jump?.(id);
      queue.push({ id, commit: to ? { ...commit, parents: to } : commit, seq: seq++ });
    };
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
      // (the consumer may have learnt a jump for it meanwhile)
      for (const p of jump?.(next.id) ?? next.commit.parents) {
        if (seen.has(p)) continue;
        seen.add(p);
        await push(p);
      }
    }
  }

  /** The version a commit records, or null for a bookkeeping commit or a move (`classify`). */
  async versionOf(id: string, commit: Commit): Promise<VersionInfo | null> {
    return (await this.classify(id, commit)).version;
  }

  /**
   * What a notes commit is (docs/format.md "Which commits are versions"): a version, or a
   * native commit that only copies note blobs the tree already held (git's own copy on amend
   * and rebase: the same versions moved to new targets, `moves`), or bookkeeping (neither).
   */
  async classify(id: string, commit: Commit): Promise<{ version: VersionInfo | null; moves: NoteMove[] }> {
    const trailers = parseTrailers(commit.message);
    const none = { version: null, moves: [] };
    if (recordsNothing(commit, trailers)) return none;
    if (trailers['Handoff-Kind']) {
      const target = trailers['Handoff-Target'];
      const lineage = parseLineage(trailers);
      return {
        version: {
          id,
          target,
          writtenAt: target,
          ...lineage,
          timestamp: commit.committer.timestamp,
          branch: trailers['Handoff-Branch'] ?? null,
          native: false,
          commit,
        },
        moves: [],
      };
    }
    const parentTree = commit.parents.length ? (await this.readCommit(commit.parents[0])).tree : EMPTY_TREE_OID;
    const changed = (await diffNotes(this.repo.objects, parentTree, commit.tree)).filter((d) => d.newBlob);
    if (!changed.length) return none;
    // Where the parent tree holds each new blob (a copy), from one index moved along the walk.
    const held = await this.held.targets(
      parentTree,
      changed.map((d) => d.newBlob!),
    );
    const moves = changed.filter((d) => held.has(d.newBlob!)).map((d) => ({ blob: d.newBlob!, from: held.get(d.newBlob!)!, target: d.target }));
    const fresh = changed.filter((d) => !held.has(d.newBlob!));
    if (!fresh.length) return { version: null, moves };
    const target = fresh[0].target;
    return {
      version: { id, target, writtenAt: target, continues: null, beside: [], timestamp: commit.committer.timestamp, branch: undefined, native: true, commit },
      moves,
    };
  }

  async *versions(from?: string | null): AsyncGenerator<VersionInfo> {
    for await (const { id, commit } of this.walk(from)) {
      const v = await this.versionOf(id, commit);
      if (v) yield v;
    }
  }

  /**
   * Every copy of the note for `target` in `tree`, shallowest first (the first is the note
   * `read` reads; a second is the double note `show` names): the same walk as `findNote`, kept
   * for the last versions read, so `show` asking of the tip it just read reads no tree again.
   */
  async noteCopies(tree: string, target: string): Promise<NoteRef[]> {
    const key = `${tree}:${target}`;
    const known = this.copies.get(key);
    if (known) return known;
    const found = await noteCopies(this.repo.objects, tree, target);
    if (this.copies.size >= 16) this.copies.clear();
    this.copies.set(key, found);
    return found;
  }

  /** Reads a version's note; an unreadable note is reported, never thrown. */
  async read(v: VersionInfo): Promise<ReadVersion> {
    const bad = (problem: string, text: string | null = null): ReadVersion => ({
      ...v,
      valid: false,
      problems: [problem],
      handoff: {},
      text,
      visibility: 'shared',
      readable: true,
    });
    const [note] = await this.noteCopies(v.commit.tree, v.writtenAt);
    if (!note) return bad('the note is missing from this version');
    const blob = await this.repo.objects.read(note.blob);
    if (!blob) return bad(`note blob ${note.blob} is missing`);
    const maxBytes = Math.max(DEFAULT_MAX_BYTES, await this.repo.configInt('handoff.maxBytes', DEFAULT_MAX_BYTES));
    return interpretNote({ ...v, blob: note.blob }, blob.data, maxBytes, noteKeys(this.repo));
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
      // (more than a sync brings in a day: a remote's run of bookkeeping, say; the reader's
      // walk, which jumps over such runs, builds the index again instead of reading each here)
      const r = await this.repo.runGit(['rev-list', `--max-count=${INDEX_FRESH_LIMIT + 1}`, tip, `^${cached.tip}`], { readOnly: true });
      if (r.code !== 0) return null;
      fresh = r.stdout
        .toString('utf8')
        .split('\n')
        .filter((l) => /^[0-9a-f]{40,64}$/.test(l));
      if (fresh.length > INDEX_FRESH_LIMIT) return null;
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
    const built = async (root: string, tip: string | null) => ({ tree: await mutate(root, tip), subject: message.subject, trailers: message.trailers ?? {} });
    return (await this.commitBuilt(kind, built, message.identities, opts))!;
  }

  /**
   * `commit` for a change that depends on what the tip holds (a version's lineage, a patch
   * applied to the head): `build` is asked again on every attempt, with the tip it builds on,
   * and may decline (null: nothing to write any more), which ends the attempts.
   */
  async commitBuilt(
    kind: HandoffKind,
    build: (rootTree: string, tip: string | null) => Promise<{ tree: string; subject: string; trailers: Record<string, string> } | null>,
    identities: Identities | undefined,
    opts: { extraParents?: string[]; pending?: PendingRefUpdate } = {},
  ): Promise<string | null> {
    const ids = identities ?? (await resolveIdentities(this.repo));
    let lockWaitStart = 0;
    const sign = await signingWanted(this.repo);
    for (let attempt = 0; attempt < MAX_CAS_ATTEMPTS; attempt++) {
      const tip = await this.tip();
      const root = tip ? (await this.readCommit(tip)).tree : EMPTY_TREE_OID;
      const b = await build(root, tip);
      if (!b) return null;
      const text = renderCommitMessage(b.subject, { 'Handoff-Kind': kind, ...b.trailers });
      const parents = [...(tip ? [tip] : []), ...(opts.extraParents ?? [])];
      const made = { tree: b.tree, parents, author: ids.author, committer: ids.committer, message: text };
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
