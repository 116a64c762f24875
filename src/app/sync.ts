/**
 * `sync`: fetch the remote's handoff history, merge it with ours losing no version, push
 * the result with a compare-and-swap on what we fetched, retried when the remote moves
 * meanwhile. The remote is pushed before our own ref moves, so a remote that
 * refuses leaves the local history exactly as it was.
 *
 * Retries back off with jitter inside a time budget (`handoff.sync.timeout`)
 * instead of a fixed count, so a busy shared remote is not a failure; every network step
 * runs under that budget with stall detection; one sync at a time per clone (a lock file),
 * and a lock on the remote that outlives every retry is named as a stale lock.
 */
import { NOTES_REF, type Repo } from '../git/repo.js';
import { HandoffStore } from '../git/handoff-store.js';
import { currentDivergence, type Divergence } from './show.js';
import { orOverBudget } from './hook-budget.js';
import { serializeCommit, EMPTY_TREE_OID, type ObjectStore } from '../git/objects.js';
import { OverlayStore } from '../git/overlay-store.js';
import { fetchNotes, networkBudget, pushNotes, remainingMs, remoteTip, requireRemote, trackingRef, TRACKING_BUSY, type NetworkBudget } from '../git/remote.js';
import { acquireSyncLock } from '../state/sync-lock.js';
import { findRefLocks, isStale, refLockHeld } from '../git/ref-locks.js';
import { noteConfigWarning } from '../git/config-values.js';
import { countVersions, isAncestor, mergeBase, uniqueCommits, writtenIndex } from '../git/notes-history.js';
import { mergeNotesTrees, type SettledConflict } from '../git/notes-merge.js';
import { expireUnreachableReflogs, purgeRecords, rewriteHistory } from './purge-history.js';
import { resolveIdentities, type Identities } from '../git/identity.js';
import { parseKey, syncAction, type SyncAction } from '../core/notes-merge.js';
import { recordKey, type PurgeRecord } from '../core/purge.js';
import { PurgedHistory, RemoteRefused } from '../errors.js';
import { refuseOutgoingSecrets } from './outgoing-secrets.js';
import { signingWanted, writeSignedCommit } from '../git/signing.js';

/** `handoff.sync.timeout`: seconds a `sync` may take, its retries under contention included. */
export const SYNC_TIMEOUT_SECONDS = 60;
/** `handoff.sync.stallTimeout`: seconds without a sign of life from git before a network step is stopped. */
export const STALL_SECONDS = 15;
/** A remote ref lock seen on this many consecutive pushes, over at least this long, was left by a killed push. */
const STALE_REMOTE_LOCK_PUSHES = 3;
const STALE_REMOTE_LOCK_MS = 2000;
/** Our own ref locked this long (a write holds it for milliseconds): a killed writer's lock. */
const LOCAL_LOCK_WAIT_MS = 5000;

/** The budget a command's network steps share, from `key` (seconds) and `handoff.sync.stallTimeout`. */
export async function configuredBudget(repo: Repo, key: string, fallbackSeconds: number): Promise<NetworkBudget> {
  const seconds = positive(key, await repo.configGet(key), fallbackSeconds);
  const stall = positive('handoff.sync.stallTimeout', await repo.configGet('handoff.sync.stallTimeout'), STALL_SECONDS);
  return networkBudget(seconds, stall, key);
}

/** Seconds from config; a value that is not a positive number is warned about and replaced (a value that cannot be used is never a silent default). */
function positive(key: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value.trim().replace(/s$/, ''));
  if (Number.isFinite(n) && n > 0) return n;
  noteConfigWarning(key, value, `${key} '${value}' is not a positive number of seconds; using ${fallback}`);
  return fallback;
}

/**
 * Full jitter (a random wait up to an exponentially growing cap) so contending clones spread
 * out. The cap grows with the budget: a pre-push hook (a user waiting, a few seconds) comes
 * back sooner than a manual sync with a minute to spare, so under contention the waiting
 * push tends to win.
 */
