/**
 * `doctor`: checks what can go wrong around the handoff history without anyone doing
 * anything wrong: notes orphaned by a server-side squash or rebase merge, a lock
 * left by a killed writer, hooks and config that `init` set and that went missing.
 * `--fix` repairs what it safely can and reports the rest.
 */
import type { Repo } from '../git/repo.js';
import { HandoffStore } from '../git/handoff-store.js';
import { VersionReader } from '../history/reader.js';
import { listNotes, setNote } from '../git/notes-tree.js';
import { branchHomes, candidateCommits, commitFacts, findOrphanNotesInTree, reflogCommits, type OrphanNote } from '../git/orphans.js';
import { branchOf } from '../git/reachability.js';
import { noteKeys } from '../git/note-keys.js';
import { carriedNote, type CarriedNote } from './carried-note.js';
import { findRefLocks, isStale, removeLock, STALE_LOCK_MS } from '../git/ref-locks.js';
import { decodeText, DEFAULT_MAX_BYTES } from '../core/bytes.js';
import { parseDocument } from '../core/parse.js';
import { checkStored, type Handoff } from '../core/schema.js';
import { placeOrphans, type Orphan } from '../core/orphans.js';
import { checkInstall } from './doctor-install.js';
import { checkAgentTrust } from './doctor-agents.js';
import { checkLostVersions } from './doctor-lost.js';
import { checkNoteCopies } from './doctor-copies.js';
import { checkKeyReaders, checkUnreadable } from './doctor-unreadable.js';
import { checkDivergence, checkLineage } from './doctor-lineage.js';
import { branchForTrailer } from '../core/commit-message.js';
import { reattachLineage } from '../core/lineage.js';
import { isHealthy, type Finding } from './doctor-finding.js';

export { findingLevel, type Finding } from './doctor-finding.js';

export interface DoctorResult {
  findings: Finding[];
  /** no finding is `fixable` or `problem` (see `findingLevel`) */
  healthy: boolean;
}

export interface DoctorRequest {
  fix: boolean;
  /** re-attach notes whose commit is not in this clone even when a fetch might bring it */
  reattachMissing?: boolean;
  /** also list the encrypted versions this age public key cannot read (`doctor --key`) */
  key?: string;
  nowMs?: number;
}

export async function runDoctor(repo: Repo, req: DoctorRequest): Promise<DoctorResult> {
  const findings: Finding[] = [];
  // (one git process over the whole history, run beside the checks below)
  const lineage = checkLineage(repo);
  lineage.catch(() => {});
  // Locks first: a stale lock would make every orphan fix below wait and fail.
  for (const lock of findRefLocks(repo, req.nowMs)) {
    const age = `${Math.round(lock.ageMs / 1000)}s old`;
    if (!isStale(lock)) {
      // A live writer's lock is no problem unless it has been held far longer than a write takes.
      const hung = lock.heldBy !== null && lock.ageMs >= STALE_LOCK_MS;
      const why =
        lock.heldBy !== null ? `held open by process ${lock.heldBy} (${age})` : `only ${age}: a writer may be using it (stale after ${STALE_LOCK_MS / 1000}s)`;
      findings.push({
        kind: 'lock',
        subject: lock.path,
        message: `${lock.ref} is locked by ${lock.path}, ${why}`,
        action: hung ? `let process ${lock.heldBy} finish or stop it, then run 'git handoff doctor --fix'` : 'nothing to do: wait for the writer to finish',
        fixable: false,
        fixed: false,
        note: !hung,
      });
      continue;
    }
    const fixed = req.fix ? (removeLock(lock), true) : false;
    findings.push({
      kind: 'lock',
      subject: lock.path,
      message: `stale lock ${lock.path} (${age}) left by a killed writer blocks ${lock.ref}${fixed ? '; removed' : ''}`,
      action: fixed ? 'removed the lock' : '--fix removes the lock',
      fixable: true,
      fixed,
    });
  }
  // Lost versions before orphans: a restored version's note may itself need placing.
  findings.push(...(await checkLostVersions(repo, req.fix)));
  findings.push(...(await checkNoteCopies(repo, req.fix)));
  findings.push(...(await checkOrphans(repo, req.fix, Boolean(req.reattachMissing))));
  findings.push(...(await checkInstall(repo, req.fix)));
  findings.push(...checkAgentTrust(repo, process.env));
  findings.push(...(await checkUnreadable(repo)));
  if (req.key !== undefined) findings.push(...(await checkKeyReaders(repo, req.key)));
  findings.push(...(await lineage));
  // after --fix's repairs: the heads as every reader names them now
  findings.push(...(await checkDivergence(repo)));
  return { findings, healthy: isHealthy(findings) };
}

