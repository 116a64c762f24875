/**
 * `purge`: removes a leaked secret from the handoff history. The version's note
 * becomes a tombstone, the history from there is replayed, a record under `purged/`
 * tells other clones to do the same on their next sync, and the reflog entries that still
 * reach the old commits are dropped. Remotes keep the old history until `sync --force`.
 */
import { NOTES_REF, type Repo } from '../git/repo.js';
import { HandoffStore } from '../git/handoff-store.js';
import { VersionReader } from '../history/reader.js';
import { findNote, writePath } from '../git/notes-tree.js';
import { serializeCommit, type ObjectStore } from '../git/objects.js';
import { requireCommit } from '../git/read-objects.js';
import { OverlayStore } from '../git/overlay-store.js';
import { expireUnreachableReflogs, purgeRecords, rewriteHistory } from './purge-history.js';
import { isAncestor } from '../git/notes-history.js';
import { defaultRemote, trackingRef } from '../git/remote.js';
import { resolveIdentities } from '../git/identity.js';
import { formatRecord, isCommitOnly, isRecordPath, pathDigest, purgedMessage, recordKey, recordPath, type PurgeRecord } from '../core/purge.js';
import { introducedBlobs } from '../git/pushed-blobs.js';
import { parseTrailers } from '../core/commit-message.js';
import { scanText } from '../core/secrets.js';
import { compileAllow, scanRecord } from '../core/secret-fields.js';
import { ConcurrentWriters, NothingToPurge, UnknownVersion } from '../errors.js';
import { dropSearchIndex } from '../git/search-index.js';

const MAX_ATTEMPTS = 5;

export interface PurgeResult {
  dryRun: boolean;
  /** each purged version, or (with `path`) each notes commit that put a leaked bookkeeping record there */
  /** (a bookkeeping commit purged, its message or names in its tree: `target` is `version`, no `path`) */
  purged: { version: string; target: string; replacement: string; path?: string }[];
  tip: { before: string; after: string };
  /** commits replayed after the purged versions */
  rewritten: number;
  /** remotes whose copy still holds the purged versions, with the exact command */
  remotes: { remote: string; command: string }[];
}

