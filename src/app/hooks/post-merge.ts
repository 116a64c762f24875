/**
 * post-merge (after `git pull` / `git merge`): handoffs of commits a forge squash- or
 * rebase-merged follow onto the new commits (app/heal.ts).
 */
import { withRepo } from '../repository.js';
import { healMergedNotes, type Healed } from '../heal.js';
import type { HookContext } from './types.js';

export function healedLine(h: Healed): string {
  const how = h.by === 'tree' ? 'same tree: a squash merge' : 'same patch: a rebase merge';
  return `git-handoff: the handoff of ${h.from.slice(0, 7)} now sits on ${h.to.slice(0, 7)} (${how}${h.moved ? '' : '; it stays on the old commit too'})`;
}

export async function run(ctx: HookContext): Promise<number> {
  return withRepo(ctx.cwd, async (repo) => {
    // git merge records where HEAD was before it in ORIG_HEAD.
    const healed = await healMergedNotes(repo, await repo.resolveRef('ORIG_HEAD'), await repo.headCommit());
    for (const h of healed) ctx.io.err(healedLine(h));
    return 0;
  });
}
