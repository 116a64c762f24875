/**
 * Installer: git hooks (README.md "Hooks"). Three layouts:
 * - plain: our shim (githooks/<hook>) in the effective hooks folder; a hook already there
 *   is kept beside it as `<hook>.pre-handoff`, which the shim runs first (its exit status
 *   still counts);
 * - husky (core.hooksPath = .husky/_ or .husky): a marked block in `.husky/<hook>`, never in
 *   `.husky/_`, which husky regenerates;
 * - lefthook (lefthook.yml / .yaml at the top): our commands in its config;
 * - redirect (core.hooksPath names a folder outside the git dir: a tracked `.githooks`, a
 *   relative folder each linked worktree checks out on its own, a global folder other
 *   repositories share): that folder is never touched. This repository's local
 *   core.hooksPath points at `<common-dir>/handoff/hooks`, where a forwarder per hook runs
 *   the hook of the same name in the folder (relative folders from each worktree's top),
 *   and our shims chain the forwarder as `<hook>.pre-handoff`.
 * Other installers add a hook of their own with `planHook(ctx, name)` (e.g. sync: pre-push).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { SHIM_MARKER, hasBlock, huskyBlock, withBlock, withoutBlock, withLefthookCommand, withoutLefthookCommands } from '../../core/hook-blocks.js';
import type { Installer, PlanContext, RecordedFile, Step } from './types.js';

/** The git hooks this installer owns. */
export const GIT_HOOKS = ['post-commit', 'prepare-commit-msg', 'post-rewrite', 'post-merge', 'post-checkout'] as const;
export const CHAINED_SUFFIX = '.pre-handoff';
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

/**
 * The hooks a redirect forwards to the folder core.hooksPath named: every client-side hook
 * (a teammate may add one to a tracked folder later; a forwarder whose hook is absent exits
 * 0, as git does for a missing hook), and the rest only when the folder has them (their mere
 * presence changes what git does, or they run on every ref update).
 */
export const FORWARDED_HOOKS = [
  'applypatch-msg',
  'pre-applypatch',
  'post-applypatch',
  'pre-commit',
  'pre-merge-commit',
  'prepare-commit-msg',
  'commit-msg',
  'post-commit',
  'pre-rebase',
  'post-checkout',
  'post-merge',
  'pre-push',
  'post-rewrite',
  'pre-auto-gc',
  'sendemail-validate',
];
export const FORWARDED_IF_PRESENT = [
  'reference-transaction',
  'post-index-change',
  'push-to-checkout',
  'pre-receive',
  'update',
  'proc-receive',
  'post-receive',
  'post-update',
];
export const FORWARDER_MARKER = 'git-handoff hook forwarder';

export type HookLayout =
  | { kind: 'plain'; dir: string }
  | { kind: 'husky'; dir: string }
  | { kind: 'lefthook'; file: string; local: string; hooksDir: string }
  | { kind: 'simple-git-hooks'; file: string; key: string | null; hooksDir: string }
  | { kind: 'redirect'; dir: string; target: string | null; targetDir: string | null };

type Recipe =
  | { layout: 'plain'; hook: string; chained: boolean }
  | { layout: 'chained'; hook: string }
  | { layout: 'husky' }
  | { layout: 'lefthook' }
  | { layout: 'forward'; hook: string }
  | { layout: 'exclude'; line: string }
  | { layout: 'simple-git-hooks'; key: string | null; createdKey: boolean; createdHooks: string[] };

/** Our own hooks folder, for the redirect layout. */
export function redirectDir(ctx: PlanContext): string {
  return join(ctx.repo.paths.commonDir, 'handoff', 'hooks');
}

function inside(path: string, root: string): boolean {
  const r = relative(root, path);
  return r === '' || (!r.startsWith('..') && !isAbsolute(r));
}

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

