/**
 * What every hook layout shares (git-hooks/index.ts says which layouts there are): the hooks
 * we own, the names a kept hook goes under, the recipes recorded for uninstall, our shim.
 */
import { readFileSync } from 'node:fs';
import { isAbsolute, join, relative } from 'node:path';
import { SHIM_MARKER } from '../../../core/hook-blocks.js';
import type { PlanContext } from '../types.js';

/** The git hooks this installer owns. */
export const GIT_HOOKS = ['post-commit', 'prepare-commit-msg', 'post-rewrite', 'post-merge', 'post-checkout'] as const;
export const CHAINED_SUFFIX = '.pre-handoff';
/** Names other hook managers move a hook they replace to (pre-commit, lefthook). */
export const MOVED_SUFFIXES = ['.legacy', '.old'];

export type HookLayout =
  | { kind: 'plain'; dir: string }
  | { kind: 'husky'; dir: string }
  | { kind: 'lefthook'; file: string; local: string; hooksDir: string }
  | { kind: 'simple-git-hooks'; file: string; key: string | null; hooksDir: string }
  | { kind: 'redirect'; dir: string; target: string | null; targetDir: string | null };

/** What a file step did, recorded so uninstall can take exactly that back out. */
export type Recipe =
  | { layout: 'plain'; hook: string; chained: boolean }
  | { layout: 'chained'; hook: string }
  | { layout: 'husky' }
  | { layout: 'lefthook' }
  | { layout: 'forward'; hook: string }
  | { layout: 'exclude'; line: string }
  | { layout: 'simple-git-hooks'; key: string | null; createdKey: boolean; createdHooks: string[] };

export function inside(path: string, root: string): boolean {
  const r = relative(root, path);
  return r === '' || (!r.startsWith('..') && !isAbsolute(r));
}

/** A path as the user knows it: relative to the work tree when inside it. */
export function rel(ctx: PlanContext, path: string): string {
  const top = ctx.repo.workTree;
  return top && path.startsWith(`${top}/`) ? path.slice(top.length + 1) : path;
}

export function shimSource(ctx: PlanContext, hook: string): Buffer {
  return readFileSync(join(ctx.packageRoot, 'githooks', hook));
}

export function isOurShim(data: Buffer | null): boolean {
  return data !== null && data.subarray(0, 400).toString('utf8').includes(SHIM_MARKER);
}
