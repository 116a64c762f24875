/**
 * post-commit: the substantive-commit rule (docs/hooks.md). A substantive commit
 * prints exactly one line on stderr naming `git handoff write`; any other prints nothing.
 * Lean by design, it runs on every commit: no YAML, no git process for fresh objects.
 */
import type { Repo } from '../../git/repo.js';
import { withRepo } from '../repository.js';
import { VersionReader, type Latest } from '../../history/reader.js';
import type { Commit } from '../../git/objects.js';
import { readCommit } from '../../git/read-objects.js';
import { countChangedFiles } from '../../git/tree-diff.js';
import { isRevertMessage, lastHeadReflog, madeBySequencer, operationInProgress, runBySequencer } from '../../git/in-progress.js';
import { readSessions } from '../../state/session-store.js';
import { FILES_THRESHOLD, isExcludedSubject, isSubstantive, subjectLine, type Verdict } from '../../core/substantive.js';
import { currentSession } from '../../core/session.js';
import type { HookContext } from './types.js';
import { landSquash } from '../heal.js';
import { healedLine } from './post-merge.js';
import { divergenceOf, selectionFor } from '../show.js';
import { joinCommand } from '../show-report.js';
import { isOverBudget, outsideBudget, skippedLine } from '../hook-budget.js';

/** How far back the first-commit rule looks for the boundary before going by dates. */
const WALK_LIMIT = 200;

const REASONS: Record<string, string> = {
  'first-commit': 'the first commit since the last handoff',
  'body-length': 'its message body is over 200 characters',
  'files-changed': 'it changes more than 3 files',
};

export async function run(ctx: HookContext): Promise<number> {
  return withRepo(ctx.cwd, async (repo) => {
    // The commit that concludes a `git merge --squash` takes the squashed branch's handoff
    // (not optional: no later hook lands it, so outside the budget).
    const landed = await outsideBudget(() => landSquash(repo));
    if (landed) {
      ctx.io.err(healedLine(landed));
      return 0;
    }
    let line: string | null = null;
    const latest = latestOnce(repo);
    try {
      const verdict = await verdictForHead(repo, latest);
      if (verdict?.substantive) {
        // Two heads: the write that records where the work stands should join them too.
        const d = divergenceOf(await latest());
        const write = d
          ? `and join the sessions that diverged (versions ${[d.latest, ...d.diverged].map((v) => v.id.slice(0, 12)).join(' and ')}) with '${joinCommand(d.latest, d.diverged)}'`
          : "with 'git handoff write'";
        line = `git-handoff: substantive commit (${REASONS[verdict.rule]}); when this piece of work stops, record where it stands ${write}`;
      }
    } catch (e) {
      if (!isOverBudget(e)) throw e;
      line = `git-handoff: ${skippedLine('the substantive-commit check of this commit', e)}`;
    }
    if (line) ctx.io.err(line);
    return 0;
  });
}

/** The rule's verdict for HEAD, or null when the hook stays quiet (a rebase, merge, ... in progress). */
/** The current branch's latest, read at most once a run: the first-commit rule and the reminder's divergence line both ask it. */
function latestOnce(repo: Repo): () => Promise<Latest> {
  let read: Promise<Latest> | null = null;
  return () => (read ??= new VersionReader(repo).latest(selectionFor(repo, {})));
}

export async function verdictForHead(repo: Repo, latest = latestOnce(repo)): Promise<Verdict | null> {
  if (operationInProgress(repo.gitDir)) return null;
  const head = await repo.headCommit();
  if (!head) return null;
  const reflog = lastHeadReflog(repo.gitDir);
  if (madeBySequencer(reflog, head) || (await runBySequencer())) return null;
  const commit = await readCommit(repo.objects, head);
  if (!commit || commit.parents.length > 1 || isRevertMessage(commit.message)) return null;
  if (isExcludedSubject(subjectLine(commit.message))) return { substantive: false, rule: 'excluded' };
  const bodyOnly = isSubstantive({ message: commit.message, filesChanged: 0 }, { firstSinceVersion: false });
  if (bodyOnly.substantive) return bodyOnly;
  // Files before the first-commit rule: the tree diff is cheaper than reading the notes history.
  const parentTree = commit.parents.length ? ((await readCommit(repo.objects, commit.parents[0]))?.tree ?? null) : null;
  const files = await countChangedFiles(repo.objects, parentTree, commit.tree, FILES_THRESHOLD);
  if (files > FILES_THRESHOLD) return isSubstantive({ message: commit.message, filesChanged: files }, { firstSinceVersion: false });
  const amendedFrom = reflog && reflog.new === head && reflog.message.startsWith('commit (amend)') ? reflog.old : null;
  const first = await firstSinceBoundary(repo, commit, amendedFrom, latest);
  return isSubstantive({ message: commit.message, filesChanged: files }, { firstSinceVersion: first });
}

/**
 * Is HEAD the first commit with a non-excluded subject since the latest version (or the start
 * of the current agent session)? Walks HEAD's first parents to whichever boundary comes first;
 * when neither is on this line, only commits made after the boundary's time count. The
 * current session is the committing agent's own (`HANDOFF_SESSION_ID`, exported to its
 * shell commands) while it is live, else the live one that started last: another session
 * ending in the same worktree does not take this one's boundary away.
 */
async function firstSinceBoundary(repo: Repo, commit: Commit, amendedFrom: string | null, latest: () => Promise<Latest>): Promise<boolean> {
  const session = currentSession(readSessions(repo.gitDir), process.env.HANDOFF_SESSION_ID);
  const live = session?.started_head ? session : null;
  const { version } = await latest();
  if (!version && !live) return false;
  const stops = new Set<string>();
  if (version) stops.add(version.target);
  if (live) stops.add(live.started_head!);
  // Amending the commit a handoff sits on rewrites that commit; it is not a commit after it.
  if (amendedFrom && stops.has(amendedFrom)) return false;
  const since = Math.max(version?.timestamp ?? 0, live ? Date.parse(live.started_at) / 1000 || 0 : 0);
  const seen: { subject: string; time: number }[] = [];
  let id = commit.parents[0];
  while (id && seen.length < WALK_LIMIT) {
    if (stops.has(id)) return !seen.some((c) => !isExcludedSubject(c.subject));
    const c = await readCommit(repo.objects, id);
    if (!c) break;
    const subject = subjectLine(c.message);
    // A non-excluded commit made after the boundary settles it on either branch below:
    // stop here instead of walking on (this hook runs on every commit).
    if (c.committer.timestamp >= since && !isExcludedSubject(subject)) return false;
    seen.push({ subject, time: c.committer.timestamp });
    id = c.parents[0];
  }
  return !seen.some((c) => c.time >= since && !isExcludedSubject(c.subject));
}
