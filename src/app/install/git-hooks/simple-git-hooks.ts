/**
 * simple-git-hooks: it writes every hook from its config on each `npx simple-git-hooks` /
 * `prepare` (deleting the rest), so our block goes in the config's command for the hook.
 * Only a JSON config (a file, or package.json's key) is edited; a JS one gets a notice.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { hasBlock, huskyBlock, withBlock, withoutBlock } from '../../../core/hook-blocks.js';
import type { PlanContext, RecordedFile, Step } from '../types.js';
import { GIT_HOOKS, type HookLayout, type Recipe, rel } from './shared.js';

/** The config files simple-git-hooks 2.14 reads, in its order; package.json's key comes last. */
export const SIMPLE_GIT_HOOKS_FILES = [
  '.simple-git-hooks.cjs',
  '.simple-git-hooks.js',
  '.simple-git-hooks.mjs',
  'simple-git-hooks.cjs',
  'simple-git-hooks.js',
  'simple-git-hooks.mjs',
  '.simple-git-hooks.json',
  'simple-git-hooks.json',
];
const SIMPLE_KEY = 'simple-git-hooks';

/** The config simple-git-hooks uses here: a file, or package.json's key (`key` set). */
export function simpleGitHooksConfig(ctx: PlanContext, top: string): { file: string; key: string | null } | null {
  for (const f of SIMPLE_GIT_HOOKS_FILES) if (ctx.read(join(top, f)) !== null) return { file: join(top, f), key: null };
  const pkg = join(top, 'package.json');
  const text = ctx.read(pkg)?.toString('utf8');
  if (text === undefined) return null;
  try {
    const json = JSON.parse(text);
    return json && typeof json === 'object' && SIMPLE_KEY in json ? { file: pkg, key: SIMPLE_KEY } : null;
  } catch {
    return null;
  }
}

