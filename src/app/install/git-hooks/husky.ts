/**
 * husky (core.hooksPath = .husky/_ or .husky): a marked block in `.husky/<hook>`, never in
 * `.husky/_`, which husky regenerates.
 */
import { join } from 'node:path';
import { hasBlock, huskyBlock, withBlock, withoutBlock } from '../../../core/hook-blocks.js';
import type { PlanContext, RecordedFile, Step } from '../types.js';
import { type Recipe, rel } from './shared.js';

/** Our block in `.husky/<hook>`; empty when it is there already. */
export function planHuskyHook(ctx: PlanContext, hook: string, dir: string): Step[] {
  const path = join(dir, hook);
  const current = ctx.read(path);
  const text = current?.toString('utf8') ?? '';
  const next = withBlock(text, huskyBlock(hook));
  if (current && next === text) return [];
  const summary = current ? `add the git-handoff block to ${rel(ctx, path)}` : `create ${rel(ctx, path)} with the git-handoff block`;
  return [{ kind: 'file', path, content: Buffer.from(next), mode: ctx.mode(path) ?? 0o755, summary, recipe: { layout: 'husky' } satisfies Recipe }];
}

/** Uninstall of a recorded husky hook: the block out (the file too when init created it for the block alone). */
export function undoHusky(file: RecordedFile, text: string): Buffer | null | 'keep' {
  if (!hasBlock(text)) return 'keep';
  const rest = withoutBlock(text);
  return file.before === null && rest.trim() === '' ? null : Buffer.from(rest);
}

/** Uninstall without a record: our block out of `.husky/<hook>`. */
export function huskyOrphan(ctx: PlanContext, hook: string, dir: string): Step[] {
  const path = join(dir, hook);
  const text = ctx.read(path)?.toString('utf8');
  return text && hasBlock(text)
    ? [{ kind: 'file', path, content: Buffer.from(withoutBlock(text)), summary: `take the git-handoff block out of ${rel(ctx, path)}` }]
    : [];
}