export function backoffMs(attempt: number, budgetSeconds: number, random = Math.random): number {
  const ceiling = Math.min(3000, Math.max(200, (budgetSeconds * 1000) / 12));
  return 10 + random() * Math.min(ceiling, 40 * 2 ** Math.min(attempt, 10));
}

export interface SyncRequest {
  remote?: string;
  dryRun: boolean;
  /** replace the remote's copy of versions this clone purged (the only force push) */
  force: boolean;
  progress?: (line: string) => void;
  /** the time the whole sync may take (default: `handoff.sync.timeout`) */
  budget?: NetworkBudget;
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
  /** encrypted versions pushed that no key here reads and that were not written here: not scanned, not vouched for */
  unscanned: string[];
  /** after the sync, the current branch has two or more heads (null: one, or a dry run; undefined: see divergenceUnchecked) */
  divergence?: Divergence | null;
  divergenceUnchecked?: string; // why a hook's read deadline stopped that check, after the push was done
}

interface Attempt {
  action: SyncAction;
  newTip: string | null;
  conflicts: SyncConflict[];
  pushForce: boolean;
}

export async function syncHandoffs(repo: Repo, req: SyncRequest): Promise<SyncResult> {
  const remote = await requireRemote(repo, req.remote);
  const store = new HandoffStore(repo);
  const say = req.progress ?? (() => {});
  const budget = req.budget ?? (await configuredBudget(repo, 'handoff.sync.timeout', SYNC_TIMEOUT_SECONDS));

  if (req.dryRun) return dryRun(repo, store, remote, await store.tip(), req.force, say, budget);

  const lock = await acquireSyncLock(repo, budget.deadline, (pid) => say(`waiting for another sync of this clone${pid ? ` (process ${pid})` : ''}`));
  try {
    return await syncRounds(repo, store, remote, req, budget, say);
  } finally {
    lock.release();
  }
}

