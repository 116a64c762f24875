/**
 * What a purge decides about the history ../git/history-rewrite.ts replays: the purge
 * records a notes tree carries, the tombstone a purged note becomes (the facts that place it,
 * in canonical YAML), and the message of a commit that put a purged note in place.
 */
import type { ObjectStore } from '../git/objects.js';
import type { Repo } from '../git/repo.js';
import { listPath } from '../git/notes-tree.js';
import { rewriteHistory as replay, type NoteRewrite, type Rewrite } from '../git/history-rewrite.js';
import { decodeText, DEFAULT_MAX_BYTES } from '../core/bytes.js';
import { parseDocument } from '../core/parse.js';
import { checkStored } from '../core/schema.js';
import { toCanonicalYaml } from '../core/canonical.js';
import { parseTrailers } from '../core/commit-message.js';
import { parseRecord, purgedMessage, recordSitsAt, strictPurgedMessage, tombstone, PURGED_DIR, RECORD_TOMBSTONE, type PurgeRecord } from '../core/purge.js';

export { expireUnreachableReflogs } from '../git/history-rewrite.js';

/** The purge records a notes tree carries (under `purged/`, docs/format.md "Purge"). */
export async function purgeRecords(store: ObjectStore, root: string): Promise<PurgeRecord[]> {
  const out: PurgeRecord[] = [];
  for (const e of await listPath(store, root, PURGED_DIR)) {
    const blob = await store.read(e.oid);
    const r = blob?.type === 'blob' ? parseRecord(blob.data.toString('utf8')) : null;
    if (r && recordSitsAt(r, e.name)) out.push(r);
  }
  return out;
}

/** The tombstone of a purged note: keeps only the facts that place it (an unreadable note keeps nothing). */
async function tombstoneOf(note: Buffer | null): Promise<Buffer> {
  let original = null;
  if (note) {
    const decoded = decodeText(note, Math.max(DEFAULT_MAX_BYTES, note.length));
    if ('text' in decoded) {
      try {
        const { handoff, problems } = checkStored(await parseDocument(decoded.text));
        if (!problems.length) original = handoff;
      } catch {
        // an unparseable note keeps nothing
      }
    }
  }
  return Buffer.from(toCanonicalYaml(tombstone(original) as Record<string, unknown>), 'utf8');
}

const PURGE: NoteRewrite = {
  tombstone: tombstoneOf,
  message: (message, target) => purgedMessage(parseTrailers(message), target),
  strictMessage: (message, target) => strictPurgedMessage(parseTrailers(message), target),
  record: Buffer.from(RECORD_TOMBSTONE, 'utf8'),
};

/**
 * Replays the history of `tip` with `records` applied and returns the new tip. Writes
 * objects only; moving a ref is the caller's compare-and-swap.
 */
export function rewriteHistory(repo: Repo, store: ObjectStore, tip: string, records: PurgeRecord[]): Promise<Rewrite> {
  return replay(repo, store, tip, records, PURGE);
}
