/**
 * pre-push (installed by `init --sync`): pushes the handoff history alongside the user's
 * push (issue 6). Never stops or changes that push: nothing new costs no network at all,
 * a fast-forward is one push, a diverged remote one fetch-merge-push; any failure is one
 * line naming `git handoff sync`, and the hook still exits 0.
 */
import { NOTES_REF, Repo } from '../../git/repo.js';
import { HandoffStore } from '../../git/handoff-store.js';
import { pushNotes, trackingRef } from '../../git/remote.js';
import { isAncestor } from '../../git/notes-history.js';
import { pushIsDryRun } from '../../git/push-process.js';
import { syncHandoffs } from '../sync.js';
import { isHandoffError } from '../../errors.js';
import type { HookContext } from './types.js';

/** One round only: the user's push is waiting. */
const HOOK_SYNC_ATTEMPTS = 1;

export type PushAlongside = { action: 'skipped' | 'nothing' | 'pushed' | 'merged'; remote: string | null; versions?: number };

/** Decides and does the notes push for a push to `remoteArg` (a remote's name, or a URL). */
export async function pushAlongside(repo: Repo, remoteArg: string | undefined): Promise<PushAlongside> {
  // A push to a bare URL has no remote name, so no tracking ref: leave it alone.
  if (!remoteArg || !(await repo.configGet(`remote.${remoteArg}.url`))) return { action: 'skipped', remote: null };
  const remote = remoteArg;
  const local = await new HandoffStore(repo).tip();
  if (!local) return { action: 'nothing', remote };
  const tracked = await repo.resolveRef(trackingRef(remote));
  // Nothing the remote lacks, as far as the last fetch knows: no network at all.
  if (tracked === local || (tracked && (await isAncestor(repo, local, tracked)))) return { action: 'nothing', remote };
  if (!tracked || (await isAncestor(repo, tracked, local))) {
    if ((await pushNotes(repo, remote, local, tracked)) === 'ok') return { action: 'pushed', remote };
  }
  const r = await syncHandoffs(repo, { remote, dryRun: false, force: false, maxAttempts: HOOK_SYNC_ATTEMPTS });
  return { action: r.action === 'merge' ? 'merged' : r.action === 'up-to-date' ? 'nothing' : 'pushed', remote, versions: r.incoming };
}

export async function run(ctx: HookContext): Promise<number> {
  // `git push --dry-run` runs this hook too: a dry run pushes nothing, handoffs included.
  if (pushIsDryRun()) return 0;
  const repo = await Repo.discover(ctx.cwd);
  const remote = ctx.args[0];
  try {
    const r = await pushAlongside(repo, remote);
    if (r.action === 'pushed') ctx.io.err(`git-handoff: pushed the handoff history (${NOTES_REF}) to ${r.remote}`);
    if (r.action === 'merged') ctx.io.err(`git-handoff: merged ${r.versions} handoff version(s) from ${r.remote} and pushed the handoff history`);
  } catch (e) {
    const why = (isHandoffError(e) ? e.message : (e as Error)?.message ?? String(e)).split('\n')[0];
    // A reason that names its own way out (a purge needs 'sync --force') is not contradicted.
    const next = why.includes('git handoff ') ? '' : `; run 'git handoff sync${remote ? ` ${remote}` : ''}'`;
    ctx.io.err(`git-handoff: the handoff history was not pushed (${why}); your push goes on${next}`);
  } finally {
    repo.close();
  }
  return 0;
}
