/**
 * Installer: git hooks (DESIGN.md "Git hooks"). Three layouts:
 * - plain: our shim (githooks/<hook>) in the effective hooks folder; a hook already there
 *   is kept beside it as `<hook>.pre-handoff`, which the shim runs first (its exit status
 *   still counts);
 * - husky (core.hooksPath = .husky/_ or .husky): a marked block in `.husky/<hook>`, never in
 *   `.husky/_`, which husky regenerates;
 * - lefthook (lefthook.yml / .yaml at the top): our commands in its config.
 * Other installers add a hook of their own with `planHook(ctx, name)` (e.g. sync: pre-push).
 */
import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import {
  SHIM_MARKER,
  hasBlock,
  huskyBlock,
  withBlock,
  withoutBlock,
  withLefthookCommand,
  withoutLefthookCommands,
} from '../../core/hook-blocks.js';
import type { Installer, PlanContext, RecordedFile, Step } from './types.js';

/** The git hooks this installer owns. */
export const GIT_HOOKS = ['post-commit', 'prepare-commit-msg', 'post-rewrite'] as const;
export const CHAINED_SUFFIX = '.pre-handoff';
export const LEFTHOOK_FILES = ['lefthook.yml', 'lefthook.yaml', '.lefthook.yml', '.lefthook.yaml'];

export type HookLayout =
  | { kind: 'plain'; dir: string }
  | { kind: 'husky'; dir: string }
  | { kind: 'lefthook'; file: string };

type Recipe = { layout: 'plain'; hook: string; chained: boolean } | { layout: 'chained'; hook: string } | { layout: 'husky' } | { layout: 'lefthook' };

/** Where hooks go in this repository. */
export async function hookLayout(ctx: PlanContext): Promise<HookLayout> {
  const dir = await ctx.hooksDir();
  const hooksPath = (await ctx.configAll('core.hooksPath')).at(-1);
  if (hooksPath) {
    // husky 9 points git at .husky/_ and runs .husky/<hook>; husky 4-8 at .husky itself.
    if (basename(dir) === '_' && basename(dirname(dir)) === '.husky') return { kind: 'husky', dir: dirname(dir) };
    if (basename(dir) === '.husky' && existsSync(join(dir, '_', 'husky.sh'))) return { kind: 'husky', dir };
  }
  const top = ctx.repo.workTree;
  if (top && !hooksPath) {
    const file = LEFTHOOK_FILES.map((f) => join(top, f)).find((f) => existsSync(f));
    if (file) return { kind: 'lefthook', file };
  }
  return { kind: 'plain', dir };
}

export function shimSource(ctx: PlanContext, hook: string): Buffer {
  return readFileSync(join(ctx.packageRoot, 'githooks', hook));
}

export function isOurShim(data: Buffer | null): boolean {
  return data !== null && data.subarray(0, 400).toString('utf8').includes(SHIM_MARKER);
}

function isOurShimExact(ctx: PlanContext, path: string, hook: string): boolean {
  const data = ctx.read(path);
  return data !== null && data.equals(shimSource(ctx, hook));
}