export async function purgeVersions(repo: Repo, names: string[], dryRun: boolean): Promise<PurgeResult> {
  const store = new HandoffStore(repo);
  for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
    const tip = await store.tip();
    if (!tip) throw new UnknownVersion('there is no handoff history to purge');
    const recorded = await purgeRecords(repo.objects, (await store.readCommit(tip)).tree);
    const already = new Set(recorded.filter((r) => !r.path).map((r) => r.version));
    const records: PurgeRecord[] = [];
    const purgedRecords = new Set(recorded.filter((r) => r.path).map((r) => `${r.path} ${r.blob}`));
    // (one notes commit may have put several leaked records in place: each is purged and recorded)
    const has = (r: PurgeRecord) => records.some((x) => recordKey(x) === recordKey(r));
    for (const name of names) {
      if (isRecordPath(name)) {
        for (const r of await leakedRecords(repo, tip, name)) if (!purgedRecords.has(`${r.path} ${r.blob}`) && !has(r)) records.push(r);
        continue;
      }
      const bookkeeping = await bookkeepingCommit(repo, store, tip, name);
      if (bookkeeping) {
        if (already.has(bookkeeping)) throw new NothingToPurge(`notes commit ${bookkeeping.slice(0, 12)} is already purged`);
        const message = await messageLeaks(repo, bookkeeping, (m) => m);
        const leakedNames = await namesLeaking(repo, bookkeeping);
        if (!message && !leakedNames.length)
          throw new NothingToPurge(
            `notes commit ${bookkeeping.slice(0, 12)} is no version, and neither its message nor a name its tree adds holds a secret the scan finds; nothing to purge`,
          );
        const r: PurgeRecord = {
          version: bookkeeping,
          target: bookkeeping,
          blob: bookkeeping,
          ...(message ? { message: true as const } : {}),
          ...(leakedNames.length ? { names: leakedNames } : {}),
        };
        if (!has(r)) records.push(r);
        continue;
      }
      const v = await new VersionReader(repo).resolve(name, { all: true });
      if (already.has(v.id)) throw new NothingToPurge(`version ${v.id.slice(0, 12)} is already purged`);
      const note = await findNote(repo.objects, v.commit.tree, v.writtenAt);
      if (!note) throw new NothingToPurge(`version ${v.id.slice(0, 12)} has no note to purge`);
      // A secret the purged message would keep (a Handoff- trailer's value): the message goes too.
      const strict = await messageLeaks(repo, v.id, (m) => purgedMessage(parseTrailers(m), v.writtenAt));
      const r: PurgeRecord = { version: v.id, target: v.writtenAt, blob: note.blob, ...(strict ? { message: true as const } : {}) };
      if (!has(r)) records.push(r);
    }
    if (!records.length) throw new NothingToPurge(`nothing to purge: every leaked content of ${names.join(', ')} is already purged`);
    const objects: ObjectStore = dryRun ? new OverlayStore(repo.objects) : repo.objects;
    const rw = await rewriteHistory(repo, objects, tip, records);
    const newTip = await recordCommit(repo, objects, rw.tip, records);
    const result: PurgeResult = {
      dryRun,
      purged: records.map((r) => ({
        version: r.version,
        target: r.target,
        replacement: rw.mapping.get(r.version) ?? r.version,
        ...(r.path ? { path: r.path } : {}),
      })),
      tip: { before: tip, after: newTip },
      rewritten: rw.mapping.size,
      remotes: await remotesHolding(repo, records),
    };
    if (dryRun) return result;
    const cas = await repo.casUpdateRef(NOTES_REF, newTip, tip, `handoff: purge ${[...new Set(records.map((r) => r.version.slice(0, 12)))].join(' ')}`);
    if (cas === 'locked') {
      // A live writer holds the lock for milliseconds; one that outlives the retries was left by a killed one.
      if (attempt === MAX_ATTEMPTS) throw store.lockHeld();
      await new Promise((res) => setTimeout(res, 50 + Math.random() * 150));
    }
    if (cas !== 'ok') continue;
    await expireUnreachableReflogs(repo, [NOTES_REF]);
    // The search cache holds every version's text: the purged one goes with it.
    dropSearchIndex(repo);
    return result;
  }
  throw new ConcurrentWriters(`could not update ${NOTES_REF}: it kept changing while the purge was prepared; run it again`);
}

/**
 * The contents the bookkeeping path `path` ever had in the history of `tip` that hold a
 * secret (the outgoing scan's reading, scanRecord), one record per notes commit that put one
 * there; refused when none does (a record without a secret is the tool's bookkeeping).
 */
async function leakedRecords(repo: Repo, tip: string, path: string): Promise<PurgeRecord[]> {
  const log = await repo.git(['log', '--format=%x00%H', '--raw', '--no-abbrev', '--no-renames', '-c', tip, '--', path], { readOnly: true });
  const put: { commit: string; blob: string }[] = [];
  for (const chunk of log.split('\0')) {
    const [id, ...lines] = chunk.split('\n');
    for (const line of lines) {
      // :<modes> <blobs> <status>\t<path> (a merge's combined form has one more of each)
      const m = /^:+[0-7 ]+ ((?:[0-9a-f]{40,64} )+)[A-Z]+\t(.+)$/.exec(line);
      if (!m || m[2] !== path) continue;
      const blob = m[1].trim().split(' ').pop()!;
      if (!/^0+$/.test(blob)) put.push({ commit: id.trim(), blob });
    }
  }
  if (!put.length)
    throw new NothingToPurge(
      `no notes commit ever put anything at ${path} (a bookkeeping path such as receipts/<id>.json, items/<provider>/<n>.json or policy/approved)`,
    );
  const allow = compileAllow(await repo.configAll('handoff.secrets.allow'));
  const leaked = new Set<string>();
  for (const blob of new Set(put.map((p) => p.blob))) {
    const obj = await repo.objects.read(blob);
    if (obj?.type === 'blob' && scanRecord(obj.data.toString('utf8'), allow).length) leaked.add(blob);
  }
  if (!leaked.size) throw new NothingToPurge(`no content ${path} ever had holds a secret the scan finds; nothing to purge`);
  return put.filter((p) => leaked.has(p.blob)).map((p) => ({ version: p.commit, target: p.commit, blob: p.blob, path }));
}

