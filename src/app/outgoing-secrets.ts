/**
 * The scan before a push: every version the remote lacks is scanned again, so a
 * note written by another tool or by hand (`git notes --ref handoff add`), or before the
 * rules knew its format, is not spread to every clone. A hit refuses the push, names the
 * version and field, and gives the way out: `purge` (or the allow list for a false positive).
 *
 * What a scan found clean is recorded (src/state/scanned-notes.ts: notes commits, keyed by
 * this build and the allow list), and a later push reads only the versions not in that
 * record: to a new remote, a clone otherwise parses and scans its whole history again. A
 * commit's id fixes its tree and so the note read; a version whose note could be read two
 * ways (../git/note-blobs.ts) is not recorded.
 *
 * The version reader reads one note per version; a push sends every note its commits hold.
 * So every note blob the commits of the push introduce (../git/pushed-blobs.ts) that the reading
 * did not scan clean is scanned too, as text whatever its bytes or size: a note that is no
 * text or too large to be a handoff, a notes merge's tree, a second note a commit changes.
 * Only then is anything recorded, so a recorded commit is one whose every blob was scanned.
 */
import type { Repo } from '../git/repo.js';
import type { HandoffStore } from '../git/handoff-store.js';
import { uniqueCommits } from '../git/notes-history.js';
import { scanText } from '../core/secrets.js';
import { compileAllow, scanFields, scanRecord, type FieldSecret } from '../core/secret-fields.js';
import { describeSecrets, inputLines } from '../core/secret-report.js';
import { SecretDetected } from '../errors.js';
import { canStream, streamVersions, type StreamedVersion } from '../git/version-stream.js';
import { rangeCommits, SingleNoteCheck, tryRangeCommits } from '../git/note-blobs.js';
import { introducedBlobs, readBlobs, type IntroducedBlob } from '../git/pushed-blobs.js';
import { NOTES_REF } from '../git/repo.js';
import { readScannedNotes, ScannedRecord, scannedNotesPath, writeScannedNotes, type ScanKey } from '../state/scanned-notes.js';

/** What the build says it is (scripts/build.mjs); absent when run from the sources, and then nothing is recorded. */
declare const __BUILD_DIGEST__: string | undefined;
const BUILD_DIGEST = typeof __BUILD_DIGEST__ === 'string' ? __BUILD_DIGEST__ : null;

async function* fromStore(repo: Repo, store: HandoffStore, tip: string, remoteTip: string | null): AsyncGenerator<StreamedVersion> {
  for (const id of await uniqueCommits(repo, tip, [remoteTip])) {
    const v = await store.versionOf(id, await store.readCommit(id));
    if (v) yield await store.read(v);
  }
}

/** What a scan that let the push go says: the encrypted versions it could not read (docs/privacy.md). */
export interface OutgoingScan {
  /** versions encrypted to others and not written here: no key here reads them, nothing vouches for them */
  unscanned: string[];
}

/**
 * The one line for the encrypted versions a push sends that no key here reads and this clone
 * did not write (docs/privacy.md): `sync` and the pre-push hook both say it.
 */
export function unscannedLine(ids: string[], dryRun = false): string {
  const n = ids.length;
  const named = ids
    .slice(0, 5)
    .map((id) => id.slice(0, 12))
    .join(', ');
  const them = n === 1 ? 'it' : 'them';
  return `${dryRun ? 'would send' : 'sent'} ${n} version${n === 1 ? '' : 's'} encrypted for others that came from elsewhere: no key here reads ${them}, so the secret scan could not and does not vouch for ${them} (${named}${n > 5 ? ` and ${n - 5} more` : ''})`;
}

/**
 * An encrypted version this clone wrote: its plaintext was scanned before it was encrypted
 * (src/app/write.ts), so the record lists it as scanned, under this build and allow list,
 * as the push's own scan would. A version encrypted to others only is then pushed as
 * scanned; one fetched from elsewhere never is.
 */
export async function recordScannedAtWrite(repo: Repo, version: string, build: string | null = BUILD_DIGEST): Promise<void> {
  if (!build || !canStream(repo)) return;
  const key: ScanKey = { build, allow: await repo.configAll('handoff.secrets.allow') };
  const path = scannedNotesPath(repo.paths.commonDir);
  const recorded = readScannedNotes(path, key);
  const text = recorded.with(key, [version], recorded.reach);
  if (text) writeScannedNotes(path, text);
}