/** Fetch, merge, push; again (after a jittered wait) while the remote or our ref moved, until the budget runs out. */
async function syncRounds(
  repo: Repo,
  store: HandoffStore,
  remote: string,
  req: SyncRequest,
  budget: NetworkBudget,
  say: (l: string) => void,
): Promise<SyncResult> {
  const localBefore = await store.tip();
  const started = Date.now();
  let remoteBefore: string | null | undefined;
  let remoteLock: { since: number; pushes: number; path: string | null } | null = null;
  let localLockSince = 0;
  let trackingLockSince = 0;
  let attempt = 0;
  let unscanned: string[] = [];
  // Work between the fetch and the push widens the window in which another clone's push
  // makes ours stale: what does not change between attempts is read once, and
  // the version counts are read only for the attempt that went through.
  let ids: Promise<Identities> | null = null;
  const identities = () => (ids ??= resolveIdentities(repo));
  for (;;) {
    attempt++;
    if (attempt > 1) {
      const wait = backoffMs(attempt - 1, budget.seconds);
      if (remainingMs(budget) < wait + 50) break;
      await new Promise((res) => setTimeout(res, wait));
    }
    say(`fetching the handoff history from ${remote}${attempt > 1 ? ` (attempt ${attempt})` : ''}`);
    const fetched = await fetchNotes(repo, remote, budget);
    if (fetched === TRACKING_BUSY) {
      // Another fetch of this clone holds the tracking ref for a moment; a lock that stays
      // (a killed sync's) is named, not retried until the budget is gone.
      const lock = findRefLocks(repo).find((l) => l.ref === trackingRef(remote));
      trackingLockSince = lock ? trackingLockSince || Date.now() : 0;
      if (lock && (isStale(lock) || Date.now() - trackingLockSince > LOCAL_LOCK_WAIT_MS)) throw refLockHeld(repo, lock.ref);
      continue;
    }
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

    const plan = await planAttempt(repo, store, repo.objects, remote, local, theirs, say, identities);
    plan.pushForce = theirs !== fetched;

    // Push: only what extends the remote's history, compare-and-swap on what we fetched.
    if (plan.newTip && plan.newTip !== fetched) {
      unscanned = (await refuseOutgoingSecrets(repo, store, plan.newTip, fetched)).unscanned;
      say(`pushing to ${remote}`);
      const pushed = await pushNotes(repo, remote, plan.newTip, fetched, { force: plan.pushForce, budget });
      if (pushed === 'moved') {
        remoteLock = null;
        continue;
      }
      if (pushed !== 'ok') {
        remoteLock ??= { since: Date.now(), pushes: 0, path: pushed.lock };
        remoteLock.pushes++;
        if (remoteLock.pushes >= STALE_REMOTE_LOCK_PUSHES && Date.now() - remoteLock.since >= STALE_REMOTE_LOCK_MS) throw staleRemoteLock(remote, remoteLock);
        continue;
      }
    }
    const purgedLocally = localPurges.map((p) => p.version);
    if (plan.newTip !== current) {
      const purgeNote = purgedLocally.length ? `, purge ${purgedLocally.map((v) => v.slice(0, 12)).join(' ')}` : '';
      const cas = await repo.casUpdateRef(NOTES_REF, plan.newTip!, current, `handoff: sync ${plan.action} with ${remote}${purgeNote}`);
      // Our ref moved meanwhile (a local write): the remote has our result; merge again.
      if (cas !== 'ok') {
        if (cas === 'locked') {
          localLockSince ||= Date.now();
          if (Date.now() - localLockSince > LOCAL_LOCK_WAIT_MS) throw store.lockHeld();
        }
        continue;
      }
    }
    if (plan.pushForce || purgedLocally.length) await expireUnreachableReflogs(repo, [NOTES_REF, trackingRef(remote)]);
    const [incoming, outgoing] = await Promise.all([countVersions(store, theirs, [local]), countVersions(store, local, [theirs])]);
    // A remote may have sent a long line of bookkeeping commits: the walk is paid here, once,
    // where it records the line to jump over (src/git/walk-skips.ts), not by the next hook.
    // It also says whether the branch's history now has two heads (sync's message says so);
    // under pre-push's read deadline it may stop: the push is done, only that check is missing.
    const div = await orOverBudget(() => currentDivergence(repo));
    return {
      remote,
      action: plan.action,
      dryRun: false,
      needsFetch: false,
      local: { before: localBefore, after: plan.newTip },
      remoteTip: { before: remoteBefore ?? null, after: plan.newTip },
      incoming,
      outgoing,
      conflicts: plan.conflicts,
      purgedLocally,
      forced: plan.pushForce,
      attempts: attempt,
      unscanned,
      divergence: 'value' in div ? div.value : undefined,
      ...('skipped' in div ? { divergenceUnchecked: div.skipped.message } : {}),
    };
  }
  const secs = Math.round((Date.now() - started) / 1000);
  throw new RemoteRefused(
    `remote '${remote}' kept changing: other clones pushed before each of ${attempt - 1} attempts in ${secs}s; nothing was lost; run 'git handoff sync' again (or raise ${budget.setting}, now ${budget.seconds}s)`,
    { remote, attempts: attempt - 1 },
  );
}

function staleRemoteLock(remote: string, lock: { since: number; pushes: number; path: string | null }): RemoteRefused {
  const secs = Math.max(1, Math.round((Date.now() - lock.since) / 1000));
  const what = lock.path ? `the lock file ${lock.path}` : `a lock on ${NOTES_REF}`;
  return new RemoteRefused(
    `remote '${remote}' has a stale lock: ${what} refused ${lock.pushes} pushes over ${secs}s (left by a killed push?); if no push to '${remote}' is running, delete that file on the server, then run 'git handoff sync' again`,
    { remote, lock: lock.path },
  );
}

