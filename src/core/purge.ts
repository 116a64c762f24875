/**
 * `purge`: what replaces a version whose content leaked a secret. Everything here
 * is derived only from the purged version itself, so two clones that purge the same
 * version rewrite the same history to the same commits, and a sync can match them.
 */
import type { Handoff } from './schema.js';
import { createHash } from 'node:crypto';
import { isObjectId } from './object-id.js';

/** A purge as recorded in the notes tree at `recordPath(record)`, travelling with sync. */
export interface PurgeRecord {
  /** the purged version's commit id (in the history before the purge) */
  version: string;
  /** the commit the purged note was attached to */
  target: string;
  /** the purged note blob: every later copy of it is replaced too */
  blob: string;
  /**
   * for a bookkeeping record (`receipts/...`, `items/...`, `policy/...`): its path; `version`
   * (and `target`, so that an older reader takes it for a note it does not find) is then the
   * notes commit that put `blob` there
   */
  path?: string;
  /**
   * the commit `version`'s message is purged too (`strictPurgedMessage`): its scan found a
   * secret that the plain purged message keeps (a `Handoff-` trailer), or `version` is a
   * bookkeeping commit whose message holds one (`target` and `blob` are then `version` too,
   * so an earlier release takes it for a version whose note it does not find, and still
   * replaces the commit's subject)
   */
  message?: true;
  /**
   * the entries this commit (`version`) adds whose names hold a secret, each as the sha1 of its
   * path (the name itself would leak again): removed from every tree of the history that holds
   * that path. The paths are found again from the commit itself, in every clone.
   */
  names?: string[];
}

/** What a purged bookkeeping record becomes wherever the history holds it. */
export const RECORD_TOMBSTONE = '{"purged":true}\n';

/** Whether a bookkeeping record's text is a purge's tombstone (readers take it for "purged", not for a damaged record). */
export function isRecordTombstone(text: string): boolean {
  try {
    const v = JSON.parse(text) as unknown;
    return typeof v === 'object' && v !== null && !Array.isArray(v) && Object.keys(v).length === 1 && (v as { purged?: unknown }).purged === true;
  } catch {
    return false;
  }
}

/** A path a bookkeeping purge may name: inside the notes tree, beside the notes (not a note's fan-out path), no `.`/`..` parts. */
export function isRecordPath(path: string): boolean {
  const parts = path.split('/');
  if (parts.length < 2 || parts.some((x) => x === '' || x === '.' || x === '..')) return false;
  return !/^[0-9a-f]{2}$|^[0-9a-f]{40,64}$/.test(parts[0]) && parts[0] !== PURGED_DIR;
}

export const PURGED_DIR = 'purged';
export const TOMBSTONE_SUMMARY = '(purged: this version held content that was removed with git handoff purge)';

/** Tool-filled facts that name commits, kept so the tombstone still sits in its place. */
const KEPT = ['date', 'branch', 'head', 'head_tree', 'head_patch_id'] as const;

/** The handoff stored in place of a purged one: no user content, only where it was. */
export function tombstone(original: Handoff | null): Handoff {
  const out: Handoff = { schema: 1, status: 'paused', summary: TOMBSTONE_SUMMARY, purged: true };
  for (const k of KEPT) {
    const v = original?.[k];
    if (typeof v === 'string' || (k === 'branch' && v === null)) (out as Record<string, unknown>)[k] = v;
  }
  return out;
}

/** The commit message of a purged version: the subject may quote the secret, our trailers stay. */
export function purgedMessage(trailers: Record<string, string>, target: string): string {
  return messageKeeping(trailers, target, ([k]) => k.startsWith('Handoff-'));
}

/** A purged commit's message: the fixed subject, and the trailers `keep` keeps. */
function messageKeeping(trailers: Record<string, string>, target: string, keep: (t: [string, string]) => boolean): string {
  const kept = Object.entries(trailers).filter(keep);
  const subject = `handoff ${target.slice(0, 7)}: content purged`;
  return kept.length ? `${subject}\n\n${kept.map(([k, v]) => `${k}: ${v}`).join('\n')}\n` : `${subject}\n`;
}