/**
 * A note whose commit is not in this clone may be on a commit this clone has not fetched
 * yet: moving it by patch id or tree would put it on a stale copy and take it off its real
 * commit. It is taken as gone only when its branch is known nowhere here (no
 * local branch, no remote-tracking branch of that name), and even then only onto a commit
 * made after the note was written; `--reattach-missing` lifts both.
 */
async function checkOrphans(repo: Repo, fix: boolean, reattachMissing: boolean): Promise<Finding[]> {
  const store = new HandoffStore(repo);
  const tip = await store.tip();
  if (!tip) return [];
  const tipCommit = await store.readCommit(tip);
  const { orphans: orphanNotes, noted } = await findOrphanNotesInTree(repo, tipCommit.tree);
  if (!orphanNotes.length) return [];

  const orphans: (Orphan & { note: OrphanNote; branch: string | null; carried: CarriedNote })[] = [];
  const maxBytes = Math.max(DEFAULT_MAX_BYTES, await repo.configInt('handoff.maxBytes', DEFAULT_MAX_BYTES));
  const reader = new VersionReader(repo);
  const read = new Map<string, { h: Handoff | null; carried: CarriedNote }>();
  const sealed: string[] = [];
  for (const n of orphanNotes) {
    if (!read.has(n.blob)) read.set(n.blob, await readNote(repo, reader, n.blob, maxBytes));
    const { h, carried } = read.get(n.blob)!;
    const date = typeof h?.date === 'string' ? Date.parse(h.date) / 1000 : NaN;
    if (carried.visibility !== 'shared') sealed.push(n.target);
    orphans.push({
      note: n,
      target: n.target,
      blob: n.blob,
      timestamp: Number.isFinite(date) ? date : (carried.writer?.timestamp ?? tipCommit.committer.timestamp),
      patchId: typeof h?.head_patch_id === 'string' ? h.head_patch_id : null,
      tree: typeof h?.head_tree === 'string' ? h.head_tree : null,
      branch: typeof h?.branch === 'string' ? h.branch : (carried.writer?.branch ?? null),
      carried,
    });
  }
  // An encrypted note is placed by what is in the clear, the same in every clone, key or
  // none: the tree and patch id of the commit it sits on, when this clone has that commit;
  // else by its own fields, when the user's key reads it; else it cannot be placed.
  if (sealed.length) {
    const facts = await commitFacts(repo, sealed, true);
    for (const o of orphans) {
      const f = o.carried.visibility === 'shared' ? undefined : facts.get(o.target);
      if (f) Object.assign(o, { tree: f.tree, patchId: f.patchId });
      else if (o.carried.visibility !== 'shared' && !o.tree && !o.patchId) o.sealed = true;
    }
  }
  const out: Finding[] = [];
  const missing = reattachMissing ? [] : orphans.filter((o) => o.note.why === 'missing');
  const homes = await branchHomes(repo, [...new Set(missing.map((o) => o.branch).filter((b): b is string => b !== null))]);
  const waiting = new Set<string>();
  for (const o of missing) {
    const home = o.branch === null ? null : homes.get(o.branch);
    if (o.branch !== null && !home) {
      o.onlyNewer = true;
      continue;
    }
    waiting.add(o.target);
    const why = home
      ? `its branch ${o.branch} is still here (${home}), so a fetch may bring the commit`
      : 'the note records no branch, so a fetch may still bring the commit';
    out.push({
      kind: 'orphan',
      subject: o.target,
      group: waitingLine,
      message: `the note of ${o.target.slice(0, 7)} is on a commit not in this clone (fetch first?): ${why}; it stays where it is`,
      action: "run 'git fetch' to bring the commit (to re-attach the note by patch id or tree anyway: git handoff doctor --fix --reattach-missing)",
      fixable: false,
      fixed: false,
      note: true,
    });
  }
  const placeable = orphans.filter((o) => !waiting.has(o.target));
  if (!placeable.length) return grouped(out);
  const since = Math.min(...placeable.map((o) => o.timestamp));
  const candidates = await candidateCommits(
    repo,
    since,
    placeable.some((o) => o.patchId),
  );
  const placements = placeOrphans(placeable, candidates, noted());
  // A commit this clone's reflogs remember was replaced here (amend, rebase, squash, reset):
  // post-rewrite carried its handoff on, so a note left behind on it is no problem.
  const local = await reflogCommits(repo);
  // A head of its branch (nothing newer continues it) whose blob no other commit's note
  // holds (git's copy on the rewritten commit would): its commit was dropped, not rewritten.
  let carried: Set<string> | null = null;
  const orphanTargets = new Set(orphanNotes.map((n) => n.target));
  const heads = new Map<string | null, Promise<Set<string | undefined>>>();
  const droppedHead = async (blob: string, branch: string | null): Promise<boolean> => {
    if (!heads.has(branch))
      heads.set(
        branch,
        reader.latest({ branch }).then((l) => new Set([...(l.fallback ? [] : [l.version, ...l.diverged])].map((v) => v?.blob))),
      );
    if (!(await heads.get(branch)!).has(blob)) return false;
    carried ??= new Set((await listNotes(repo.objects, tipCommit.tree)).filter((n) => !orphanTargets.has(n.target)).map((n) => n.blob));
    return !carried.has(blob);
  };

  // The newest orphan chose first; re-attaching oldest first (by lineage) keeps it the newest
  // version, each continuing the one it carries and the re-attach before it on its branch.
  const byTarget = new Map(orphans.map((o) => [o.target, o]));
  const ordered = await reader.reattachOrder(placements.map((p) => ({ ...p, blob: p.orphan.blob, timestamp: p.orphan.timestamp })));
  const previous = new Map<string | null, string>();
  for (const { item: p, carried } of ordered) {
    const o = byTarget.get(p.orphan.target)!;
    const what = `the note of ${o.target.slice(0, 7)} (${o.note.why === 'missing' ? 'commit gone' : 'commit on no branch'})`;
    if (p.to === null) {
      if (local.has(o.target) && (await droppedHead(o.note.blob, o.branch))) {
        // A rebase that dropped the commit (or a reset past it): git copied its note nowhere,
        // and no newer version continues it (a squash's older notes are continued).
        out.push({
          kind: 'orphan',
          subject: o.target,
          message: `the note of ${o.target.slice(0, 7)} stays on a commit a local rebase or reset dropped (it is in the reflog), and no other commit carries this handoff; it stays in the history ('git handoff log' lists it, and 'git handoff show' gives it while no newer version of ${o.branch ? `branch ${o.branch}` : 'its branch'} continues it)`,
          action: "nothing to do; if the dropped work is not coming back, write where the work stands now with 'git handoff write'",
          fixable: false,
          fixed: false,
          note: true,
        });
        continue;
      }
      if (local.has(o.target)) {
        out.push({
          kind: 'orphan',
          subject: o.target,
          message: `the note of ${o.target.slice(0, 7)} stays on a commit a local amend, rebase or squash replaced (it is in the reflog); the rewritten commit carries the handoff, and the old version stays readable in 'git handoff log'`,
          action: 'nothing to do',
          fixable: false,
          fixed: false,
          note: true,
          group: localRewriteLine,
        });
        continue;
      }
      out.push({
        kind: 'orphan',
        subject: o.target,
        group: stuckLine,
        message: `${what} cannot be re-attached: ${p.reason}; it stays readable in 'git handoff log'`,
        action: "nothing to do unless the work goes on elsewhere: then record it there with 'git handoff write'",
        fixable: false,
        fixed: false,
        note: true,
      });
      continue;
    }
    const to = p.to;
    // The version belongs where the work now is (the branch a squash or rebase merge put it
    // on), not the branch it was written on; a commit on no branch keeps the note's own.
    const branch = (await branchOf(repo, to)) ?? branchForTrailer(o.branch);
    let version: string | undefined;
    if (fix) {
      version = await store.commit('version', async (root) => setNote(repo.objects, await setNote(repo.objects, root, to, o.blob), o.target, null), {
        subject: `handoff ${to.slice(0, 7)}${branch ? ` on ${branch}` : ''}: re-attached from ${o.target.slice(0, 7)} (same ${p.by})`,
        trailers: {
          'Handoff-Target': to,
          ...(branch ? { 'Handoff-Branch': branch } : {}),
          'Handoff-Reattached-From': o.target,
          ...o.carried.trailers,
          ...reattachLineage(carried, previous.get(branch), await reader.headIds(branch)),
        },
      });
      previous.set(branch, version);
    }
    const onBranch = branch ? ` on ${branch}` : ' (detached)';
    out.push({
      kind: 'orphan',
      subject: o.target,
      message: `${what} ${fix ? 'was re-attached' : 'can be re-attached'} to ${to.slice(0, 7)}${onBranch}, which has the same ${p.by}${version ? ` (version ${version.slice(0, 12)})` : ''}`,
      action: fix ? `re-attached it as a new version on ${to.slice(0, 7)}${onBranch}` : `--fix re-attaches it as a new version on ${to.slice(0, 7)}${onBranch}`,
      fixable: true,
      fixed: fix,
      to,
      branch,
      ...(version ? { version } : {}),
    });
  }
  return grouped(out);
}