/** The plan without writing anything: the remote read with ls-remote, objects kept in memory. */
async function dryRun(
  repo: Repo,
  store: HandoffStore,
  remote: string,
  local: string | null,
  force: boolean,
  say: (l: string) => void,
  budget: NetworkBudget,
): Promise<SyncResult> {
  say(`reading ${remote}'s handoff tip`);
  const tip = await remoteTip(repo, remote, budget);
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
    unscanned: [],
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
    if (!force)
      throw new PurgedHistory(
        `remote '${remote}' still holds purged version ${remotePurges[0].version.slice(0, 12)}; replace its copy with: git handoff sync --force ${remote}`,
        { remote },
      );
    theirs = (await rewriteHistory(repo, overlay, tip, remotePurges)).tip;
  }
  // A rewritten tip lives only in memory: compare histories on the originals.
  const plan = ours === local && theirs === tip ? await planAttempt(repo, store, overlay, remote, local, tip, say, () => resolveIdentities(repo)) : null;
  // The scan the push would meet, so a history the real sync refuses is not said to push. A
  // merge planned here lives only in memory: what it would send of ours is `local ^tip`.
  // Nothing is recorded (a dry run writes nothing).
  const scan = plan?.newTip && plan.newTip !== tip && local ? await refuseOutgoingSecrets(repo, store, local, tip, undefined, { record: false }) : null;
  const [incoming, outgoing] = plan ? await Promise.all([countVersions(store, tip, [local]), countVersions(store, local, [tip])]) : [0, 0];
  return {
    ...base,
    action: plan?.action ?? 'merge',
    local: { before: local, after: plan?.newTip ?? null },
    remoteTip: { before: tip, after: plan?.newTip ?? null },
    incoming,
    outgoing,
    unscanned: scan?.unscanned ?? [],
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
  identities: () => Promise<Identities>,
): Promise<Attempt> {
  const base = local && theirs ? await mergeBase(repo, local, theirs) : null;
  const action = syncAction(local, theirs, base);
  const plan: Attempt = { action, newTip: local, conflicts: [], pushForce: false };
  if (action === 'fast-forward') plan.newTip = theirs;
  if (action !== 'merge') return plan;

  say(`merging ${remote}'s handoff history with this clone's`);
  const treeOf = async (c: string | null) => (c ? (await store.readCommit(c)).tree : EMPTY_TREE_OID);
  const [baseTree, ourTree, theirTree] = await Promise.all([treeOf(base), treeOf(local), treeOf(theirs)]);
  // Which version wrote what is read only when both sides changed the same entry.
  const written = {
    ours: writtenIndex(store, () => uniqueCommits(repo, local, [theirs])),
    theirs: writtenIndex(store, () => uniqueCommits(repo, theirs, [local])),
  };
  const merged = await mergeNotesTrees(objects, base ? baseTree : null, ourTree, theirTree, (side, key, blob) => written[side](key, blob));
  plan.conflicts = merged.conflicts.map(describeConflict);
  const ids = await identities();
  const message = `merge handoff history from ${remote}\n\nHandoff-Kind: merge\nHandoff-Remote: ${remote}\n`;
  const made = { tree: merged.tree, parents: [local!, theirs!], author: ids.author, committer: ids.committer, message };
  // A dry run's merge lives only in memory: it is never signed (signing writes an object).
  plan.newTip =
    objects === repo.objects && (await signingWanted(repo)) ? await writeSignedCommit(repo, made) : await objects.write('commit', serializeCommit(made));
  return plan;
}

function describeConflict(c: SettledConflict): SyncConflict {
  const { kind, name } = parseKey(c.key);
  const kept = c.kept === 'ours' ? c.ours : c.theirs;
  const dropped = c.kept === 'ours' ? c.theirs : c.ours;
  return {
    target: kind === 'note' ? name : null,
    path: kind === 'path' ? name : null,
    kept: kept.written?.version ?? null,
    dropped: dropped.written?.version ?? null,
    carried_receipts: c.carried,
  };
}

async function recordsOf(objects: ObjectStore, store: HandoffStore, tips: (string | null)[]): Promise<PurgeRecord[]> {
  const byVersion = new Map<string, PurgeRecord>();
  for (const t of tips) {
    if (!t) continue;
    for (const r of await purgeRecords(objects, (await store.readCommit(t)).tree)) byVersion.set(recordKey(r), r);
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
