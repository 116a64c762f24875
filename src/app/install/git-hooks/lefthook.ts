/**
 * lefthook (lefthook.yml / .yaml ... at the top): our commands go in the per-developer file
 * lefthook merges over the shared config, which stays as it is; `lefthook install` writes
 * the hook scripts that run them.
 */
import { join } from 'node:path';
import { hasBlock, withLefthookCommand, withoutLefthookCommands } from '../../../core/hook-blocks.js';
import type { PlanContext, RecordedFile, Step } from '../types.js';
import { planShimRemoval } from './plain.js';
import { GIT_HOOKS, type HookLayout, type Recipe, isOurShim, rel } from './shared.js';

type Lefthook = Extract<HookLayout, { kind: 'lefthook' }>;

/** Every name lefthook reads its shared config from (checked with lefthook 2.2: `lefthook dump`). */
export const LEFTHOOK_FILES = ['', '.config/'].flatMap((dir) =>
  ['lefthook', '.lefthook'].flatMap((base) => ['yml', 'yaml', 'json', 'jsonc', 'toml'].map((ext) => `${dir}${base}.${ext}`)),
);
/**
 * The per-developer file lefthook merges over the shared one, whichever shared name is used.
 * Ours go there, so a teammate without git-handoff sees nothing of it.
 */
export const LEFTHOOK_LOCAL_FILES = [
  'lefthook-local.yml',
  'lefthook-local.yaml',
  '.lefthook-local.yml',
  '.lefthook-local.yaml',
  '.config/lefthook-local.yml',
  '.config/lefthook-local.yaml',
];

/** A hook script `lefthook install` wrote. */
export function isLefthookStub(data: Buffer | null): boolean {
  return data !== null && /call_lefthook|lefthook run/.test(data.toString('utf8'));
}

/** Does any lefthook config (text) still configure `hook`? */
export function lefthookConfigures(texts: string[], hook: string): boolean {
  const re = new RegExp(`(^|[\\s{,\\[])["']?${hook.replace(/-/g, '\\-')}["']?\\s*[:\\].=]`, 'm');
  return texts.some((t) => re.test(t));
}

/** Our command for `hook` in the per-developer file, and a notice while lefthook's hook is missing. */
export function planLefthookHook(ctx: PlanContext, hook: string, where: Lefthook): Step[] {
  const current = ctx.read(where.local);
  const text = current?.toString('utf8') ?? '';
  const next = withLefthookCommand(text, hook);
  const steps: Step[] = [];
  if (next !== text) {
    steps.push({
      kind: 'file',
      path: where.local,
      content: Buffer.from(next),
      summary: `add git-handoff to ${hook} in ${rel(ctx, where.local)} (yours only: lefthook merges it over ${rel(ctx, where.file)}, which stays as it is)`,
      recipe: { layout: 'lefthook' } satisfies Recipe,
    });
  }
  if (!isLefthookStub(ctx.read(join(where.hooksDir, hook)))) {
    steps.push({
      kind: 'notice',
      unreached: true,
      summary: `lefthook has not installed its ${hook} hook yet, so git-handoff's ${hook} command does not run: run 'lefthook install'`,
    });
  }
  return steps;
}

/**
 * lefthook: commands an earlier version put in the shared config move out of it, and the
 * per-developer file stays out of git (unless an ignore file already says so).
 */
export function planLefthookExtras(ctx: PlanContext, where: Lefthook): Step[] {
  const steps: Step[] = [];
  const shared = ctx.read(where.file)?.toString('utf8');
  if (shared !== undefined && hasBlock(shared)) {
    steps.push({
      kind: 'file',
      path: where.file,
      content: Buffer.from(withoutLefthookCommands(shared)),
      summary: `take git-handoff's commands out of the shared ${rel(ctx, where.file)} (they are in ${rel(ctx, where.local)} now)`,
      recipe: { layout: 'lefthook' } satisfies Recipe,
    });
  }
  for (const hook of [...GIT_HOOKS, 'pre-push']) {
    // `lefthook install` renames a hook that is not its own to <hook>.old, where nothing runs it.
    const old = join(where.hooksDir, `${hook}.old`);
    if (isOurShim(ctx.read(old)))
      steps.push({
        kind: 'file',
        path: old,
        content: null,
        summary: `remove ${rel(ctx, old)}: our shim, which 'lefthook install' renamed and nothing runs any more (git-handoff runs through ${rel(ctx, where.local)} now)`,
      });
    // A shim from before lefthook came: 'lefthook install' would rename it too.
    const plain = join(where.hooksDir, hook);
    if (isOurShim(ctx.read(plain))) {
      for (const s of planShimRemoval(ctx, plain))
        if (s.kind === 'file') steps.push({ ...s, summary: `${s.summary} (git-handoff runs through ${rel(ctx, where.local)} now)` });
    }
  }
  const top = ctx.repo.workTree!;
  const localRel = rel(ctx, where.local);
  if (ctx.read(where.local) === null) return steps;
  const ignored = ['.gitignore', '.config/.gitignore'].some((f) =>
    (ctx.read(join(top, f))?.toString('utf8') ?? '').split('\n').some((l) => /lefthook-local/.test(l) && !l.trim().startsWith('#')),
  );
  const exclude = join(ctx.repo.paths.commonDir, 'info', 'exclude');
  const current = ctx.read(exclude)?.toString('utf8') ?? '';
  const line = `/${localRel}`;
  if (ignored || current.split('\n').some((l) => l.trim() === line || l.trim() === localRel)) return steps;
  const next = `${current}${current === '' || current.endsWith('\n') ? '' : '\n'}${line}\n`;
  steps.push({
    kind: 'file',
    path: exclude,
    content: Buffer.from(next),
    summary: `keep ${localRel} out of git (.git/info/exclude)`,
    recipe: { layout: 'exclude', line } satisfies Recipe,
  });
  return steps;
}

