/**
 * `show`: the latest version of the selection (or `--version V`), whether it is stale,
 * and whether a new handoff is due.
 */
import type { Repo } from '../git/repo.js';
import type { HandoffStore, ReadVersion } from '../git/handoff-store.js';
import { VersionReader, type Latest, type Selection } from '../history/reader.js';
import { readCommit } from '../git/read-objects.js';
import { findNote } from '../git/notes-tree.js';
import { interpretNote } from '../git/note-reading.js';
import { DEFAULT_MAX_BYTES } from '../core/bytes.js';
import { ageInDays } from '../core/bookmark.js';
import { dueFrom, subjectLine, type DueReason } from '../core/substantive.js';
import { isoUtc } from '../git/identity.js';
import { remoteAhead, type RemoteAhead } from './remote-ahead.js';
import { UnknownBranch } from '../errors.js';
import { defaultRemote } from '../git/remote.js';
import type { Provenance } from '../core/provenance.js';

export const DEFAULT_STALE_DAYS = 7;
/** How far back `due` looks for the version's head before giving up. */
const DUE_WALK_LIMIT = 1000;

export interface ShowRequest {
  version?: string;
  branch?: string;
  all?: boolean;
  nowMs?: number;
}

export interface ShowResult {
  version: ReadVersion | null;
  /** invalid versions passed over on the way to the shown one */
  skipped: ReadVersion[];
  /** the current branch has no version; the newest overall is shown */
  fallback: boolean;
  currentBranch: string | null;
  date: string | null;
  stale: boolean;
  ageDays: number | null;
  staleDays: number;
  due: DueReason | null;
  /** the last fetched remote history has versions this clone lacks */
  remoteAhead: RemoteAhead | null;
  /** no handoff history here at all, nothing fetched, but this remote is configured (a fresh clone) */
  freshCloneRemote?: string | null;
  /** concurrent versions of sessions whose work the shown one does not continue */
  diverged?: ReadVersion[];
  /** where the note of the shown version's commit is stored, when it is stored more than once (shown: the first) */
  noteCopies?: string[];
  /** whose words the shown version holds (author, origin, signature); null with no version */
  provenance?: Provenance | null;
}

export function selectionFor(repo: Repo, req: { branch?: string; all?: boolean }): Selection {
  if (req.all) return { all: true };
  return { branch: req.branch ?? repo.headBranch() };
}

/** Two or more heads of the current branch (what `show` calls diverged), as the one reader orders them; null when there is one. */
export interface Divergence {
  latest: ReadVersion;
  diverged: ReadVersion[];
}

/** The current branch's divergence, for the readers that report it beside their own answer (sync, doctor, the post-commit reminder, the agents' prompt hook). */
export async function currentDivergence(repo: Repo): Promise<Divergence | null> {
  return divergenceOf(await new VersionReader(repo).latest(selectionFor(repo, {})));
}

/** The divergence a latest already read says (the post-commit hook reads the branch's latest once for its two rules). */
export function divergenceOf(l: Latest): Divergence | null {
  return l.version && l.diverged.length ? { latest: l.version, diverged: l.diverged } : null;
}

/**
 * The selection, refusing a `--branch` that has no version (never silently the
 * newest of another branch), naming the branches that have one. With no history at all
 * there is nothing to substitute, so that stays "no handoff".
 */
export async function checkedSelection(repo: Repo, reader: VersionReader, req: { branch?: string; all?: boolean }): Promise<Selection> {
  const sel = selectionFor(repo, req);
  if (req.branch === undefined || req.all) return sel;
  const { found, branches, total } = await reader.branchVersions(req.branch);
  if (found || total === 0) return sel;
  const names = branches.map((b) => b ?? '(detached HEAD)').join(', ');
  throw new UnknownBranch(`no handoff on branch '${req.branch}'; branches with handoffs: ${names}`, { branch: req.branch, branches });
}

export async function showHandoff(repo: Repo, req: ShowRequest): Promise<ShowResult> {
  const reader = new VersionReader(repo);
  const sel = await checkedSelection(repo, reader, req);
  if (req.version) {
    const version = await reader.resolve(req.version, sel);
    return showFacts(repo, reader, { version, skipped: [], fallback: false, diverged: [] }, { pinned: true, nowMs: req.nowMs });
  }
  return showLatest(repo, reader, await reader.latest(sel), req.nowMs);
}

/** `show --version` for a version the caller has already read (the view, which lists them): no history walk to find it again. */
export function showVersion(repo: Repo, reader: VersionReader, version: ReadVersion, nowMs?: number): Promise<ShowResult> {
  return showFacts(repo, reader, { version, skipped: [], fallback: false, diverged: [] }, { pinned: true, nowMs });
}

/** The version the reader picked as the latest of a selection, with what it passed over on the way. */
export type PickedLatest = Latest;