function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/** The forwarder script: runs the hook of its own name in `target`. */
export function forwarderSource(target: string): Buffer {
  return Buffer.from(
    [
      '#!/bin/sh',
      `# ${FORWARDER_MARKER}. \`git handoff init\` pointed core.hooksPath here for this repository`,
      '# only and left the folder below untouched; this runs its hook of the same name, with the',
      "# same arguments and input, and its exit status is this hook's. `git handoff uninstall`",
      '# points core.hooksPath back there.',
      'hook=${0##*/}',
      `hook=${shellQuote(target)}/\${hook%${CHAINED_SUFFIX}}`,
      '[ -x "$hook" ] || exit 0',
      'exec "$hook" "$@"',
      '',
    ].join('\n'),
  );
}

export function isOurForwarder(data: Buffer | null): boolean {
  return data !== null && data.subarray(0, 200).toString('utf8').includes(FORWARDER_MARKER);
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
  if (where.kind === 'redirect') return planRedirectedHook(ctx, hook, where);
  if (where.kind === 'simple-git-hooks') return planSimpleGitHooks(ctx, hook, where);
  const hookPath = join(where.dir, hook);
  // pre-commit owns the hook: it runs `<hook>.legacy` (its migration mode), so ours goes there.
  const preCommit = isPreCommitScript(ctx.read(hookPath));
  const path = preCommit ? hookPath + PRE_COMMIT_LEGACY : hookPath;
  const why = preCommit ? ` (pre-commit's ${hook} hook runs it: its migration mode)` : '';
  const shim = shimSource(ctx, hook);
  const current = ctx.read(path);
  if (current && current.equals(shim) && ctx.mode(path)! & 0o100) return [];
  const chainedPath = hookPath + CHAINED_SUFFIX;
  if (isOurShim(current)) {
    // An older shim of ours: bring it up to date, keeping whatever it chains.
    return [
      {
        kind: 'file',
        path,
        content: shim,
        mode: 0o755,
        summary: `update the git-handoff ${hook} hook${why}`,
        recipe: { layout: 'plain', hook, chained: ctx.read(chainedPath) !== null } satisfies Recipe,
      },
    ];
  }
  if (!current) {
    return [
      {
        kind: 'file',
        path,
        content: shim,
        mode: 0o755,
        summary: `create ${rel(ctx, path)}${why}`,
        recipe: { layout: 'plain', hook, chained: false } satisfies Recipe,
      },
    ];
  }
  if (ctx.read(chainedPath) !== null) {
    return [
      {
        kind: 'notice',
        unreached: true,
        summary: `the ${hook} hook of git-handoff does not run: ${rel(ctx, path)} is not ours and ${rel(ctx, chainedPath)} is in the way of keeping it; move one of them away, then run 'git handoff doctor --fix'`,
      },
    ];
  }
  return [
    {
      kind: 'file',
      path: chainedPath,
      content: current,
      mode: ctx.mode(path) ?? 0o755,
      summary: `keep the existing ${hook} hook as ${rel(ctx, chainedPath)}; it still runs first and its exit status counts`,
      recipe: { layout: 'chained', hook } satisfies Recipe,
    },
    {
      kind: 'file',
      path,
      content: shim,
      mode: 0o755,
      summary: `install the git-handoff ${hook} hook in ${rel(ctx, path)}${why}`,
      recipe: { layout: 'plain', hook, chained: true } satisfies Recipe,
    },
  ];
}

export const PRE_COMMIT_LEGACY = '.legacy';

/** A hook script `lefthook install` wrote. */
export function isLefthookStub(data: Buffer | null): boolean {
  return data !== null && /call_lefthook|lefthook run/.test(data.toString('utf8'));
}

/** Does any lefthook config (text) still configure `hook`? */
export function lefthookConfigures(texts: string[], hook: string): boolean {
  const re = new RegExp(`(^|[\\s{,\\[])["']?${hook.replace(/-/g, '\\-')}["']?\\s*[:\\].=]`, 'm');
  return texts.some((t) => re.test(t));
}

/** A hook script `pre-commit install` wrote. */
export function isPreCommitScript(data: Buffer | null): boolean {
  return data !== null && data.subarray(0, 300).toString('utf8').includes('# File generated by pre-commit: https://pre-commit.com');
}

/**
 * lefthook: commands an earlier version put in the shared config move out of it, and the
 * per-developer file stays out of git (unless an ignore file already says so).
 */
