/**
 * `sync`: fetch the remote's handoff history, merge it with ours losing no version, push
 * the result with a compare-and-swap on what we fetched, retried a bounded number of times
 * when the remote moves meanwhile (issue 6). The remote is pushed before our own ref moves,
 * so a remote that refuses leaves the local history exactly as it was.
 */
import { NOTES_REF, type Repo } from '../git/repo.js';
import { HandoffStore } from '../git/handoff-store.js';
import { serializeCommit, EMPTY_TREE_OID, type ObjectStore } from '../git/objects.js';
import { OverlayStore } from '../git/overlay-store.js';
import { fetchNotes, pushNotes, remoteTip, requireRemote, trackingRef } from '../git/remote.js';
import { countVersions, isAncestor, mergeBase, uniqueCommits, writtenIndex } from '../git/notes-history.js';
import { mergeNotesTrees, type SettledConflict } from '../git/notes-merge.js';
import { expireUnreachableReflogs, purgeRecords, rewriteHistory } from '../git/history-rewrite.js';
import { resolveIdentities } from '../git/identity.js';
import { parseKey, syncAction, type SyncAction } from '../core/notes-merge.js';
import type { PurgeRecord } from '../core/purge.js';
import { PurgedHistory, RemoteRefused } from '../errors.js';

/** How many times a sync fetches and merges again when the remote (or our ref) moved. */
export const MAX_SYNC_ATTEMPTS = 5;

export interface SyncRequest {
  remote?: string;
  dryRun: boolean;
  /** replace the remote's copy of versions this clone purged (the only force push) */
  force: boolean;
  progress?: (line: string) => void;
  /** fetch-merge-push rounds before giving up (default MAX_SYNC_ATTEMPTS) */
  maxAttempts?: number;
}

export interface SyncConflict {
  /** the commit whose note both sides changed, or the bookkeeping path */
  target: string | null;
  path: string | null;
  kept: string | null;
  dropped: string | null;
  /** an item record: receipt ids the kept record took over from the dropped one */
  carried_receipts: string[];
}

export interface SyncResult {
  remote: string;
  action: SyncAction;
  dryRun: boolean;
  /** dry run only: the remote's history is not here yet, so the plan stops at "fetch" */
  needsFetch: boolean;
  local: { before: string | null; after: string | null };
  remoteTip: { before: string | null; after: string | null };
  incoming: number;
  outgoing: number;
  conflicts: SyncConflict[];
  /** versions purged here because the remote records their purge */
  purgedLocally: string[];
  forced: boolean;
  attempts: number;
}

interface Attempt {
  action: SyncAction;
  newTip: string | null;
  incoming: number;
  outgoing: number;
  conflicts: SyncConflict[];
  pushForce: boolean;
}

export async function syncHandoffs(repo: Repo, req: SyncRequest): Promise<SyncResult> {
  const remote = await requireRemote(repo, req.remote);
  const store = new HandoffStore(repo);
  const say = req.progress ?? (() => {});
  const localBefore = await store.tip();

  if (req.dryRun) return dryRun(repo, store, remote, localBefore, req.force, say);

  let remoteBefore: string | null | undefined;
  const attempts = req.maxAttempts ?? MAX_SYNC_ATTEMPTS;
  for (let attempt = 1; attempt <= attempts; attempt++) {
    say(`fetching the handoff history from ${remote}`);
    const fetched = await fetchNotes(repo, remote);
    if (remoteBefore === undefined) remoteBefore = fetched;
    const current = await store.tip();
    let local = current;

    // A purge recorded on either side applies to both histories before they are merged. The
    // rewritten local history is only objects until the push went through: a remote that
    // refuses leaves our ref as it was.
    const records = await recordsOf(repo.objects, store, [current, fetched]);
    const localPurges = await contained(repo, records, current);
    if (current && localPurges.length) {
      say(`applying ${localPurges.length} purge(s) recorded on ${remote}`);
      local = (await rewriteHistory(repo, repo.objects, current, localPurges)).tip;
    }
    let theirs = fetched;
    const remotePurges = await contained(repo, records, fetched);
    if (fetched && remotePurges.length) {
      if (!req.force) {
        throw new PurgedHistory(
          `remote '${remote}' still holds purged version ${remotePurges[0].version.slice(0, 12)}; replace its copy with: git handoff sync --force ${remote}`,
          { remote, versions: remotePurges.map((p) => p.version) },
        );
      }
      theirs = (await rewriteHistory(repo, repo.objects, fetched, remotePurges)).tip;
    }

    const plan = await planAttempt(repo, store, repo.objects, remote, local, theirs, say);
    plan.pushForce = theirs !== fetched;
    if (plan.newTip && plan.newTip !== fetched) {
      say(`pushing to ${remote}`);
      if ((await pushNotes(repo, remote, plan.newTip, fetched, { force: plan.pushForce })) === 'moved') continue;
    }
    const purgedLocally = localPurges.map((p) => p.version);
    if (plan.newTip !== current) {
      const purgeNote = purgedLocally.length ? `, purge ${purgedLocally.map((v) => v.slice(0, 12)).join(' ')}` : '';
      const cas = await repo.casUpdateRef(NOTES_REF, plan.newTip!, current, `handoff: sync ${plan.action} with ${remote}${purgeNote}`);
      // Our ref moved meanwhile (a local write): the remote has our result; merge again.
      if (cas !== 'ok') {
        if (cas === 'locked' && attempt === attempts) throw store.lockHeld();
        continue;
      }
    }
    if (plan.pushForce || purgedLocally.length) await expireUnreachableReflogs(repo, [NOTES_REF, trackingRef(remote)]);
    return {
      remote,
      action: plan.action,
      dryRun: false,
      needsFetch: false,
      local: { before: localBefore, after: plan.newTip },
      remoteTip: { before: remoteBefore ?? null, after: plan.newTip },
      incoming: plan.incoming,
      outgoing: plan.outgoing,
      conflicts: plan.conflicts,
      purgedLocally,
      forced: plan.pushForce,
      attempts: attempt,
    };
  }
  throw new RemoteRefused(`remote '${remote}' kept changing; gave up after ${attempts} attempts; run 'git handoff sync' again`, { remote });
}