/**
 * `show`'s facts about a latest version the caller has already picked: the relay picks it to
 * decide whether to relay, and its prompt must describe that very version, told what `show`
 * tells (stale, due, remote versions this clone lacks), without reading the history twice.
 */
export function showLatest(repo: Repo, reader: VersionReader, picked: PickedLatest, nowMs?: number): Promise<ShowResult> {
  return showFacts(repo, reader, picked, { pinned: false, nowMs });
}

/** pinned: a version asked for by name (`--version`), which is neither due nor compared with the remote. */
async function showFacts(repo: Repo, reader: VersionReader, picked: PickedLatest, how: { pinned: boolean; nowMs?: number }): Promise<ShowResult> {
  const store = reader.store;
  const { version, skipped, fallback, diverged } = picked;
  const currentBranch = repo.headBranch();
  const staleDays = await repo.configInt('handoff.staleDays', DEFAULT_STALE_DAYS);
  const ahead = how.pinned ? null : await remoteAhead(repo, store);
  if (!version) {
    // git clone brings no notes: say how they travel, from config alone (no network call).
    const fresh = !how.pinned && !ahead && skipped.length === 0 && !(await store.tip()) ? await freshCloneRemote(repo) : null;
    return {
      version: null,
      skipped,
      fallback,
      currentBranch,
      date: null,
      stale: false,
      ageDays: null,
      staleDays,
      due: null,
      remoteAhead: ahead,
      freshCloneRemote: fresh,
    };
  }
  const date = typeof version.handoff.date === 'string' ? version.handoff.date : isoUtc(version.timestamp);
  const ageDays = ageInDays(date, how.nowMs ?? Date.now());
  const [due, provenance] = await Promise.all([how.pinned ? null : dueSince(repo, version, store), reader.provenance.one(version.id)]);
  const tip = await store.tip();
  // (the tip's version was just read: its copies are known without reading the tree again)
  const copies = tip ? await store.noteCopies((await store.readCommit(tip)).tree, version.target) : [];
  return {
    version,
    skipped,
    fallback,
    currentBranch,
    date,
    stale: ageDays > staleDays,
    ageDays,
    staleDays,
    due,
    remoteAhead: ahead,
    freshCloneRemote: null,
    diverged,
    ...(copies.length > 1 ? { noteCopies: copies.map((c) => c.path) } : {}),
    provenance,
  };
}

/** The remote a fresh clone would fetch its handoffs from: the default one, else any configured. */
async function freshCloneRemote(repo: Repo): Promise<string | null> {
  const d = await defaultRemote(repo);
  if (d) return d;
  for (const key of (await repo.config()).keys()) {
    const m = /^remote\.(.+)\.url$/.exec(key);
    if (m) return m[1];
  }
  return null;
}

/**
 * docs/hooks.md: a non-excluded commit on the current branch since the version's head.
 * Walks HEAD's first parents back to that head (or the commit the note now sits on after a
 * rewrite); when neither is found, only commits newer than the version count. A commit that
 * carries a handoff itself is no work made since (a rebase that reordered the commits moved
 * older handoffs above the latest one; their work was done before it was written); a note
 * that is no valid handoff (skipped with a warning) does not make it one.
 */
export async function dueSince(repo: Repo, version: ReadVersion, store: HandoffStore): Promise<DueReason | null> {
  const stops = new Set([version.target, ...(typeof version.handoff.head === 'string' ? [version.handoff.head] : [])]);
  const head = await repo.headCommit();
  if (!head || stops.has(head)) return null;
  const commits: { id: string; subject: string; timestamp: number }[] = [];
  let id: string | undefined = head;
  let found = false;
  while (id && commits.length < DUE_WALK_LIMIT) {
    if (stops.has(id)) {
      found = true;
      break;
    }
    const c = await readCommit(repo.objects, id);
    if (!c) break;
    commits.push({ id, subject: subjectLine(c.message), timestamp: c.committer.timestamp });
    id = c.parents[0];
  }
  const since = found ? commits : commits.filter((c) => c.timestamp >= version.timestamp);
  const tip = since.length ? await store.tip() : null;
  if (!tip) return dueFrom(since);
  const root = (await store.readCommit(tip)).tree;
  const bare: typeof since = [];
  for (const c of since) if (!(await carriesHandoff(repo, root, c.id))) bare.push(c);
  return dueFrom(bare);
}

/** Whether commit `id` carries a handoff: a note that reads as a valid one (or is encrypted for others). */
async function carriesHandoff(repo: Repo, root: string, id: string): Promise<boolean> {
  const note = await findNote(repo.objects, root, id);
  const blob = note && (await repo.objects.read(note.blob));
  if (!blob) return false;
  const read = await interpretNote({ branch: null }, blob.data, DEFAULT_MAX_BYTES);
  return read.valid || read.sealed === true;
}