/** The steps that put `hook` in place for this layout; empty when it already is. */
export async function planHook(ctx: PlanContext, hook: string, layout?: HookLayout): Promise<Step[]> {
  const where = layout ?? (await hookLayout(ctx));
  if (where.kind === 'husky') {
    const path = join(where.dir, hook);
    const current = ctx.read(path);
    const text = current?.toString('utf8') ?? '';
    const next = withBlock(text, huskyBlock(hook));
    if (current && next === text) return [];
    const summary = current ? `add the git-handoff block to ${rel(ctx, path)}` : `create ${rel(ctx, path)} with the git-handoff block`;
    return [{ kind: 'file', path, content: Buffer.from(next), mode: ctx.mode(path) ?? 0o755, summary, recipe: { layout: 'husky' } satisfies Recipe }];
  }
  if (where.kind === 'lefthook') {
    const current = ctx.read(where.file);
    const text = current?.toString('utf8') ?? '';
    const next = withLefthookCommand(text, hook);
    if (next === text) return [];
    return [{ kind: 'file', path: where.file, content: Buffer.from(next), summary: `add git-handoff to ${hook} in ${rel(ctx, where.file)} (run 'lefthook install' if its hooks are not installed)`, recipe: { layout: 'lefthook' } satisfies Recipe }];
  }
  const path = join(where.dir, hook);
  const shim = shimSource(ctx, hook);
  const current = ctx.read(path);
  if (current && current.equals(shim) && ctx.mode(path)! & 0o100) return [];
  const chainedPath = path + CHAINED_SUFFIX;
  if (isOurShim(current)) {
    // An older shim of ours: bring it up to date, keeping whatever it chains.
    return [{ kind: 'file', path, content: shim, mode: 0o755, summary: `update the git-handoff ${hook} hook`, recipe: { layout: 'plain', hook, chained: ctx.read(chainedPath) !== null } satisfies Recipe }];
  }
  if (!current) {
    return [{ kind: 'file', path, content: shim, mode: 0o755, summary: `create ${rel(ctx, path)}`, recipe: { layout: 'plain', hook, chained: false } satisfies Recipe }];
  }
  if (ctx.read(chainedPath) !== null) {
    return [{ kind: 'notice', summary: `skipped the ${hook} hook: both ${rel(ctx, path)} and ${rel(ctx, chainedPath)} exist and neither is ours; move one away and run init again` }];
  }
  return [
    { kind: 'file', path: chainedPath, content: current, mode: ctx.mode(path) ?? 0o755, summary: `keep the existing ${hook} hook as ${rel(ctx, chainedPath)}; it still runs first and its exit status counts`, recipe: { layout: 'chained', hook } satisfies Recipe },
    { kind: 'file', path, content: shim, mode: 0o755, summary: `install the git-handoff ${hook} hook in ${rel(ctx, path)}`, recipe: { layout: 'plain', hook, chained: true } satisfies Recipe },
  ];
}

function rel(ctx: PlanContext, path: string): string {
  const top = ctx.repo.workTree;
  return top && path.startsWith(`${top}/`) ? path.slice(top.length + 1) : path;
}

/** Names other hook managers move a hook they replace to (pre-commit, lefthook). */
export const MOVED_SUFFIXES = ['.legacy', '.old'];

/**
 * Takes our shim at `path` back out, wherever a hook manager moved it: the hook that was
 * there before (kept as `<hook>.pre-handoff`, as it is now, edits included) goes back in our
 * shim's place; a hook that is no longer ours is left as it is, and said so.
 */
export function planShimRemoval(ctx: PlanContext, path: string, opts: { changed?: boolean } = {}): Step[] {
  const steps: Step[] = [];
  const chainedPath = path + CHAINED_SUFFIX;
  let chained = ctx.read(chainedPath);
  const since = opts.changed ? ' (it changed after init)' : '';
  const putBack = (slot: string) => {
    if (chained) {
      steps.push({ kind: 'file', path: slot, content: chained, mode: ctx.mode(chainedPath) ?? 0o755, summary: `put ${rel(ctx, chainedPath)} back as ${rel(ctx, slot)}` });
      steps.push({ kind: 'file', path: chainedPath, content: null, summary: `remove ${rel(ctx, chainedPath)}` });
      chained = null;
    } else {
      steps.push({ kind: 'file', path: slot, content: null, summary: `remove ${rel(ctx, slot)}${slot === path ? since : ''}` });
    }
  };
  const current = ctx.read(path);
  if (isOurShim(current)) putBack(path);
  else if (current) steps.push({ kind: 'notice', summary: `left ${rel(ctx, path)} as it is: it is no longer git-handoff's shim (someone or another tool replaced it)` });
  for (const suffix of MOVED_SUFFIXES) {
    const moved = path + suffix;
    if (isOurShim(ctx.read(moved))) putBack(moved);
  }
  if (chained) steps.push({ kind: 'notice', summary: `left ${rel(ctx, chainedPath)}: it is the hook that was there before init, and ${rel(ctx, path)} is no longer ours to put it back into` });
  return steps;
}

