/**
 * pre-push (installed by `init --sync`): pushes the handoff history alongside the user's
 * push. Never stops or changes that push: nothing new costs no network at all,
 * a fast-forward is one push, a diverged or busy remote fetch-merge-push rounds; any
 * failure is one line naming `git handoff sync`, and the hook still exits 0. All of it runs
 * within `handoff.sync.hookTimeout`: a silent remote delays the push by that
 * budget at most, then the line says the history was not pushed and how to push it.
 */
import { NOTES_REF, type Repo } from '../../git/repo.js';
import { withRepo } from '../repository.js';
import { startHookBudget } from '../hook-budget.js';
import { HandoffStore } from '../../git/handoff-store.js';
import { pushNotes, trackingRef, type NetworkBudget } from '../../git/remote.js';
import { isAncestor } from '../../git/notes-history.js';
import { pushIsDryRun } from '../../git/push-process.js';
import { configuredBudget, syncHandoffs } from '../sync.js';
import { refuseOutgoingSecrets, unscannedLine } from '../outgoing-secrets.js';
import { isHandoffError } from '../../errors.js';
import type { HookContext } from './types.js';
import type { Divergence } from '../show.js';
import { divergenceReport } from '../show-report.js';

/** `handoff.sync.hookTimeout`: seconds the hook may add to the user's push (its retries included). */
export const HOOK_TIMEOUT_SECONDS = 8;

export type PushAlongside = {
  action: 'skipped' | 'nothing' | 'pushed' | 'merged';
  remote: string | null;
  versions?: number;
  /** the merge left the current branch with two or more heads */
  divergence?: Divergence | null;
  /** the divergence check after the push stopped at the hook's deadline: why */
  divergenceUnchecked?: string;
  /** encrypted versions sent that no key here reads and this clone did not write: not vouched for */
  unscanned?: string[];
};

/** Decides and does the notes push for a push to `remoteArg` (a remote's name, or a URL). */
export async function pushAlongside(repo: Repo, remoteArg: string | undefined, budget: NetworkBudget): Promise<PushAlongside> {
  // A push to a bare URL has no remote name, so no tracking ref: leave it alone.
  if (!remoteArg || !(await repo.configGet(`remote.${remoteArg}.url`))) return { action: 'skipped', remote: null };
  const remote = remoteArg;
  const local = await new HandoffStore(repo).tip();
  if (!local) return { action: 'nothing', remote };
  const tracked = await repo.resolveRef(trackingRef(remote));
  // Nothing the remote lacks, as far as the last fetch knows: no network at all.
  if (tracked === local || (tracked && (await isAncestor(repo, local, tracked)))) return { action: 'nothing', remote };
  if (!tracked || (await isAncestor(repo, tracked, local))) {
    const { unscanned } = await refuseOutgoingSecrets(repo, new HandoffStore(repo), local, tracked);
    if ((await pushNotes(repo, remote, local, tracked, { budget })) === 'ok') return { action: 'pushed', remote, unscanned };
  }
  const r = await syncHandoffs(repo, { remote, dryRun: false, force: false, budget });
  return {
    action: r.action === 'merge' ? 'merged' : r.action === 'up-to-date' ? 'nothing' : 'pushed',
    remote,
    versions: r.incoming,
    divergence: r.divergence,
    ...(r.divergenceUnchecked ? { divergenceUnchecked: r.divergenceUnchecked } : {}),
    unscanned: r.unscanned,
  };
}

export async function run(ctx: HookContext): Promise<number> {
  // `git push --dry-run` runs this hook too: a dry run pushes nothing, handoffs included.
  if (await pushIsDryRun()) return 0;
  const remote = ctx.args[0];
  await withRepo(ctx.cwd, async (repo) => {
    try {
      const budget = await configuredBudget(repo, 'handoff.sync.hookTimeout', HOOK_TIMEOUT_SECONDS);
      // its reads of the notes history too (a remote's long run of bookkeeping): docs/hooks.md "Time budget"
      startHookBudget(budget.seconds);
      const r = await pushAlongside(repo, remote, budget);
      if (r.action === 'pushed') ctx.io.err(`git-handoff: pushed the handoff history (${NOTES_REF}) to ${r.remote}`);
      if (r.action === 'merged') ctx.io.err(`git-handoff: merged ${r.versions} handoff version(s) from ${r.remote} and pushed the handoff history`);
      if (r.action !== 'nothing' && r.unscanned?.length) ctx.io.err(`git-handoff: ${unscannedLine(r.unscanned)}`);
      const d = r.divergence;
      if (r.divergenceUnchecked) ctx.io.err(`git-handoff: whether the branch's handoff history has two heads was not checked (${r.divergenceUnchecked})`);
      if (d) for (const line of divergenceReport(d)) ctx.io.err(`git-handoff: ${line}`);
    } catch (e) {
      const why = (isHandoffError(e) ? e.message : ((e as Error)?.message ?? String(e))).split('\n')[0];
      // A reason that names its own way out (a purge needs 'sync --force') is not contradicted.
      const next = why.includes('git handoff ') ? '' : `; run 'git handoff sync${remote ? ` ${remote}` : ''}'`;
      ctx.io.err(`git-handoff: the handoff history was not pushed (${why}); your push goes on${next}`);
    }
  });
  return 0;
}