function planLefthookExtras(ctx: PlanContext, where: Extract<HookLayout, { kind: 'lefthook' }>): Step[] {
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
function simpleGitHooksConfig(ctx: PlanContext, top: string): { file: string; key: string | null } | null {
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
function planSimpleGitHooks(ctx: PlanContext, hook: string, where: Extract<HookLayout, { kind: 'simple-git-hooks' }>): Step[] {
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
      summary: `simple-git-hooks has not written git-handoff's part of its ${hook} hook yet, so it does not run: run 'npx simple-git-hooks'`,
    });
  }
  return steps;
}

/** Uninstall under simple-git-hooks: our block out of its config, and out of the hooks it wrote. */
async function planSimpleUndo(ctx: PlanContext, file: RecordedFile, abs: string): Promise<Step[]> {
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

/** Our shim in our own folder, chaining the forwarder to the folder core.hooksPath named. */
function planRedirectedHook(ctx: PlanContext, hook: string, where: Extract<HookLayout, { kind: 'redirect' }>): Step[] {
  const path = join(where.dir, hook);
  const chainedPath = path + CHAINED_SUFFIX;
  const shim = shimSource(ctx, hook);
  const current = ctx.read(path);
  const steps: Step[] = [];
  if (where.target !== null) {
    const fwd = forwarderSource(where.target);
    const chained = ctx.read(chainedPath);
    if (!(chained?.equals(fwd) && ctx.mode(chainedPath)! & 0o100) && (chained === null || isOurForwarder(chained))) {
      steps.push({
        kind: 'file',
        path: chainedPath,
        content: fwd,
        mode: 0o755,
        summary: `create ${rel(ctx, chainedPath)}: runs ${where.target}/${hook} first (its exit status counts)`,
        recipe: { layout: 'chained', hook } satisfies Recipe,
      });
    }
  }
  if (!(current?.equals(shim) && ctx.mode(path)! & 0o100)) {
    steps.push({
      kind: 'file',
      path,
      content: shim,
      mode: 0o755,
      summary: `${isOurShim(current) ? 'update' : 'create'} ${rel(ctx, path)}`,
      recipe: { layout: 'plain', hook, chained: where.target !== null } satisfies Recipe,
    });
  }
  return steps;
}

/** The forwarders and the config step of the redirect layout (our own hooks are planned by planHook). */
function planRedirect(ctx: PlanContext, where: Extract<HookLayout, { kind: 'redirect' }>, own: readonly string[]): Step[] {
  const steps: Step[] = [];
  if (where.target !== null) {
    let present: string[] = [];
    try {
      present = where.targetDir ? readdirSync(where.targetDir) : [];
    } catch {
      /* the folder is not there (yet) */
    }
    const names = [...FORWARDED_HOOKS, ...FORWARDED_IF_PRESENT.filter((h) => present.includes(h))];
    const fwd = forwarderSource(where.target);
    const made: string[] = [];
    for (const hook of names) {
      if (own.includes(hook)) continue;
      const path = join(where.dir, hook);
      const current = ctx.read(path);
      if (isOurShim(current) || (current?.equals(fwd) && ctx.mode(path)! & 0o100)) continue;
      if (current !== null && !isOurForwarder(current)) continue; // someone else's file in our folder: leave it
      made.push(hook);
      steps.push({ kind: 'file', path, content: fwd, mode: 0o755, summary: `create ${rel(ctx, path)}`, recipe: { layout: 'forward', hook } satisfies Recipe });
    }
    if (made.length > 3) {
      // One line for the forwarders, not one each.
      const first = steps.findIndex((s) => s.kind === 'file');
      for (const s of steps) if (s.kind === 'file') s.summary = '';
      steps[first].summary = `create forwarders in ${rel(ctx, where.dir)} for ${made.join(', ')}: each runs the hook of its name in ${where.target}`;
    }
  }
  return steps;
}

function rel(ctx: PlanContext, path: string): string {
  const top = ctx.repo.workTree;
  return top && path.startsWith(`${top}/`) ? path.slice(top.length + 1) : path;
}

/**
 * A lefthook config we edited: our commands out (the whole file when init created it and
 * nothing else is in it), then lefthook's own stubs for hooks no config names any more
 * (lefthook install never removes one), putting back the `<hook>.old` lefthook kept.
 */
async function planLefthookUndo(ctx: PlanContext, file: RecordedFile, abs: string): Promise<Step[]> {
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
    if (chained && isOurForwarder(chained)) {
      // Our own folder (redirect layout): the forwarder goes with the shim.
      steps.push({ kind: 'file', path: slot, content: null, summary: `remove ${rel(ctx, slot)}` });
      steps.push({ kind: 'file', path: chainedPath, content: null, summary: `remove ${rel(ctx, chainedPath)}` });
      chained = null;
    } else if (chained) {
      steps.push({
        kind: 'file',
        path: slot,
        content: chained,
        mode: ctx.mode(chainedPath) ?? 0o755,
        summary: `put ${rel(ctx, chainedPath)} back as ${rel(ctx, slot)}`,
      });
      steps.push({ kind: 'file', path: chainedPath, content: null, summary: `remove ${rel(ctx, chainedPath)}` });
      chained = null;
    } else {
      steps.push({ kind: 'file', path: slot, content: null, summary: `remove ${rel(ctx, slot)}${slot === path ? since : ''}` });
    }
  };
  const current = ctx.read(path);
  const repoRoots = [ctx.repo.paths.commonDir, ...(ctx.repo.workTree ? [ctx.repo.workTree] : [])];
  if (isOurShim(current) && !repoRoots.some((r) => inside(path, r))) {
    // Put there by an older version in a folder other repositories may share (a global
    // core.hooksPath): they may still run it, so it stays.
    return [
      { kind: 'notice', summary: `left ${path} as it is: its folder is outside this repository and other repositories may run it; delete it once none does` },
    ];
  }
  if (isOurShim(current)) putBack(path);
  else if (current && !isPreCommitScript(current))
    steps.push({ kind: 'notice', summary: `left ${rel(ctx, path)} as it is: it is no longer git-handoff's shim (someone or another tool replaced it)` });
  for (const suffix of MOVED_SUFFIXES) {
    const moved = path + suffix;
    if (isOurShim(ctx.read(moved))) putBack(moved);
  }
  if (chained)
    steps.push({
      kind: 'notice',
      summary: `left ${rel(ctx, chainedPath)}: it is the hook that was there before init, and ${rel(ctx, path)} is no longer ours to put it back into`,
    });
  return steps;
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
    return planShimRemoval(ctx, hookPath, { changed: file.after !== null && ctx.read(abs) !== null && !isOurShimExact(ctx, abs, recipe.hook) });
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
    if (recipe.layout === 'exclude') {
      const lines = text.split('\n');
      const i = lines.indexOf(recipe.line);
      if (i < 0) return 'keep';
      lines.splice(i, 1);
      return Buffer.from(lines.join('\n'));
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
        if (text && hasBlock(text))
          steps.push({ kind: 'file', path, content: Buffer.from(withoutBlock(text)), summary: `take the git-handoff block out of ${rel(ctx, path)}` });
      } else if (layout.kind === 'plain') {
        steps.push(...planShimRemoval(ctx, join(layout.dir, hook)).filter((s) => s.kind === 'file'));
      }
    }
    if (layout.kind === 'redirect') {
      let names: string[] = [];
      try {
        names = readdirSync(layout.dir);
      } catch {}
      for (const name of names) {
        const path = join(layout.dir, name);
        const data = ctx.read(path);
        if (isOurShim(data) || isOurForwarder(data)) steps.push({ kind: 'file', path, content: null, summary: `remove ${rel(ctx, path)}` });
      }
      steps.push({ kind: 'config', key: 'core.hooksPath', value: layout.dir, action: 'unset', summary: `unset core.hooksPath=${rel(ctx, layout.dir)}` });
    }
    if (layout.kind === 'lefthook') {
      const text = ctx.read(layout.file)?.toString('utf8');
      const rest = text === undefined ? text : withoutLefthookCommands(text);
      if (text !== undefined && rest !== text)
        steps.push({ kind: 'file', path: layout.file, content: Buffer.from(rest!), summary: `take git-handoff out of ${rel(ctx, layout.file)}` });
    }
    return steps;
  },
};
