/**
 * prepare-commit-msg: the fidelity sweep before a commit (docs/hooks.md).
 * Prints the plan in a few lines when a topic is due; stops the commit only when
 * `handoff.sweep.strict` is true (exit 1, naming each topic to consolidate). Quiet during a
 * rebase, merge, cherry-pick, revert or bisect.
 */
import { withRepo } from '../repository.js';
import { operationInProgress, runBySequencer } from '../../git/in-progress.js';
import { sweep } from '../sweep.js';
import { latestCadence } from '../continuation-refs.js';
import { CONSOLIDATED_STEP } from '../../core/sweep.js';
import type { HookContext } from './types.js';

export async function run(ctx: HookContext): Promise<number> {
  const source = ctx.args[1];
  if (source === 'merge' || source === 'squash') return 0;
  return withRepo(ctx.cwd, async (repo) => {
    if (operationInProgress(repo.gitDir) || (await runBySequencer())) return 0;
    const strict = await repo.configBool('handoff.sweep.strict');
    const r = await sweep(repo, latestCadence);
    const due = r.topics.filter((t) => t.action === 'consolidate');
    if (due.length && strict) {
      ctx.io.err(
        `git-handoff: commit stopped by the fidelity sweep (handoff.sweep.strict): consolidate ${due.map((t) => `${t.path} (${t.topic})`).join(', ')}; ${CONSOLIDATED_STEP}`,
      );
      return 1;
    }
    if (due.length) {
      ctx.io.err(`git-handoff: fidelity sweep: ${due.length} ${due.length === 1 ? 'topic' : 'topics'} to consolidate before the next handoff:`);
      for (const t of due.slice(0, 5)) ctx.io.err(`  ${t.path} (${t.topic}): ${t.reason}`);
      if (due.length > 5) ctx.io.err(`  ... and ${due.length - 5} more ('git handoff sweep')`);
      ctx.io.err(`  ${CONSOLIDATED_STEP}`);
    }
    if (r.hint) ctx.io.err(`git-handoff: hint: ${r.hint}`);
    return 0;
  });
}