/** The indent a JSON text uses (npm's two spaces when it cannot tell). */
function jsonIndent(text: string): string | number {
  const m = /^[{[]\r?\n([ \t]+)\S/.exec(text);
  return m ? m[1] : 2;
}

type JsonObj = Record<string, unknown>;

/** The simple-git-hooks config as an object, or a reason it cannot be edited. */
function readSimpleConfig(text: string, key: string | null): { root: JsonObj; config: JsonObj } | string {
  let root: unknown;
  try {
    root = JSON.parse(text);
  } catch {
    return 'it is not JSON git-handoff can read';
  }
  if (!root || typeof root !== 'object' || Array.isArray(root)) return 'it is not a JSON object';
  const config = key === null ? root : (root as JsonObj)[key];
  if (!config || typeof config !== 'object' || Array.isArray(config)) return `its "${key}" entry is not an object`;
  return { root: root as JsonObj, config: config as JsonObj };
}

function writeJson(root: JsonObj, like: string): Buffer {
  return Buffer.from(`${JSON.stringify(root, null, jsonIndent(like))}${like.endsWith('\n') ? '\n' : ''}`);
}

/**
 * simple-git-hooks: our block joins the hook's command in its config (it writes every hook
 * from there on each `npx simple-git-hooks` / `prepare`, deleting the rest), first, so an
 * `exit` in the command cannot skip it.
 */
export function planSimpleGitHooks(ctx: PlanContext, hook: string, where: Extract<HookLayout, { kind: 'simple-git-hooks' }>): Step[] {
  const shown = `${rel(ctx, where.file)}${where.key ? ` ("${where.key}")` : ''}`;
  if (!where.file.endsWith('.json')) {
    return [
      {
        kind: 'notice',
        unreached: true,
        summary: `the ${hook} hook of git-handoff is not set up: simple-git-hooks reads ${shown}, which git-handoff does not edit; add to its "${hook}" command the line: [ "\${HANDOFF_SKIP:-}" != 1 ] && command -v git-handoff >/dev/null 2>&1 && git-handoff hook ${hook} "$@" || :`,
      },
    ];
  }
  const text = ctx.read(where.file)!.toString('utf8');
  const parsed = readSimpleConfig(text, where.key);
  if (typeof parsed === 'string')
    return [{ kind: 'notice', unreached: true, summary: `the ${hook} hook of git-handoff is not set up: ${shown} cannot be edited (${parsed})` }];
  const steps: Step[] = [];
  const current = parsed.config[hook];
  const command = typeof current === 'string' ? current : '';
  const next = withBlock(command, huskyBlock(hook));
  if (typeof current !== 'string' || next !== current) {
    parsed.config[hook] = next;
    const previous = ctx.record?.files.find((f) => (f.recipe as Recipe | undefined)?.layout === 'simple-git-hooks');
    const before = (previous?.recipe as Extract<Recipe, { layout: 'simple-git-hooks' }> | undefined)?.createdHooks ?? [];
    // Hook keys init adds (absent on disk before this plan) go again on uninstall.
    let disk: JsonObj = {};
    try {
      const d = readSimpleConfig(readFileSync(where.file, 'utf8'), where.key);
      if (typeof d !== 'string') disk = d.config;
    } catch {}
    const added = Object.keys(parsed.config).filter((h) => !(h in disk) && typeof parsed.config[h] === 'string' && hasBlock(parsed.config[h] as string));
    const recipe: Recipe = { layout: 'simple-git-hooks', key: where.key, createdKey: false, createdHooks: [...new Set([...before, ...added])] };
    steps.push({
      kind: 'file',
      path: where.file,
      content: writeJson(parsed.root, text),
      summary: `add git-handoff to the "${hook}" command in ${shown}`,
      recipe,
    });
  }
  const written = ctx.read(join(where.hooksDir, hook))?.toString('utf8') ?? '';
  if (!hasBlock(written)) {
    steps.push({
      kind: 'notice',
      unreached: true,
      summary: `simple-git-hooks has not written git-handoff's part of its ${hook} hook yet, so it does not run: run 'npx simple-git-hooks' (it writes every hook in the repository's simple-git-hooks config, and git then runs them: review that config first)`,
    });
  }
  return steps;
}

/** Uninstall under simple-git-hooks: our block out of its config, and out of the hooks it wrote. */
export async function planSimpleUndo(ctx: PlanContext, file: RecordedFile, abs: string): Promise<Step[]> {
  const recipe = file.recipe as Extract<Recipe, { layout: 'simple-git-hooks' }>;
  const steps: Step[] = [];
  const text = ctx.read(abs)?.toString('utf8');
  if (text !== undefined) {
    const parsed = readSimpleConfig(text, recipe.key);
    if (typeof parsed !== 'string') {
      let changed = false;
      for (const [hook, value] of Object.entries(parsed.config)) {
        if (typeof value !== 'string' || !hasBlock(value)) continue;
        const rest = withoutBlock(value);
        changed = true;
        if (rest.trim() === '' && recipe.createdHooks.includes(hook)) delete parsed.config[hook];
        else parsed.config[hook] = rest;
      }
      if (changed) steps.push({ kind: 'file', path: abs, content: writeJson(parsed.root, text), summary: `take git-handoff out of ${rel(ctx, abs)}` });
    }
  }
  const dir = await ctx.hooksDir();
  for (const hook of [...GIT_HOOKS, 'pre-push']) {
    const path = join(dir, hook);
    const written = ctx.read(path)?.toString('utf8');
    if (written === undefined || !hasBlock(written)) continue;
    // What `npx simple-git-hooks` would now write: the hook without our block, or no hook.
    const rest = withoutBlock(written);
    const end = rest.indexOf('. "$SIMPLE_GIT_HOOKS_RC"\nfi\n');
    const empty = end >= 0 && rest.slice(end + '. "$SIMPLE_GIT_HOOKS_RC"\nfi\n'.length).trim() === '';
    steps.push(
      empty
        ? { kind: 'file', path, content: null, summary: `remove ${rel(ctx, path)} (simple-git-hooks wrote it for git-handoff alone)` }
        : { kind: 'file', path, content: Buffer.from(rest), summary: `take git-handoff's block out of ${rel(ctx, path)}` },
    );
  }
  return steps;
}