/** Throws SecretDetected when a version in `tip` and not in `remoteTip` carries a secret. */
export async function refuseOutgoingSecrets(
  repo: Repo,
  store: HandoffStore,
  tip: string | null,
  remoteTip: string | null,
  /** the build's digest the record is kept under (tests only; null: no record) */
  build: string | null = BUILD_DIGEST,
  /** record: false reads the record but adds nothing to it (a dry run) */
  opts: { record?: boolean } = {},
): Promise<OutgoingScan> {
  const unscanned: string[] = [];
  if (!tip || tip === remoteTip) return { unscanned };
  const allowList = await repo.configAll('handoff.secrets.allow');
  const allow = compileAllow(allowList);
  const streams = canStream(repo);
  const key: ScanKey | null = build && streams ? { build, allow: allowList } : null;
  const path = scannedNotesPath(repo.paths.commonDir);
  let recorded = ScannedRecord.EMPTY;
  /** whether a version needs no reading: recorded, or reached by the record's reach */
  let known = (_id: string) => false;
  /** the commits of the push the record's reach does not cover: the ones to ask about */
  let range: string[] = [];
  if (key) {
    recorded = readScannedNotes(path, key);
    // A reach F (every commit F reaches is listed) leaves only `tip ^remote ^F` to ask
    // about: on a push to an empty remote of a history pushed before, nothing, and no
    // walk of 50,000 commits. A reach this repository lacks (purged, pruned) is no help.
    const reach = recorded.reach;
    const beyond = reach ? await tryRangeCommits(repo, tip, [remoteTip, reach]) : null;
    range = beyond ?? (await rangeCommits(repo, tip, [remoteTip]));
    const listed = recorded.lookup(range.length);
    if (beyond) {
      const ask = new Set(range);
      known = (id) => !ask.has(id) || listed(id);
    } else known = listed;
    if (range.every(listed)) {
      // Everything a push to an empty remote sends is listed: the tip reaches only listed commits.
      const text = remoteTip === null ? recorded.with(key, [], tip) : null;
      if (text && opts.record !== false) writeScannedNotes(path, text);
      return { unscanned };
    }
  }

  // What this scan finds clean, to record: a native version (the store reads it, one way);
  // one of ours whose note is in one place (asked of git while the scan runs); and, once
  // the whole range was read, every commit in it that is no version.
  const natives = new Set<string>();
  const seen = new Set<string>();
  const check = key ? new SingleNoteCheck(repo) : null;
  /** the note blob each version scanned clean was read from (by the bulk reader) */
  const readFrom = new Map<string, string>();
  const scanned = new Set<string>();
  // What the commits of the push change, asked of git while the versions are read.
  const asked = key ? range.filter((id) => !known(id)) : await rangeCommits(repo, tip, [remoteTip]);
  const names: { commit: string; path: string; blob?: string }[] = [];
  const introduced = introducedBlobs(repo, asked, names);
  introduced.catch(() => {}); // awaited below
  let complete = false;
  try {
    // Every version an empty remote lacks is every version: read them in bulk (one git log,
    // one cat-file --batch), in rev-list's order, as the store would read them.
    const versions = streams ? streamVersions(repo, tip, (v) => !known(v.id), remoteTip, readFrom) : fromStore(repo, store, tip, remoteTip);
    for await (const r of versions) {
      seen.add(r.id);
      // Encrypted to others and not written here (it is not in the record): it cannot be read, so it is not vouched for.
      if ('sealed' in r && r.sealed) unscanned.push(r.id);
      // A note read as no text (binary, too large) is scanned with every other blob below.
      if (!('valid' in r) || r.text === null) continue;
      const id = r.id;
      // Every field: tool-filled ones were masked when we wrote them, a hand-written note had no such care.
      const hits: FieldSecret[] = r.valid ? scanFields(r.handoff, allow) : scanText(r.text, allow).map((h) => ({ ...h, field: '(note)' }));
      if (!hits.length) {
        const blob = readFrom.get(id);
        if (blob) scanned.add(blob);
        if (r.native) natives.add(id);
        else check?.add(id, r.target);
        continue;
      }
      const short = id.slice(0, 12);
      const d = describeSecrets(
        hits,
        inputLines(r.text, hits),
        'note',
        `version ${short} (note of ${r.target.slice(0, 7)}) was not pushed; remove it with: git handoff purge ${short}`,
      );
      throw new SecretDetected(d.message, { ...d.data, version: id, target: r.target });
    }
    // Then every blob the push sends that the reading above did not scan (../git/pushed-blobs.ts):
    // a note that is no text, another note a commit's tree changes, a notes merge's.
    await refuseUnscannedBlobs(repo, store, await introduced, scanned, allow);
    // And what a push sends beside the blobs: each commit's message (subject, body, trailers)
    // and the names of the bookkeeping entries its tree adds.
    await refuseSecretMessagesAndNames(repo, asked, names, allow);
    // And the content of those entries: receipts, item records, policy files, anything else.
    await refuseSecretRecords(repo, names, allow);
    complete = true;
  } finally {
    if (check && key) {
      if (complete && opts.record !== false)
        await record(path, key, recorded, range, remoteTip === null ? tip : null, async () => [
          ...(await check.single()),
          ...natives,
          ...range.filter((id) => !seen.has(id)),
        ]);
      else check.abandon();
    }
  }
  return { unscanned };
}

/**
 * Scans, as text (a lossy UTF-8 reading of its bytes), every blob of `introduced` that
 * `scanned` does not hold; throws SecretDetected on the first that holds a secret.
 * Nothing is skipped for its size or its bytes: each blob read here is pushed otherwise.
 */