/** Whether a record purges a bookkeeping commit (its message, names its tree adds), no note. */
export function isCommitOnly(r: Pick<PurgeRecord, 'version' | 'blob' | 'message' | 'names'>): boolean {
  return (r.message === true || Boolean(r.names?.length)) && r.blob === r.version;
}

/** How a record names a path it removes: the sha1 of the path. */
export function pathDigest(path: string): string {
  return createHash('sha1').update(path, 'utf8').digest('hex');
}

// The trailer values a strict purged message keeps: shapes that hold no words (ids, fixed words, counts).
const IDS = /^(?:none|[0-9a-f]{40}(?:[0-9a-f]{24})?(?:,[ ]?[0-9a-f]{40}(?:[0-9a-f]{24})?)*)$/;
const KEEP: Record<string, RegExp> = {
  'Handoff-Kind': /^(?:version|receipt|item|policy|merge|repair)$/,
  'Handoff-Target': IDS,
  'Handoff-Continues': IDS,
  'Handoff-Beside': IDS,
  'Handoff-Reattached-From': IDS,
  'Handoff-Policy': IDS,
  'Handoff-Purged': IDS,
  'Handoff-Visibility': /^(?:team|private)$/,
  'Handoff-Relay': /^(?:requested|tasks-per-session)$/,
  'Handoff-Relay-Completed': /^[0-9]{1,9}$/,
  'Handoff-Restored': /^[0-9]{1,9}$/,
};

/**
 * The message of a commit whose message a record purges (`message: true`): the subject, the
 * body and every trailer that may hold words (a branch, a remote, an approver, an item) go;
 * only the trailers whose values are ids, fixed words or counts stay, so the commit keeps
 * its kind and place. Derived from the message alone: every clone makes the same commit.
 */
export function strictPurgedMessage(trailers: Record<string, string>, target: string): string {
  return messageKeeping(trailers, target, ([k, v]) => KEEP[k]?.test(v) ?? false);
}

/**
 * Where a record is kept: `purged/<version>` for a version; for a bookkeeping record
 * `purged/<commit>.<sha1 of its path>`, since one notes commit may put several leaked records
 * in place (each gets a record of its own, named the same in every clone).
 */
export function recordPath(r: Pick<PurgeRecord, 'version' | 'path'>): string {
  return `${PURGED_DIR}/${recordName(r)}`;
}

function recordName(r: Pick<PurgeRecord, 'version' | 'path'>): string {
  return r.path === undefined ? r.version : `${r.version}.${pathDigest(r.path)}`;
}

/**
 * Whether a record read at `purged/<name>` is kept there (a copy elsewhere is ignored). A
 * bookkeeping record written before one commit could hold several sits at `purged/<commit>`.
 */
export function recordSitsAt(r: PurgeRecord, name: string): boolean {
  return name === recordName(r) || (r.path !== undefined && name === r.version);
}

/** What tells two records apart: a version, or a path as one notes commit put it. */
export function recordKey(r: Pick<PurgeRecord, 'version' | 'path'>): string {
  return r.path === undefined ? r.version : `${r.version} ${r.path}`;
}

export function formatRecord(r: PurgeRecord): string {
  return `${JSON.stringify({ version: r.version, target: r.target, blob: r.blob, ...(r.path ? { path: r.path } : {}), ...(r.message ? { message: true } : {}), ...(r.names?.length ? { names: r.names } : {}) })}\n`;
}

/** Reads a record back; anything malformed is ignored (null), never fatal. */
export function parseRecord(text: string): PurgeRecord | null {
  try {
    const v = JSON.parse(text) as Record<string, unknown>;
    const hex = isObjectId;
    if (!hex(v.version) || !hex(v.target) || !hex(v.blob)) return null;
    const names =
      Array.isArray(v.names) && v.names.length && v.names.every((n) => typeof n === 'string' && /^[0-9a-f]{40}$/.test(n)) ? (v.names as string[]) : null;
    if (v.path === undefined)
      return { version: v.version, target: v.target, blob: v.blob, ...(v.message === true ? { message: true as const } : {}), ...(names ? { names } : {}) };
    return typeof v.path === 'string' && isRecordPath(v.path) ? { version: v.version, target: v.target, blob: v.blob, path: v.path } : null;
  } catch {
    return null;
  }
}