/** The plan without writing anything: the remote read with ls-remote, objects kept in memory. */
async function dryRun(repo: Repo, store: HandoffStore, remote: string, local: string | null, force: boolean, say: (l: string) => void): Promise<SyncResult> {
  say(`reading ${remote}'s handoff tip`);
  const tip = await remoteTip(repo, remote);
  const known = !tip || (await repo.objects.read(tip))?.type === 'commit';
  const base: SyncResult = {
    remote,
    action: syncAction(local, tip, null),
    dryRun: true,
    needsFetch: !known,
    local: { before: local, after: local },
    remoteTip: { before: tip, after: tip },
    incoming: 0,
    outgoing: 0,
    conflicts: [],
    purgedLocally: [],
    forced: false,
    attempts: 0,
  };
  if (!known) return { ...base, action: local ? 'merge' : 'fast-forward' };
  const overlay = new OverlayStore(repo.objects);
  const records = await recordsOf(overlay, store, [local, tip]);
  const localPurges = await contained(repo, records, local);
  let ours = local;
  if (local && localPurges.length) ours = (await rewriteHistory(repo, overlay, local, localPurges)).tip;
  let theirs = tip;
  const remotePurges = await contained(repo, records, tip);
  if (tip && remotePurges.length) {
    if (!force) throw new PurgedHistory(`remote '${remote}' still holds purged version ${remotePurges[0].version.slice(0, 12)}; replace its copy with: git handoff sync --force ${remote}`, { remote });
    theirs = (await rewriteHistory(repo, overlay, tip, remotePurges)).tip;
  }
  // A rewritten tip lives only in memory: compare histories on the originals.
  const plan = ours === local && theirs === tip ? await planAttempt(repo, store, overlay, remote, local, tip, say) : null;
  return {
    ...base,
    action: plan?.action ?? 'merge',
    local: { before: local, after: plan?.newTip ?? null },
    remoteTip: { before: tip, after: plan?.newTip ?? null },
    incoming: plan?.incoming ?? 0,
    outgoing: plan?.outgoing ?? 0,
    conflicts: plan?.conflicts ?? [],
    purgedLocally: localPurges.map((p) => p.version),
    forced: theirs !== tip,
  };
}

/** Decides and (into `objects`) builds the new tip for one attempt. */
async function planAttempt(
  repo: Repo,
  store: HandoffStore,
  objects: ObjectStore,
  remote: string,
  local: string | null,
  theirs: string | null,
  say: (l: string) => void,
): Promise<Attempt> {
  const base = local && theirs ? await mergeBase(repo, local, theirs) : null;
  const action = syncAction(local, theirs, base);
  const [incoming, outgoing] = await Promise.all([countVersions(store, theirs, [local]), countVersions(store, local, [theirs])]);
  const plan: Attempt = { action, newTip: local, incoming, outgoing, conflicts: [], pushForce: false };
  if (action === 'fast-forward') plan.newTip = theirs;
  if (action !== 'merge') return plan;

  say(`merging ${incoming} incoming version(s) with ${outgoing} local one(s)`);
  const treeOf = async (c: string | null) => (c ? (await store.readCommit(c)).tree : EMPTY_TREE_OID);
  const [baseTree, ourTree, theirTree] = await Promise.all([treeOf(base), treeOf(local), treeOf(theirs)]);
  // Which version wrote what is read only when both sides changed the same entry.
  const written = { ours: writtenIndex(store, () => uniqueCommits(repo, local, [theirs])), theirs: writtenIndex(store, () => uniqueCommits(repo, theirs, [local])) };
  const merged = await mergeNotesTrees(objects, base ? baseTree : null, ourTree, theirTree, (side, key, blob) => written[side](key, blob));
  plan.conflicts = merged.conflicts.map(describeConflict);
  const ids = await resolveIdentities(repo);
  const message = `merge handoff history from ${remote}\n\nHandoff-Kind: merge\nHandoff-Remote: ${remote}\n`;
  plan.newTip = await objects.write('commit', serializeCommit({ tree: merged.tree, parents: [local!, theirs!], author: ids.author, committer: ids.committer, message }));
  return plan;
}

function describeConflict(c: SettledConflict): SyncConflict {
  const { kind, name } = parseKey(c.key);
  const kept = c.kept === 'ours' ? c.ours : c.theirs;
  const dropped = c.kept === 'ours' ? c.theirs : c.ours;
  return { target: kind === 'note' ? name : null, path: kind === 'path' ? name : null, kept: kept.written?.version ?? null, dropped: dropped.written?.version ?? null, carried_receipts: c.carried };
}

async function recordsOf(objects: ObjectStore, store: HandoffStore, tips: (string | null)[]): Promise<PurgeRecord[]> {
  const byVersion = new Map<string, PurgeRecord>();
  for (const t of tips) {
    if (!t) continue;
    for (const r of await purgeRecords(objects, (await store.readCommit(t)).tree)) byVersion.set(r.version, r);
  }
  return [...byVersion.values()];
}

/** The purge records whose version is still in the history of `tip`. */
async function contained(repo: Repo, records: PurgeRecord[], tip: string | null): Promise<PurgeRecord[]> {
  if (!tip) return [];
  const out: PurgeRecord[] = [];
  for (const r of records) if (await isAncestor(repo, r.version, tip)) out.push(r);
  return out;
}
