/**
 * `purge`: what replaces a version whose content leaked a secret. Everything here
 * is derived only from the purged version itself, so two clones that purge the same
 * version rewrite the same history to the same commits, and a sync can match them.
 */
import type { Handoff } from './schema.js';
import { isObjectId } from './object-id.js';

/** A purge as recorded in the notes tree at `purged/<version>`, travelling with sync. */
export interface PurgeRecord {
  /** the purged version's commit id (in the history before the purge) */
  version: string;
  /** the commit the purged note was attached to */
  target: string;
  /** the purged note blob: every later copy of it is replaced too */
  blob: string;
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
  const kept = Object.entries(trailers).filter(([k]) => k.startsWith('Handoff-'));
  const subject = `handoff ${target.slice(0, 7)}: content purged`;
  return kept.length ? `${subject}\n\n${kept.map(([k, v]) => `${k}: ${v}`).join('\n')}\n` : `${subject}\n`;
}

export function recordPath(version: string): string {
  return `${PURGED_DIR}/${version}`;
}

export function formatRecord(r: PurgeRecord): string {
  return `${JSON.stringify({ version: r.version, target: r.target, blob: r.blob })}\n`;
}

/** Reads a record back; anything malformed is ignored (null), never fatal. */
export function parseRecord(text: string): PurgeRecord | null {
  try {
    const v = JSON.parse(text) as Record<string, unknown>;
    const hex = isObjectId;
    return hex(v.version) && hex(v.target) && hex(v.blob) ? { version: v.version, target: v.target, blob: v.blob } : null;
  } catch {
    return null;
  }
}
