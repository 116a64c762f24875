/**
 * The redirect layout: core.hooksPath names a folder outside the git dir (a tracked
 * `.githooks`, a relative folder each linked worktree checks out on its own, a global folder
 * other repositories share), and that folder is never touched. This repository's local
 * core.hooksPath points at `<common-dir>/handoff/hooks`, where a forwarder per hook runs the
 * hook of the same name in the folder (relative folders from each worktree's top), and our
 * shims chain the forwarder as `<hook>.pre-handoff`.
 */
import { accessSync, constants, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { PlanContext, Step } from '../types.js';
import { CHAINED_SUFFIX, type HookLayout, type Recipe, isOurShim, rel, shimSource } from './shared.js';

type Redirect = Extract<HookLayout, { kind: 'redirect' }>;

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
  // git p4 runs these when present (fsmonitor-watchman is not looked up in the hooks folder:
  // core.fsmonitor names its path).
  'p4-changelist',
  'p4-prepare-changelist',
  'p4-post-changelist',
  'p4-pre-submit',
];
/**
 * The hooks whose forwarder brings this folder in step with the folder it forwards to: the
 * ones git runs after a checkout or a pull changed the work tree (the folder is tracked).
 */
const REFRESHED_BY = ['post-checkout', 'post-merge'];
export const FORWARDER_MARKER = 'git-handoff hook forwarder';

/** Our own hooks folder, for the redirect layout. */
export function redirectDir(ctx: PlanContext): string {
  return join(ctx.repo.paths.commonDir, 'handoff', 'hooks');
}

function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/**
 * The forwarder script: runs the hook of its own name in `target`. The same bytes for every
 * hook (a forwarder is one file copied under each name). Run as post-checkout or post-merge,
 * it first checks that this folder forwards exactly the hooks of FORWARDED_IF_PRESENT that
 * `target` has (git's rule: an executable file), and when not, has git-handoff bring it in
 * step: a pull may just have brought or taken one.
 */
export function forwarderSource(target: string): Buffer {
  return Buffer.from(
    [
      '#!/bin/sh',
      `# ${FORWARDER_MARKER}. \`git handoff init\` pointed core.hooksPath here for this repository`,
      '# only and left the folder below untouched; this runs its hook of the same name, with the',
      "# same arguments and input, and its exit status is this hook's. `git handoff uninstall`",
      '# points core.hooksPath back there.',
      'hook=${0##*/}',
      `hook=\${hook%${CHAINED_SUFFIX}}`,
      `dir=${shellQuote(target)}`,
      `case $hook in ${REFRESHED_BY.join('|')})`,
      '  # A checkout or pull may have brought (or taken) a hook git runs only when it is there.',
      '  here=${0%/*} stale=',
      `  for h in ${FORWARDED_IF_PRESENT.join(' ')}; do`,
      '    if [ -f "$dir/$h" ] && [ -x "$dir/$h" ]; then [ -e "$here/$h" ] || { stale=1; break; }',
      '    elif [ -e "$here/$h" ] && cmp -s "$0" "$here/$h"; then stale=1; break; fi',
      '  done',
      '  if [ -n "$stale" ] && [ "${HANDOFF_SKIP:-}" != 1 ]; then',
      '    if command -v git-handoff >/dev/null 2>&1; then git-handoff hook forwarders </dev/null >&2',
      '    elif [ -x node_modules/.bin/git-handoff ] && [ -z "$(git ls-files -- node_modules 2>/dev/null)" ]; then node_modules/.bin/git-handoff hook forwarders </dev/null >&2; fi',
      '  fi',
      'esac',
      'hook=$dir/$hook',
      '[ -x "$hook" ] || exit 0',
      'exec "$hook" "$@"',
      '',
    ].join('\n'),
  );
}

export function isOurForwarder(data: Buffer | null): boolean {
  return data !== null && data.subarray(0, 200).toString('utf8').includes(FORWARDER_MARKER);
}

/** Our shim in our own folder, chaining the forwarder to the folder core.hooksPath named. */
export function planRedirectedHook(ctx: PlanContext, hook: string, where: Redirect): Step[] {
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

/** Does `dir` have `hook` as git would run it (an executable file)? */
function hasHook(dir: string | null, hook: string): boolean {
  if (dir === null) return false;
  try {
    if (!statSync(join(dir, hook)).isFile()) return false;
    accessSync(join(dir, hook), constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * The forwarders of the redirect layout (our own hooks are planned by planRedirectedHook): one
 * for each hook of FORWARDED_HOOKS, one for each of FORWARDED_IF_PRESENT the folder has now,
 * and out with a forwarder of FORWARDED_IF_PRESENT whose hook the folder no longer has.
 */
export function planRedirect(ctx: PlanContext, where: Redirect, own: readonly string[]): Step[] {
  if (where.target === null) return [];
  const steps: Step[] = [];
  const removals: Step[] = [];
  const fwd = forwarderSource(where.target);
  const made: string[] = [];
  for (const hook of [...FORWARDED_HOOKS, ...FORWARDED_IF_PRESENT]) {
    if (own.includes(hook)) continue;
    const path = join(where.dir, hook);
    const current = ctx.read(path);
    if (isOurShim(current)) continue;
    if (current !== null && !isOurForwarder(current)) continue; // someone else's file in our folder: leave it
    if (FORWARDED_IF_PRESENT.includes(hook) && !hasHook(where.targetDir, hook)) {
      // Its mere presence changes what git does: no forwarder without the hook.
      if (current !== null)
        removals.push({ kind: 'file', path, content: null, summary: `remove ${rel(ctx, path)}: ${where.target} has no ${hook} hook any more` });
      continue;
    }
    if (current?.equals(fwd) && ctx.mode(path)! & 0o100) continue;
    made.push(hook);
    const why = FORWARDED_IF_PRESENT.includes(hook) ? `: ${where.target} has a ${hook} hook` : '';
    const summary = `${current === null ? 'create' : 'update'} ${rel(ctx, path)}${why}`;
    steps.push({ kind: 'file', path, content: fwd, mode: 0o755, summary, recipe: { layout: 'forward', hook } satisfies Recipe });
  }
  if (made.length > 3) {
    // One line for the forwarders, not one each.
    for (const s of steps) s.summary = '';
    const verb = steps.every((s) => s.kind === 'file' && ctx.read(s.path) === null) ? 'create' : 'create or update';
    steps[0].summary = `${verb} forwarders in ${rel(ctx, where.dir)} for ${made.join(', ')}: each runs the hook of its name in ${where.target}`;
  }
  return [...steps, ...removals];
}

/** Uninstall without a record: every shim and forwarder of ours out, core.hooksPath unset. */
export function redirectOrphans(ctx: PlanContext, where: Redirect): Step[] {
  const steps: Step[] = [];
  let names: string[] = [];
  try {
    names = readdirSync(where.dir);
  } catch {}
  for (const name of names) {
    const path = join(where.dir, name);
    const data = ctx.read(path);
    if (isOurShim(data) || isOurForwarder(data)) steps.push({ kind: 'file', path, content: null, summary: `remove ${rel(ctx, path)}` });
  }
  steps.push({ kind: 'config', key: 'core.hooksPath', value: where.dir, action: 'unset', summary: `unset core.hooksPath=${rel(ctx, where.dir)}` });
  return steps;
}