/**
 * A lefthook config we edited: our commands out (the whole file when init created it and
 * nothing else is in it), then lefthook's own stubs for hooks no config names any more
 * (lefthook install never removes one), putting back the `<hook>.old` lefthook kept.
 */
export async function planLefthookUndo(ctx: PlanContext, file: RecordedFile, abs: string): Promise<Step[]> {
  const current = ctx.read(abs);
  const steps: Step[] = [];
  let after: string | null = current === null ? null : current.toString('utf8');
  if (current !== null) {
    const rest = withoutLefthookCommands(current.toString('utf8'));
    if (rest !== current.toString('utf8')) {
      const remove = file.before === null && rest.trim() === '';
      after = remove ? null : rest;
      steps.push({
        kind: 'file',
        path: abs,
        content: remove ? null : Buffer.from(rest),
        summary: remove ? `remove ${rel(ctx, abs)}` : `take git-handoff's commands out of ${rel(ctx, abs)}`,
      });
    }
  }
  const top = ctx.repo.workTree;
  if (!top) return steps;
  const texts = [...LEFTHOOK_FILES, ...LEFTHOOK_LOCAL_FILES]
    .map((f) => join(top, f))
    .map((p) => (p === abs ? after : (ctx.read(p)?.toString('utf8') ?? null)))
    .filter((t): t is string => t !== null);
  const dir = await ctx.hooksDir();
  for (const hook of [...GIT_HOOKS, 'pre-push']) {
    const stub = join(dir, hook);
    if (!isLefthookStub(ctx.read(stub)) || lefthookConfigures(texts, hook)) continue;
    const old = ctx.read(`${stub}.old`);
    if (old !== null) {
      steps.push({
        kind: 'file',
        path: stub,
        content: old,
        mode: ctx.mode(`${stub}.old`) ?? 0o755,
        summary: `put ${rel(ctx, `${stub}.old`)} back as ${rel(ctx, stub)} (lefthook had kept it aside)`,
      });
      steps.push({ kind: 'file', path: `${stub}.old`, content: null, summary: `remove ${rel(ctx, `${stub}.old`)}` });
    } else {
      steps.push({
        kind: 'file',
        path: stub,
        content: null,
        summary: `remove lefthook's ${hook} stub ${rel(ctx, stub)} (no lefthook config names ${hook} any more)`,
      });
    }
  }
  return steps;
}

/** Uninstall of a recorded lefthook config (recipe 'lefthook'): our commands out. */
export function undoLefthook(file: RecordedFile, text: string): Buffer | null | 'keep' {
  const rest = withoutLefthookCommands(text);
  if (rest === text) return 'keep';
  return file.before === null && rest.trim() === '' ? null : Buffer.from(rest);
}

/** Uninstall of the `.git/info/exclude` line (recipe 'exclude'). */
export function undoExclude(recipe: Extract<Recipe, { layout: 'exclude' }>, text: string): Buffer | 'keep' {
  const lines = text.split('\n');
  const i = lines.indexOf(recipe.line);
  if (i < 0) return 'keep';
  lines.splice(i, 1);
  return Buffer.from(lines.join('\n'));
}

/** Uninstall without a record: our commands out of the shared config. */
export function lefthookOrphans(ctx: PlanContext, where: Lefthook): Step[] {
  const text = ctx.read(where.file)?.toString('utf8');
  const rest = text === undefined ? text : withoutLefthookCommands(text);
  if (text !== undefined && rest !== text)
    return [{ kind: 'file', path: where.file, content: Buffer.from(rest!), summary: `take git-handoff out of ${rel(ctx, where.file)}` }];
  return [];
}
