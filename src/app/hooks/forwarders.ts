/**
 * `hook forwarders`: not a git event but run by our hook forwarders (app/install/git-hooks/
 * forwarders.ts) after a checkout or a pull, when the tracked folder core.hooksPath named
 * gained or lost a hook git runs only when present: the forwarders follow, as init would.
 */
import { withRepo } from '../repository.js';
import { refreshForwarders } from '../install/index.js';
import type { HookContext } from './types.js';

export async function run(ctx: HookContext): Promise<number> {
  return withRepo(ctx.cwd, async (repo) => {
    for (const line of await refreshForwarders(repo)) ctx.io.err(`git-handoff: ${line}`);
    return 0;
  });
}