async function refuseUnscannedBlobs(repo: Repo, store: HandoffStore, introduced: IntroducedBlob[], scanned: Set<string>, allow: RegExp[]): Promise<void> {
  const blobs = introduced.filter((b) => !scanned.has(b.blob));
  const where = new Map(blobs.map((b) => [b.blob, b]));
  let found: { at: IntroducedBlob; text: string; hits: FieldSecret[] } | null = null;
  await readBlobs(
    repo,
    blobs.map((b) => b.blob),
    (blob, data) => {
      if (found) return;
      const text = data.toString('utf8');
      const hits = scanText(text, allow).map((h) => ({ ...h, field: '(note)' }));
      if (hits.length) found = { at: where.get(blob)!, text, hits };
    },
  );
  if (!found) return;
  const { at, text, hits } = found as { at: IntroducedBlob; text: string; hits: FieldSecret[] };
  const short = at.commit.slice(0, 12);
  const version = await store.versionOf(at.commit, await store.readCommit(at.commit));
  const outcome = version
    ? `version ${short} (note of ${version.target.slice(0, 7)}, at ${at.path}) was not pushed; remove it with: git handoff purge ${short}`
    : `notes commit ${short} (at ${at.path}) was not pushed; it is no version purge removes: take it out of ${NOTES_REF} with git update-ref`;
  const d = describeSecrets(hits, inputLines(text, hits), 'note', outcome);
  throw new SecretDetected(d.message, { ...d.data, version: at.commit, target: version?.target ?? null, path: at.path });
}

/** Throws SecretDetected when a commit message of `ids`, or a tree entry name of `names`, holds a secret. */
async function refuseSecretMessagesAndNames(repo: Repo, ids: string[], names: { commit: string; path: string }[], allow: RegExp[]): Promise<void> {
  for (const n of names) {
    const hits = scanText(n.path, allow).map((h) => ({ ...h, field: '(tree entry name)' }));
    if (!hits.length) continue;
    const short = n.commit.slice(0, 12);
    const d = describeSecrets(
      hits,
      inputLines(n.path, hits),
      'note',
      `notes commit ${short} was not pushed: a name in its tree holds a secret; remove it with: git handoff purge ${short}`,
    );
    throw new SecretDetected(d.message, { ...d.data, version: n.commit, path: n.path });
  }
  let found: { id: string; text: string; hits: FieldSecret[] } | null = null;
  await readBlobs(repo, ids, (id, data) => {
    if (found) return;
    const raw = data.toString('utf8');
    const at = raw.indexOf('\n\n');
    const text = at < 0 ? '' : raw.slice(at + 2);
    const hits = scanText(text, allow).map((h) => ({ ...h, field: '(commit message)' }));
    if (hits.length) found = { id, text, hits };
  });
  if (!found) return;
  const { id, text, hits } = found as { id: string; text: string; hits: FieldSecret[] };
  const short = id.slice(0, 12);
  const d = describeSecrets(
    hits,
    inputLines(text, hits),
    'note',
    `notes commit ${short} was not pushed: its message holds a secret; remove it with: git handoff purge ${short}`,
  );
  throw new SecretDetected(d.message, { ...d.data, version: id });
}

/**
 * Throws SecretDetected when a bookkeeping entry the push sends (`receipts/`, `items/`,
 * `policy/`, any other path beside the notes) holds a secret, naming its path (scanRecord).
 */
async function refuseSecretRecords(repo: Repo, names: { commit: string; path: string; blob?: string }[], allow: RegExp[]): Promise<void> {
  const where = new Map<string, { commit: string; path: string }>();
  for (const n of names) if (n.blob && !where.has(n.blob)) where.set(n.blob, n);
  let found: { at: { commit: string; path: string }; text: string; hits: FieldSecret[] } | null = null;
  await readBlobs(repo, [...where.keys()], (blob, data) => {
    if (found) return;
    const text = data.toString('utf8');
    const hits = scanRecord(text, allow);
    if (hits.length) found = { at: where.get(blob)!, text, hits };
  });
  if (!found) return;
  const { at, text, hits } = found as { at: { commit: string; path: string }; text: string; hits: FieldSecret[] };
  const d = describeSecrets(
    hits,
    inputLines(text, hits),
    at.path,
    `notes commit ${at.commit.slice(0, 12)} was not pushed: the bookkeeping record ${at.path} holds a secret; remove it with: git handoff purge ${at.path}`,
  );
  throw new SecretDetected(d.message, { ...d.data, version: at.commit, path: at.path });
}

/**
 * Adds `clean` to the record; a record git cannot help make is not made. `tip`, on a push
 * to an empty remote, becomes the record's reach when every commit of `range` (all the tip
 * reaches, but what the old reach covers) is listed by then.
 */
async function record(path: string, key: ScanKey, recorded: ScannedRecord, range: string[], tip: string | null, clean: () => Promise<string[]>): Promise<void> {
  let text: string | null;
  try {
    const found = await clean();
    const now = new Set(found);
    const reach = tip && range.every((id) => now.has(id) || recorded.has(id)) ? tip : recorded.reach;
    text = recorded.with(key, found, reach);
  } catch {
    return;
  }
  if (text) writeScannedNotes(path, text);
}
