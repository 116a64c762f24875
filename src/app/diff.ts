/**
 * `diff`: what changed between two versions of a selection, field by field (default: the
 * one before the latest against the latest), and which of the two a history rewrite moved.
 * The CLI and the MCP tool both answer from here.
 */
import type { Repo } from '../git/repo.js';
import type { ReadVersion } from '../git/handoff-store.js';
import { VersionReader } from '../history/reader.js';
import { movedByRewrite } from '../core/rewrite.js';
import type { Change } from '../core/version-diff.js';
import { plainPainter, type Painter } from '../core/bookmark.js';
import { checkedSelection, selectionFor } from './show.js';
import { isHandoffError, TooFewVersions, UnknownVersion } from '../errors.js';

export interface DiffRequest {
  /** the older version (id, unique prefix or ~N); default ~1 */
  old?: string;
  /** the newer version; default the latest (~0) */
  new?: string;
  branch?: string;
  all?: boolean;
  /**
   * Refuse a `branch` that has no version, as `show` does (the CLI); the MCP tool counts
   * ~N among whatever that branch selects.
   */
  checkBranch: boolean;
  /** also the fields the tool fills (`head`, `head_tree`, `head_patch_id`, `date`, ...); by default only what a person wrote */
  bookkeeping?: boolean;
}

export interface MovedVersion {
  version: string;
  from: string;
  to: string;
}

export interface VersionDiff {
  old: ReadVersion;
  new: ReadVersion;
  changes: Change[];
  /** bookkeeping changes left out of `changes` (none with `bookkeeping`) */
  hidden: number;
  /** versions whose note a rewrite (amend, rebase) carried to another commit */
  moved: MovedVersion[];
  /** the versions of the two this reader cannot read, and why; `changes` is then empty */
  unreadable?: { version: string; reason: string }[];
}

export async function diffVersions(repo: Repo, req: DiffRequest): Promise<VersionDiff> {
  const reader = new VersionReader(repo);
  const sel = req.checkBranch ? await checkedSelection(repo, reader, req) : selectionFor(repo, req);
  let oldV: ReadVersion;
  let newV: ReadVersion;
  try {
    [oldV, newV] = [await reader.resolve(req.old ?? '~1', sel), await reader.resolve(req.new ?? '~0', sel)];
  } catch (e) {
    // With both names defaulted only `~1` or `~0` can be missing: the selection is too short.
    if (req.old === undefined && req.new === undefined && isHandoffError(e, UnknownVersion)) {
      const only = await reader.resolve('~0', sel).catch(() => null);
      throw new TooFewVersions('diff needs two versions; this selection has fewer', { versions: only ? 1 : 0, ...(only ? { only: only.id } : {}) });
    }
    throw e;
  }
  return diffOf(oldV, newV, Boolean(req.bookkeeping));
}

/** What changed from `oldV` to `newV` (two versions already read), and which of them a rewrite moved. */
export async function diffOf(oldV: ReadVersion, newV: ReadVersion, bookkeeping: boolean): Promise<VersionDiff> {
  // Loaded here, not at start-up: the `diff` package is only needed to compare.
  const { diffHandoffs, isBookkeeping } = await import('../core/version-diff.js');
  const moved = [oldV, newV].flatMap((v) => {
    const m = movedByRewrite(v.handoff, v.target);
    return m ? [{ version: v.id, ...m }] : [];
  });
  const unreadable = [oldV, newV].filter((v) => !v.readable).map((v) => ({ version: v.id, reason: v.problems[0] ?? 'it cannot be read here' }));
  if (unreadable.length) return { old: oldV, new: newV, changes: [], hidden: 0, moved, unreadable };
  const all = diffHandoffs(oldV.handoff, newV.handoff);
  const changes = bookkeeping ? all : all.filter((c) => !isBookkeeping(c));
  return { old: oldV, new: newV, changes, hidden: all.length - changes.length, moved };
}

/** `diff --json`'s document; the MCP tool returns the same one. */
export function diffJson(d: VersionDiff) {
  return {
    ok: true,
    old: d.old.id,
    new: d.new.id,
    changes: d.changes,
    ...(d.moved.length ? { moved: d.moved } : {}),
    ...(d.unreadable?.length ? { unreadable: d.unreadable } : {}),
  };
}

/** The text `diff` prints (the MCP tool returns the same), the heading through `paint`. */
export async function diffText(d: VersionDiff, paint: Painter = plainPainter): Promise<string> {
  const { renderVersionDiff } = await import('../core/version-diff.js');
  return renderVersionDiff(d, (s) => paint.heading(s));
}
