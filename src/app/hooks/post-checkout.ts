/**
 * post-checkout (`git pull --rebase`, a checkout onto new commits): handoffs of commits a
 * forge squash- or rebase-merged follow onto the new commits (app/heal.ts).
 * git passes the previous HEAD, the new HEAD and 1 for a branch checkout.
 */
import { withRepo } from '../repository.js';
import { healMergedNotes } from '../heal.js';
import { healedLine } from './post-merge.js';
import type { HookContext } from './types.js';
import { outsideBudget } from '../hook-budget.js';

export async function run(ctx: HookContext): Promise<number> {
  const [prev, next, flag] = ctx.args;
  if (flag !== '1' || !prev || !next || prev === next) return 0;
  return withRepo(ctx.cwd, async (repo) => {
    // Not optional work (nothing heals these notes later but doctor --fix): outside the budget.
    for (const h of await outsideBudget(() => healMergedNotes(repo, prev, next))) ctx.io.err(healedLine(h));
    return 0;
  });
}
