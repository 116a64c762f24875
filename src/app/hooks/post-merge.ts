/**
 * post-merge (after `git pull` / `git merge`): handoffs of commits a forge squash- or
 * rebase-merged follow onto the new commits (app/heal.ts).
 */
import { withRepo } from '../repository.js';
import { healMergedNotes, recordSquash, type Healed } from '../heal.js';
import type { HookContext } from './types.js';
import { outsideBudget } from '../hook-budget.js';

export function healedLine(h: Healed): string {
  const how = h.by === 'tree' ? 'same tree: a squash merge' : h.by === 'squash' ? 'a squash merge of it' : 'same patch: a rebase merge';
  return `git-handoff: the handoff of ${h.from.slice(0, 7)} now sits on ${h.to.slice(0, 7)} (${how}${h.moved ? '' : '; it stays on the old commit too'})`;
}

export async function run(ctx: HookContext): Promise<number> {
  return withRepo(ctx.cwd, async (repo) => {
    // `git merge --squash` (the hook's argument is 1) makes no commit: the next one carries the handoff.
    if (ctx.args[0] === '1') {
      recordSquash(repo, await repo.headCommit());
      return 0;
    }
    // git merge records where HEAD was before it in ORIG_HEAD. Not optional work (nothing
    // heals these notes later but doctor --fix): outside the hook's budget.
    const from = await repo.resolveRef('ORIG_HEAD');
    const to = await repo.headCommit();
    const healed = await outsideBudget(() => healMergedNotes(repo, from, to));
    for (const h of healed) ctx.io.err(healedLine(h));
    return 0;
  });
}