/**
 * The notes commit `name` names in the history of `tip` when it is no version (a bookkeeping
 * commit: a receipt, a policy, a merge, one made with plain git), else null.
 */
async function bookkeepingCommit(repo: Repo, store: HandoffStore, tip: string, name: string): Promise<string | null> {
  if (!/^[0-9a-f]{4,64}$/i.test(name)) return null;
  const r = await repo.runGit(['rev-parse', '-q', '--verify', '--end-of-options', `${name}^{commit}`], { readOnly: true });
  const id = r.code === 0 ? r.stdout.toString().trim() : '';
  if (!/^[0-9a-f]{40,64}$/.test(id) || !(await isAncestor(repo, id, tip))) return null;
  return (await store.versionOf(id, await store.readCommit(id))) ? null : id;
}

/** Whether commit `id`'s message, as `purged` would leave it, still holds a secret the outgoing scan finds. */
async function messageLeaks(repo: Repo, id: string, purged: (message: string) => string): Promise<boolean> {
  const c = await requireCommit(repo.objects, id);
  const allow = compileAllow(await repo.configAll('handoff.secrets.allow'));
  return scanText(purged(c.message), allow).length > 0;
}

/** The sha1s of the paths commit `id` adds beside the notes whose names hold a secret the outgoing scan finds. */
async function namesLeaking(repo: Repo, id: string): Promise<string[]> {
  const added: { commit: string; path: string }[] = [];
  await introducedBlobs(repo, [id], added);
  const allow = compileAllow(await repo.configAll('handoff.secrets.allow'));
  return [...new Set(added.filter((a) => scanText(a.path, allow).length).map((a) => pathDigest(a.path)))].sort();
}

/** A `repair` commit on top of the rewritten history carrying the purge records. */
async function recordCommit(repo: Repo, objects: ObjectStore, tip: string, records: PurgeRecord[]): Promise<string> {
  const last = await requireCommit(objects, tip);
  let tree = last.tree;
  for (const r of records) tree = await writePath(objects, tree, recordPath(r), await objects.write('blob', Buffer.from(formatRecord(r), 'utf8')));
  const ids = await resolveIdentities(repo);
  // Dated like the commit it follows, not "now": the dry run then names the very commit the
  // real run makes (the dry run predicted one id and the run made another).
  const when = { timestamp: last.committer.timestamp, tz: last.committer.tz };
  const trailers = ['Handoff-Kind: repair', ...new Set(records.map((r) => `Handoff-Purged: ${r.version}`))];
  const what = records.every((r) => r.path || isCommitOnly(r)) ? 'bookkeeping record' : 'version';
  const message = `purge ${records.length === 1 ? `a ${what}` : `${records.length} ${what}s`} from the handoff history\n\n${trailers.join('\n')}\n`;
  return objects.write(
    'commit',
    serializeCommit({ tree, parents: [tip], author: { ...ids.author, ...when }, committer: { ...ids.committer, ...when }, message }),
  );
}

/** Remotes whose fetched history still holds a purged version; the default remote when none was fetched. */
async function remotesHolding(repo: Repo, records: PurgeRecord[]): Promise<{ remote: string; command: string }[]> {
  const names = (await repo.git(['remote'], { readOnly: true })).split('\n').filter(Boolean);
  const out: string[] = [];
  for (const remote of names) {
    const tracked = await repo.resolveRef(trackingRef(remote));
    if (tracked && (await Promise.all(records.map((r) => isAncestor(repo, r.version, tracked)))).some(Boolean)) out.push(remote);
  }
  if (!out.length) {
    const d = await defaultRemote(repo);
    if (d) out.push(d);
  }
  return out.map((remote) => ({ remote, command: `git handoff sync --force ${remote}` }));
}
