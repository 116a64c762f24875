/**
 * Installer: `init --sync`. A fetch refspec so `git fetch` / `git pull` keep
 * `refs/notes/remotes/<remote>/handoff` current, and a pre-push hook that pushes the
 * handoff history alongside every push. No `remote.<name>.push` value is ever set: one
 * naming only the notes ref would stop a plain `git push` from pushing the branch.
 */
import { join } from 'node:path';
import { NOTES_REF } from '../../git/repo.js';
import { defaultRemote, trackingRef } from '../../git/remote.js';
import { SHIM_MARKER, hasBlock, withoutBlock } from '../../core/hook-blocks.js';
import { CHAINED_SUFFIX, gitHooksInstaller, hookLayout, planHook } from './git-hooks/index.js';
import type { Installer, PlanContext, Step } from './types.js';

export const SYNC_HOOK = 'pre-push';

/**
 * The refspec, as a one-`*` pattern: a plain `refs/notes/handoff:...` makes every `git fetch`
 * and `git pull` fail ("couldn't find remote ref") while the remote has no handoffs yet; a
 * pattern that matches nothing fetches nothing.
 */
export function syncRefspec(remote: string): string {
  return `+${NOTES_REF}*:${trackingRef(remote)}*`;
}

export const syncInstaller: Installer = {
  id: 'sync',
  options: {
    sync: { type: 'boolean', describe: "share handoffs through the remote: 'git fetch' brings them, every 'git push' pushes them (a pre-push hook)" },
  },
  wanted: (options) => Boolean(options.sync),

  async plan(ctx) {
    const steps: Step[] = [];
    const remote = await defaultRemote(ctx.repo);
    if (!remote) {
      steps.push({ kind: 'notice', summary: "no remote yet: after 'git remote add', run 'git handoff init --sync' again so 'git fetch' brings handoffs too" });
    } else {
      const key = `remote.${remote}.fetch`;
      const spec = syncRefspec(remote);
      if (!(await ctx.configAll(key)).includes(spec)) {
        steps.push({
          kind: 'config',
          key,
          value: spec,
          action: 'add',
          summary: `add the fetch refspec ${spec} ('git fetch' keeps ${trackingRef(remote)} current)`,
        });
      }
    }
    steps.push(...(await planHook(ctx, SYNC_HOOK)));
    return steps;
  },

  undo: (file, current) => gitHooksInstaller.undo!(file, current),
  undoSteps: (file, abs, ctx) => gitHooksInstaller.undoSteps!(file, abs, ctx),

  async orphans(ctx: PlanContext) {
    const layout = await hookLayout(ctx);
    if (layout.kind === 'lefthook' || layout.kind === 'simple-git-hooks') return []; // the git-hooks installer takes all our commands out
    const path = join(layout.dir, SYNC_HOOK);
    const current = ctx.read(path);
    if (!current) return [];
    if (layout.kind === 'husky') {
      const text = current.toString('utf8');
      return hasBlock(text) ? [{ kind: 'file', path, content: Buffer.from(withoutBlock(text)), summary: `take the git-handoff block out of ${path}` }] : [];
    }
    if (!current.subarray(0, 400).toString('utf8').includes(SHIM_MARKER)) return [];
    const chained = ctx.read(path + CHAINED_SUFFIX);
    if (!chained) return [{ kind: 'file', path, content: null, summary: `remove ${path}` }];
    return [
      { kind: 'file', path, content: chained, mode: ctx.mode(path + CHAINED_SUFFIX) ?? 0o755, summary: `put ${path + CHAINED_SUFFIX} back as ${path}` },
      { kind: 'file', path: path + CHAINED_SUFFIX, content: null, summary: `remove ${path + CHAINED_SUFFIX}` },
    ];
  },
};
