/**
 * The plain layout: our shim (githooks/<hook>) in the effective hooks folder; a hook already
 * there is kept beside it as `<hook>.pre-handoff`, which the shim runs first (its exit status
 * still counts). Under pre-commit, ours goes to `<hook>.legacy` (pre-commit.ts).
 */
import { basename, dirname, join } from 'node:path';
import { linesAddedTo } from '../../../core/hook-blocks.js';
import type { PlanContext, RecordedFile, Step } from '../types.js';
import { isOurForwarder } from './forwarders.js';
import { PRE_COMMIT_LEGACY, isPreCommitScript } from './pre-commit.js';
import { CHAINED_SUFFIX, MOVED_SUFFIXES, type Recipe, inside, isOurShim, rel, shimSource } from './shared.js';

/** The steps that put our shim for `hook` in `dir`; empty when it already is. */
export function planPlainHook(ctx: PlanContext, hook: string, dir: string): Step[] {
  const hookPath = join(dir, hook);
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
    const old = runsCheckoutCode(current!)
      ? ' (from an older release: it would run node_modules/.bin/git-handoff from the work tree even when a checkout brought that file)'
      : '';
    return [
      {
        kind: 'file',
        path,
        content: shim,
        mode: 0o755,
        summary: `update the git-handoff ${hook} hook${why}${old}`,
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

/**
 * Takes our shim at `path` back out, wherever a hook manager moved it: the hook that was
 * there before (kept as `<hook>.pre-handoff`, as it is now, edits included) goes back in our
 * shim's place; a hook that is no longer ours is left as it is, and said so. A shim someone
 * added lines to keeps those lines (our own lines go), or, where that cannot be done cleanly,
 * stays as it is with a notice saying why: a user's edit is never deleted. `changed`: the
 * install record says the file changed after init (an older shim of ours that did not is
 * removed even though it is not today's).
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
      steps.push({ kind: 'file', path: slot, content: null, summary: `remove ${rel(ctx, slot)}${since}` });
    }
  };
  /** Our shim at `slot`, with what someone else did to it kept. */
  const takeOut = (slot: string, data: Buffer) => {
    const ours = shimSource(ctx, basename(path));
    const added = data.equals(ours) ? [] : linesAddedTo(ours.toString('utf8'), data.toString('utf8'));
    const edited = added === null ? opts.changed === true : added.some((l) => l.trim() !== '');
    if (!edited) return putBack(slot);
    if (added !== null && chained === null) {
      const text = `${added[0]?.startsWith('#!') ? '' : '#!/bin/sh\n'}${added.join('\n')}\n`;
      const n = added.filter((l) => l.trim() !== '').length;
      steps.push({
        kind: 'file',
        path: slot,
        content: Buffer.from(text),
        mode: ctx.mode(slot) ?? 0o755,
        summary: `take git-handoff's lines out of ${rel(ctx, slot)} (it changed after init: the ${n === 1 ? 'line' : `${n} lines`} you added stay${n === 1 ? 's' : ''})`,
      });
      return;
    }
    const why =
      added === null
        ? "it changed after init and is not git-handoff's shim with lines added, so git-handoff cannot tell its part from yours; delete it once nothing in it is yours"
        : isOurForwarder(chained)
          ? `you added lines to it after init; core.hooksPath no longer points at this folder, so move them to the hook in the folder it does point at, then delete ${rel(ctx, dirname(slot))}`
          : `you added lines to it after init, and ${rel(ctx, chainedPath)} (the hook that was there before init) was to go back in its place; put together what you want to keep, then delete the other`;
    steps.push({
      kind: 'notice',
      summary: `left ${rel(ctx, slot)}${chained ? ` and ${rel(ctx, chainedPath)}` : ''} as ${chained ? 'they are' : 'it is'}: ${why}`,
    });
    chained = null;
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
  if (current && isOurShim(current)) takeOut(path, current);
  else if (current && !isPreCommitScript(current))
    steps.push({ kind: 'notice', summary: `left ${rel(ctx, path)} as it is: it is no longer git-handoff's shim (someone or another tool replaced it)` });
  for (const suffix of MOVED_SUFFIXES) {
    const moved = path + suffix;
    const data = ctx.read(moved);
    if (data && isOurShim(data)) takeOut(moved, data);
  }
  if (chained)
    steps.push({
      kind: 'notice',
      summary: `left ${rel(ctx, chainedPath)}: it is the hook that was there before init, and ${rel(ctx, path)} is no longer ours to put it back into`,
    });
  return steps;
}

/** Uninstall of a recorded shim (recipe 'plain'): the content the file goes back to, or 'keep'. */
export function undoShim(file: RecordedFile, current: Buffer): Buffer | null | 'keep' {
  if (!isOurShim(current)) return 'keep';
  // The chained original is restored by its own record entry (listed before this one).
  if (file.before && 'data' in file.before) return Buffer.from(file.before.data, 'base64');
  return null;
}

/** A shim of a release of an earlier release that ran `node_modules/.bin/git-handoff` without asking git whether the checkout tracks it. */
export function runsCheckoutCode(shim: Buffer): boolean {
  const text = shim.toString('utf8');
  return text.includes('node_modules/.bin/git-handoff') && !text.includes('git ls-files -- node_modules');
}
