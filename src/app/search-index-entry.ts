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
import { isArmoredAge, recipientCount } from '../core/age.js';
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
  // One whose age header cannot be read is invalid to every reader (decryptArmored says so before any key).
  if (isArmoredAge(f.note) && f.blob) return recipientCount(f.note.toString('latin1')) === null ? bad() : { ...bad(), v: 2, h: 1 };
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
  let anyKey: Promise<boolean> | null = null;
  /** The line a search reads for `line`, or null for a version encrypted for others. */
  const open = async (line: string): Promise<string | null> => {
    const e = JSON.parse(line) as IndexedVersion;
    // Without any key, a version whose header was read is for others: its note need not be read.
    if (e.h === 1 && !(await (anyKey ??= keys.any()))) return null;
    const data = e.n ? (await repo.objects.read(e.n))?.data : undefined;
    const r = data ? await interpretNote({ branch: e.b ?? undefined }, data, maxBytes, keys) : null;
    if (r?.sealed) return null;
    const text = r && r.readable && r.text !== null ? Buffer.from(r.text, 'utf8') : null;
    return JSON.stringify(await describe({ id: e.id, t: e.t, target: e.g, branch: e.b ?? undefined, note: text, blob: e.n ?? null }));
  };
  const out: (string | Promise<string | null>)[] = [];
  // A few decrypted at a time (the library's X25519 runs on libuv's threads), in the index's order.
  const pending: Promise<unknown>[] = [];
  for (const line of lines) {
    const vi = line.indexOf('"v":');
    if (vi < 0 || line.charCodeAt(vi + 4) !== 50) {
      out.push(line);
      continue;
    }
    const p = open(line);
    p.catch(() => {}); // a refusal (an identity others may read) is thrown below, in order, once
    out.push(p);
    pending.push(p);
    if (pending.length >= DECRYPTING) await pending.shift();
  }
  let unreadable = 0;
  const opened: string[] = [];
  for (const l of out) {
    const got = await l;
    if (got === null) unreadable++;
    else opened.push(got);
  }
  return { lines: opened, unreadable };
}

/** How many encrypted notes a search decrypts at once. */
const DECRYPTING = 8;
