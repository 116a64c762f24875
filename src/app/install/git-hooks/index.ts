/**
 * Installer: git hooks (docs: "Hooks"). One file per layout, each a hook manager or none:
 * - plain.ts: our shim in the effective hooks folder, a hook already there kept beside it
 *   as `<hook>.pre-handoff` and run first (pre-commit.ts: under pre-commit, `<hook>.legacy`);
 * - husky.ts: a marked block in `.husky/<hook>`;
 * - lefthook.ts: our commands in lefthook's per-developer config;
 * - simple-git-hooks.ts: our block in its config's command;
 * - forwarders.ts: core.hooksPath names a folder outside the git dir, left untouched; ours
 *   forwards each hook to it.
 * layout.ts says which applies. Other installers add a hook of their own with
 * `planHook(ctx, name)` (e.g. sync: pre-push).
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Installer, PlanContext, RecordedFile, Step } from '../types.js';
import { planRedirect, planRedirectedHook, redirectOrphans } from './forwarders.js';
import { huskyOrphan, planHuskyHook, undoHusky } from './husky.js';
import { hookLayout } from './layout.js';
import { lefthookOrphans, planLefthookExtras, planLefthookHook, planLefthookUndo, undoExclude, undoLefthook } from './lefthook.js';
import { planPlainHook, planShimRemoval, undoShim } from './plain.js';
import { GIT_HOOKS, MOVED_SUFFIXES, inside, type HookLayout, type Recipe, rel } from './shared.js';
import { sha1 } from '../../../state/install-files.js';
import { planSimpleGitHooks, planSimpleUndo } from './simple-git-hooks.js';

export { CHAINED_SUFFIX } from './shared.js';
export { hookLayout } from './layout.js';

/** The steps that put `hook` in place for this layout; empty when it already is. */
export async function planHook(ctx: PlanContext, hook: string, layout?: HookLayout): Promise<Step[]> {
  const where = layout ?? (await hookLayout(ctx));
  if (where.kind === 'husky') return planHuskyHook(ctx, hook, where.dir);
  if (where.kind === 'lefthook') return planLefthookHook(ctx, hook, where);
  if (where.kind === 'redirect') return planRedirectedHook(ctx, hook, where);
  if (where.kind === 'simple-git-hooks') return planSimpleGitHooks(ctx, hook, where);
  return planPlainHook(ctx, hook, where.dir);
}

/**
 * The forwarders alone, in step with the folder core.hooksPath named (a pull may have brought
 * or taken one of its hooks); nothing when this repository does not forward.
 */
export async function planForwarders(ctx: PlanContext): Promise<Step[]> {
  const layout = await hookLayout(ctx);
  if (layout.kind !== 'redirect' || resolve(await ctx.hooksDir()) !== layout.dir) return [];
  return planRedirect(ctx, layout, GIT_HOOKS);
}

/**
 * Where the shims find git-handoff when it is not on PATH (an IDE, a cron job): the absolute
 * path of this installation, recorded in the git dir (`<git-common-dir>/handoff/launcher`),
 * where no checkout, pull or tracked file writes. An installation inside the work tree (a
 * project's own `node_modules`) is not recorded: a checkout could change it, and the shims
 * run that one only when git tracks nothing under `node_modules`.
 */
function planLauncher(ctx: PlanContext): Step[] {
  const bin = join(ctx.packageRoot, 'dist', 'cli.cjs');
  const top = ctx.repo.workTree;
  if (!existsSync(bin) || (top && inside(resolve(bin), resolve(top)))) return [];
  const path = join(ctx.repo.paths.commonDir, 'handoff', 'launcher');
  const content = Buffer.from(`${bin}\n`, 'utf8');
  if (ctx.read(path)?.equals(content)) return [];
  return [{ kind: 'file', path, content, mode: 0o644, summary: `record ${bin} in ${rel(ctx, path)}: the hooks run it when git-handoff is not on PATH` }];
}

export const gitHooksInstaller: Installer = {
  id: 'git-hooks',

  undoSteps(file, abs, ctx) {
    const recipe = file.recipe as Recipe | undefined;
    if (recipe?.layout === 'chained') return []; // taken back with the shim it belongs to
    if (recipe?.layout === 'lefthook') return planLefthookUndo(ctx, file, abs);
    if (recipe?.layout === 'simple-git-hooks') return planSimpleUndo(ctx, file, abs);
    if (recipe?.layout !== 'plain') return undefined;
    const hookPath = MOVED_SUFFIXES.reduce((p, sfx) => (p.endsWith(sfx) ? p.slice(0, -sfx.length) : p), abs);
    const current = ctx.read(abs);
    return planShimRemoval(ctx, hookPath, { changed: current !== null && sha1(current) !== file.after });
  },

  async plan(ctx) {
    const layout = await hookLayout(ctx);
    const steps: Step[] = [];
    // Each hook's plan sees the ones before it (with lefthook they all edit one file).
    const planned = new Map<string, Buffer | null>();
    const view: PlanContext = { ...ctx, read: (p) => (planned.has(p) ? planned.get(p)! : ctx.read(p)) };
    for (const hook of GIT_HOOKS) {
      for (const s of await planHook(view, hook, layout)) {
        if (s.kind === 'file') planned.set(s.path, s.content);
        steps.push(s);
      }
    }
    if (layout.kind === 'lefthook') steps.push(...planLefthookExtras(view, layout));
    if (layout.kind === 'redirect') {
      steps.push(...planRedirect(view, layout, GIT_HOOKS));
      if (resolve(await ctx.hooksDir()) !== layout.dir) {
        const why = layout.target === null ? '' : `; its scripts run the hooks in ${layout.target} first, and ${layout.target} itself is left untouched`;
        steps.push({
          kind: 'config',
          key: 'core.hooksPath',
          value: layout.dir,
          action: 'set',
          summary: `point core.hooksPath at ${rel(ctx, layout.dir)} for this repository only${why}`,
        });
      }
    }
    steps.push(...planLauncher(ctx));
    return steps;
  },

  undo(file: RecordedFile, current: Buffer | null) {
    const recipe = file.recipe as Recipe | undefined;
    if (!recipe || current === null) return 'keep';
    const text = current.toString('utf8');
    if (recipe.layout === 'husky') return undoHusky(file, text);
    if (recipe.layout === 'lefthook') return undoLefthook(file, text);
    if (recipe.layout === 'exclude') return undoExclude(recipe, text);
    if (recipe.layout === 'plain') return undoShim(file, current);
    // layout 'chained': the original kept aside, edited since init; the shim's entry put the
    // original back, so keep this copy rather than lose the edits.
    return 'keep';
  },

  async orphans(ctx) {
    const layout = await hookLayout(ctx);
    const steps: Step[] = [];
    for (const hook of GIT_HOOKS) {
      if (layout.kind === 'husky') steps.push(...huskyOrphan(ctx, hook, layout.dir));
      else if (layout.kind === 'plain') steps.push(...planShimRemoval(ctx, join(layout.dir, hook)).filter((s) => s.kind === 'file'));
    }
    if (layout.kind === 'redirect') steps.push(...redirectOrphans(ctx, layout));
    if (layout.kind === 'lefthook') steps.push(...lefthookOrphans(ctx, layout));
    return steps;
  },
};
