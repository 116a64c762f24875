/** Which hook manager, if any, this repository's hooks go through (the layouts in shared.ts). */
import { existsSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, resolve } from 'node:path';
import type { PlanContext } from '../types.js';
import { redirectDir } from './forwarders.js';
import { LEFTHOOK_FILES, LEFTHOOK_LOCAL_FILES } from './lefthook.js';
import { type HookLayout, inside } from './shared.js';
import { simpleGitHooksConfig } from './simple-git-hooks.js';

/** Where hooks go in this repository. */
export async function hookLayout(ctx: PlanContext): Promise<HookLayout> {
  const dir = await ctx.hooksDir();
  const values = await ctx.configAll('core.hooksPath');
  const hooksPath = values.at(-1);
  const ours = redirectDir(ctx);
  const top = ctx.repo.workTree;
  const simple = top ? simpleGitHooksConfig(ctx, top) : null;
  if (simple) return { kind: 'simple-git-hooks', ...simple, hooksDir: dir };
  if (hooksPath && resolve(dir) === ours) {
    // Redirected by an earlier init: the folder it forwards to is the value it replaced.
    const recorded = ctx.record?.config.find((c) => c.key.toLowerCase() === 'core.hookspath' && resolve(c.value) === ours);
    const target = recorded
      ? (recorded.previous ?? values.filter((v) => resolve(v) !== ours).at(-1) ?? null)
      : (values.filter((v) => resolve(v) !== ours).at(-1) ?? null);
    return { kind: 'redirect', dir: ours, target, targetDir: target === null ? null : resolve(top ?? ctx.repo.paths.commonDir, target) };
  }
  if (hooksPath) {
    // husky 9 points git at .husky/_ and runs .husky/<hook>; husky 4-8 at .husky itself.
    if (basename(dir) === '_' && basename(dirname(dir)) === '.husky') return { kind: 'husky', dir: dirname(dir) };
    if (basename(dir) === '.husky' && existsSync(join(dir, '_', 'husky.sh'))) return { kind: 'husky', dir };
  }
  if (top) {
    // lefthook installs into core.hooksPath when set: its config is the way in either way.
    const file = LEFTHOOK_FILES.map((f) => join(top, f)).find((f) => existsSync(f));
    if (file) {
      const local = LEFTHOOK_LOCAL_FILES.map((f) => join(top, f)).find((f) => existsSync(f)) ?? join(top, LEFTHOOK_LOCAL_FILES[0]);
      return { kind: 'lefthook', file, local, hooksDir: dir };
    }
  }
  if (hooksPath && !inside(dir, ctx.repo.paths.commonDir)) {
    // A relative value stays relative: each worktree runs the folder it checked out.
    const target = isAbsolute(hooksPath) || hooksPath.startsWith('~') ? dir : hooksPath;
    return { kind: 'redirect', dir: ours, target, targetDir: dir };
  }
  return { kind: 'plain', dir };
}