/** More notes than this that wait for a fetch, or cannot be re-attached, are one line with a count. */
const MANY = 10;

/**
 * Notes someone else wrote for commits this clone never had can be 100,000 (a remote's notes
 * tree): beyond a few, the notes that wait for a fetch and those that cannot be re-attached are
 * each told as one line with a count (`--json` still lists every one).
 */
function grouped(out: Finding[]): Finding[] {
  for (const line of [waitingLine, stuckLine]) {
    const alike = out.filter((f) => f.group === line);
    if (alike.length <= MANY) for (const f of alike) delete f.group;
  }
  return out;
}

function waitingLine(n: number): string {
  return `${n} notes are on commits not in this clone (fetch first?): their branches are still here or they record none, so a fetch may bring the commits; they stay where they are`;
}

function stuckLine(n: number): string {
  return `${n} notes are on commits that are gone or on no branch and cannot be re-attached (no reachable commit has the same patch id or tree); they stay readable in 'git handoff log'`;
}

/** The one line for many notes left behind by local rewrites (a rebase of 20 commits is not 20 lines). */
function localRewriteLine(n: number): string {
  return `${n} notes stay on commits a local amend, rebase or squash replaced (they are in the reflog); the rewritten commits carry the handoffs, and the old versions stay readable in 'git handoff log'`;
}

/**
 * A note's fields, read within `handoff.maxBytes` as every reader reads one (a bigger note
 * gives none), an encrypted one decrypted in memory when the user's key reads it; and what a
 * version carrying it as it is takes from its writer (src/app/carried-note.ts).
 */
async function readNote(repo: Repo, reader: VersionReader, blob: string, maxBytes: number): Promise<{ h: Handoff | null; carried: CarriedNote }> {
  const obj = await repo.objects.read(blob);
  if (!obj) return { h: null, carried: { visibility: 'shared', trailers: {} } };
  const carried = await carriedNote(reader, blob, obj.data);
  let data = obj.data;
  if (carried.visibility !== 'shared') {
    const got = await noteKeys(repo)
      .decrypt(obj.data.toString('latin1'))
      .catch(() => null);
    if (!got || !('text' in got)) return { h: null, carried };
    data = Buffer.from(got.text, 'utf8');
  }
  const decoded = decodeText(data, maxBytes);
  if ('problem' in decoded) return { h: null, carried };
  try {
    return { h: checkStored(await parseDocument(decoded.text)).handoff, carried };
  } catch {
    return { h: null, carried };
  }
}
