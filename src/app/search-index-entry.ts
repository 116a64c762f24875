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
import { isArmoredAge } from '../core/age.js';
import { interpretNote } from '../git/note-reading.js';
import { noteKeys } from '../git/note-keys.js';

/** The reader of index lines for `repo`: `handoff.maxBytes` is read once, when a first version is read. */
export function indexEntryReader(repo: Repo): DescribeVersion {
  let maxBytes: Promise<number> | null = null;
  return async (v) => indexEntry(v, await (maxBytes ??= repo.configInt('handoff.maxBytes', DEFAULT_MAX_BYTES).then((n) => Math.max(DEFAULT_MAX_BYTES, n))));
}

async function indexEntry(f: StoredVersion, maxBytes: number): Promise<IndexedVersion> {
  const blob = f.blob ? { n: f.blob } : {};
  const bad = (): IndexedVersion => ({ id: f.id, t: f.t, d: isoUtc(f.t), b: f.branch ?? null, g: f.target, v: 0, ...blob });
  if (!f.note) return bad();
  // An encrypted note: its line names the blob and holds none of its text; a search decrypts it in memory.
  if (isArmoredAge(f.note) && f.blob) return { ...bad(), v: 2 };
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
    ...blob,
  };
}

/**
 * The index lines of encrypted versions (`v: 2`) read for this search: decrypted in memory
 * with the user's identity into the line a shared version would have had, never written
 * anywhere. Those the identity cannot read are left out and counted; a damaged one counts
 * as invalid (`v: 0`).
 */
export async function openEncrypted(repo: Repo, lines: string[]): Promise<{ lines: string[]; unreadable: number }> {
  const describe = indexEntryReader(repo);
  const keys = noteKeys(repo);
  const maxBytes = Math.max(DEFAULT_MAX_BYTES, await repo.configInt('handoff.maxBytes', DEFAULT_MAX_BYTES));
  const out: string[] = [];
  let unreadable = 0;
  for (const line of lines) {
    const vi = line.indexOf('"v":');
    if (vi < 0 || line.charCodeAt(vi + 4) !== 50) {
      out.push(line);
      continue;
    }
    const e = JSON.parse(line) as IndexedVersion;
    const data = e.n ? (await repo.objects.read(e.n))?.data : undefined;
    const r = data ? await interpretNote({ branch: e.b ?? undefined }, data, maxBytes, keys) : null;
    if (r?.sealed) {
      unreadable++;
      continue;
    }
    const text = r && r.readable && r.text !== null ? Buffer.from(r.text, 'utf8') : null;
    out.push(JSON.stringify(await describe({ id: e.id, t: e.t, target: e.g, branch: e.b ?? undefined, note: text, blob: e.n ?? null })));
  }
  return { lines: out, unreadable };
}