export const gitHooksInstaller: Installer = {
  id: 'git-hooks',

  undoSteps(file, abs, ctx) {
    const recipe = file.recipe as Recipe | undefined;
    if (recipe?.layout === 'chained') return []; // taken back with the shim it belongs to
    if (recipe?.layout !== 'plain') return undefined;
    return planShimRemoval(ctx, abs, { changed: file.after !== null && ctx.read(abs) !== null && !isOurShimExact(ctx, abs, recipe.hook) });
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
    if (layout.kind === 'plain' && !layout.dir.startsWith(ctx.repo.paths.commonDir) && !(ctx.repo.workTree && layout.dir.startsWith(ctx.repo.workTree)) && steps.length) {
      steps.push({ kind: 'notice', summary: `the hooks folder ${layout.dir} (core.hooksPath) is outside this repository: the hooks run in every repository that uses it` });
    }
    return steps;
  },

  undo(file: RecordedFile, current: Buffer | null) {
    const recipe = file.recipe as Recipe | undefined;
    if (!recipe || current === null) return 'keep';
    const text = current.toString('utf8');
    if (recipe.layout === 'husky') {
      if (!hasBlock(text)) return 'keep';
      const rest = withoutBlock(text);
      return file.before === null && rest.trim() === '' ? null : Buffer.from(rest);
    }
    if (recipe.layout === 'lefthook') {
      const rest = withoutLefthookCommands(text);
      if (rest === text) return 'keep';
      return file.before === null && rest.trim() === '' ? null : Buffer.from(rest);
    }
    if (recipe.layout === 'plain') {
      if (!isOurShim(current)) return 'keep';
      // The chained original is restored by its own record entry (listed before this one).
      if (file.before && 'data' in file.before) return Buffer.from(file.before.data, 'base64');
      return null;
    }
    // layout 'chained': the original kept aside, edited since init; the shim's entry put the
    // original back, so keep this copy rather than lose the edits.
    return 'keep';
  },

  async orphans(ctx) {
    const layout = await hookLayout(ctx);
    const steps: Step[] = [];
    for (const hook of GIT_HOOKS) {
      if (layout.kind === 'husky') {
        const path = join(layout.dir, hook);
        const text = ctx.read(path)?.toString('utf8');
        if (text && hasBlock(text)) steps.push({ kind: 'file', path, content: Buffer.from(withoutBlock(text)), summary: `take the git-handoff block out of ${rel(ctx, path)}` });
      } else if (layout.kind === 'plain') {
        const path = join(layout.dir, hook);
        if (!isOurShim(ctx.read(path))) continue;
        const chained = ctx.read(path + CHAINED_SUFFIX);
        if (chained) {
          steps.push({ kind: 'file', path, content: chained, mode: ctx.mode(path + CHAINED_SUFFIX) ?? 0o755, summary: `put ${rel(ctx, path + CHAINED_SUFFIX)} back as ${rel(ctx, path)}` });
          steps.push({ kind: 'file', path: path + CHAINED_SUFFIX, content: null, summary: `remove ${rel(ctx, path + CHAINED_SUFFIX)}` });
        } else {
          steps.push({ kind: 'file', path, content: null, summary: `remove ${rel(ctx, path)}` });
        }
      }
    }
    if (layout.kind === 'lefthook') {
      const text = ctx.read(layout.file)?.toString('utf8');
      const rest = text === undefined ? text : withoutLefthookCommands(text);
      if (text !== undefined && rest !== text) steps.push({ kind: 'file', path: layout.file, content: Buffer.from(rest!), summary: `take git-handoff out of ${rel(ctx, layout.file)}` });
    }
    return steps;
  },
};
