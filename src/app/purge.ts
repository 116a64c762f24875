/**
 * `purge`: removes a leaked secret from the handoff history. The version's note
 * becomes a tombstone, the history from there is replayed, a record `purged/<version>`
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
import { formatRecord, recordPath, type PurgeRecord } from '../core/purge.js';
import { ConcurrentWriters, NothingToPurge, UnknownVersion } from '../errors.js';
import { dropSearchIndex } from '../git/search-index.js';

const MAX_ATTEMPTS = 5;

export interface PurgeResult {
  dryRun: boolean;
  purged: { version: string; target: string; replacement: string }[];
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
    const already = new Set((await purgeRecords(repo.objects, (await store.readCommit(tip)).tree)).map((r) => r.version));
    const records: PurgeRecord[] = [];
    for (const name of names) {
      const v = await new VersionReader(repo).resolve(name, { all: true });
      if (already.has(v.id)) throw new NothingToPurge(`version ${v.id.slice(0, 12)} is already purged`);
      const note = await findNote(repo.objects, v.commit.tree, v.writtenAt);
      if (!note) throw new NothingToPurge(`version ${v.id.slice(0, 12)} has no note to purge`);
      if (!records.some((r) => r.version === v.id)) records.push({ version: v.id, target: v.writtenAt, blob: note.blob });
    }
    const objects: ObjectStore = dryRun ? new OverlayStore(repo.objects) : repo.objects;
    const rw = await rewriteHistory(repo, objects, tip, records);
    const newTip = await recordCommit(repo, objects, rw.tip, records);
    const result: PurgeResult = {
      dryRun,
      purged: records.map((r) => ({ version: r.version, target: r.target, replacement: rw.mapping.get(r.version) ?? r.version })),
      tip: { before: tip, after: newTip },
      rewritten: rw.mapping.size,
      remotes: await remotesHolding(repo, records),
    };
    if (dryRun) return result;
    const cas = await repo.casUpdateRef(NOTES_REF, newTip, tip, `handoff: purge ${records.map((r) => r.version.slice(0, 12)).join(' ')}`);
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

/** A `repair` commit on top of the rewritten history carrying the purge records. */
async function recordCommit(repo: Repo, objects: ObjectStore, tip: string, records: PurgeRecord[]): Promise<string> {
  const last = await requireCommit(objects, tip);
  let tree = last.tree;
  for (const r of records) tree = await writePath(objects, tree, recordPath(r.version), await objects.write('blob', Buffer.from(formatRecord(r), 'utf8')));
  const ids = await resolveIdentities(repo);
  // Dated like the commit it follows, not "now": the dry run then names the very commit the
  // real run makes (the dry run predicted one id and the run made another).
  const when = { timestamp: last.committer.timestamp, tz: last.committer.tz };
  const trailers = ['Handoff-Kind: repair', ...records.map((r) => `Handoff-Purged: ${r.version}`)];
  const message = `purge ${records.length === 1 ? 'a version' : `${records.length} versions`} from the handoff history\n\n${trailers.join('\n')}\n`;
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
