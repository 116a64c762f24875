/**
 * What the search index holds of one version (../git/search-index.ts keeps the file and reads
 * the history): the note decoded, parsed and checked, its searchable fields, or a line that
 * counts it as invalid.
 */
import type { Repo } from '../git/repo.js';
import type { DescribeVersion, IndexedVersion, StoredVersion } from '../git/search-index.js';
import { isoUtc } from '../git/identity.js';
import { decodeText, DEFAULT_MAX_BYTES } from '../core/bytes.js';
import { parseDocument } from '../core/parse.js';
import { checkStored } from '../core/schema.js';
import { searchableFields } from '../core/search.js';

/** The reader of index lines for `repo`: `handoff.maxBytes` is read once, when a first version is read. */
export function indexEntryReader(repo: Repo): DescribeVersion {
  let maxBytes: Promise<number> | null = null;
  return async (v) => indexEntry(v, await (maxBytes ??= repo.configInt('handoff.maxBytes', DEFAULT_MAX_BYTES).then((n) => Math.max(DEFAULT_MAX_BYTES, n))));
}

async function indexEntry(f: StoredVersion, maxBytes: number): Promise<IndexedVersion> {
  const bad = (): IndexedVersion => ({ id: f.id, t: f.t, d: isoUtc(f.t), b: f.branch ?? null, g: f.target, v: 0 });
  if (!f.note) return bad();
  const decoded = decodeText(f.note, maxBytes);
  if ('problem' in decoded) return bad();
  let value: unknown;
  try {
    value = await parseDocument(decoded.text);
  } catch {
    return bad();
  }
  const { handoff, problems } = checkStored(value);
  const branch = f.branch === undefined ? (typeof handoff.branch === 'string' ? handoff.branch : null) : f.branch;
  if (problems.length) return { ...bad(), b: branch };
  return {
    id: f.id,
    t: f.t,
    d: typeof handoff.date === 'string' ? handoff.date : isoUtc(f.t),
    b: branch,
    g: f.target,
    v: 1,
    status: handoff.status,
    summary: typeof handoff.summary === 'string' ? handoff.summary.split('\n')[0] : undefined,
    f: searchableFields(handoff),
  };
}
