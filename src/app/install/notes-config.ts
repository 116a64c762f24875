/**
 * Installer: notes config (docs/hooks.md). `notes.rewriteRef=refs/notes/handof[f]` and
 * `notes.rewriteMode=overwrite` make amend and rebase carry handoffs, a squash keeping the
 * newest instead of concatenating two YAML documents; `notes.displayRef` only with
 * `--display`. Values already set are kept.
 */
import { NOTES_REF } from '../../git/repo.js';
import type { Installer, PlanContext, Step } from './types.js';

/**
 * The `notes.rewriteRef` value init sets: a glob matching exactly refs/notes/handoff. Git
 * looks an exact value up on every amend and rebase and warns `notes ref refs/notes/handoff
 * is invalid` until the first handoff exists; a glob is matched against the refs there are,
 * so before the first handoff it matches nothing and git says nothing.
 */
export const REWRITE_REF_VALUE = 'refs/notes/handof[f]';

/** A glob as git's wildmatch reads it (`*`, `?`, `[...]`), as a RegExp. */
function globRegExp(glob: string): RegExp {
  let out = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === '*') out += '.*';
    else if (c === '?') out += '[^/]';
    else if (c === '[') {
      const end = glob.indexOf(']', i + 2);
      if (end < 0) out += '\\[';
      else {
        const body = glob.slice(i + 1, end);
        out += `[${body.startsWith('!') ? `^${body.slice(1)}` : body}]`;
        i = end;
      }
    } else out += c.replace(/[.+^${}()|\\/]/g, '\\$&');
  }
  return new RegExp(`^${out}$`);
}

/** A notes ref config value (exact ref or glob) that covers refs/notes/handoff. */
export function coversHandoff(value: string): boolean {
  const v = value.trim();
  if (v === NOTES_REF) return true;
  if (!/[*?[]/.test(v)) return false;
  try {
    return globRegExp(v).test(NOTES_REF);
  } catch {
    return false;
  }
}

async function refStep(ctx: PlanContext, key: string, why: string, value: string): Promise<Step[]> {
  const values = await ctx.configAll(key);
  if (values.some(coversHandoff)) return [];
  return [{ kind: 'config', key, value, action: values.length ? 'add' : 'set', summary: `set ${key}=${value} (${why})` }];
}

/**
 * An exact `notes.rewriteRef=refs/notes/handoff` an earlier init set (and recorded) makes
 * git warn on every amend until the first handoff: swap it for the glob.
 */
function migrateRewriteRef(ctx: PlanContext, values: string[]): Step[] {
  const ours = ctx.record?.config.some((c) => c.key === 'notes.rewriteRef' && c.value === NOTES_REF);
  if (!ours || !values.includes(NOTES_REF) || values.includes(REWRITE_REF_VALUE)) return [];
  return [
    {
      kind: 'config',
      key: 'notes.rewriteRef',
      value: NOTES_REF,
      action: 'unset',
      summary: `unset notes.rewriteRef=${NOTES_REF} (git warns 'notes ref ${NOTES_REF} is invalid' on every amend until the first handoff)`,
    },
    {
      kind: 'config',
      key: 'notes.rewriteRef',
      value: REWRITE_REF_VALUE,
      action: 'add',
      summary: `set notes.rewriteRef=${REWRITE_REF_VALUE} (the same ref, as a glob git matches without a warning)`,
    },
  ];
}

export const notesConfigInstaller: Installer = {
  id: 'notes-config',
  options: {
    display: { type: 'boolean', describe: 'also show handoffs in plain `git log` (notes.displayRef)' },
  },

  async plan(ctx) {
    const steps: Step[] = [];
    const rewriteRefs = await ctx.configAll('notes.rewriteRef');
    steps.push(...migrateRewriteRef(ctx, rewriteRefs));
    steps.push(
      ...(await refStep(
        ctx,
        'notes.rewriteRef',
        `amend and rebase carry handoffs; the [f] makes it a pattern that matches only ${NOTES_REF}, so git does not warn before the first handoff`,
        REWRITE_REF_VALUE,
      )),
    );
    const mode = (await ctx.configAll('notes.rewriteMode')).at(-1);
    if (mode === undefined) {
      steps.push({
        kind: 'config',
        key: 'notes.rewriteMode',
        value: 'overwrite',
        action: 'set',
        summary: 'set notes.rewriteMode=overwrite (a squash keeps the newest handoff)',
      });
    } else if (mode !== 'overwrite' && steps.length) {
      steps.push({ kind: 'notice', summary: `kept notes.rewriteMode=${mode}; the post-rewrite hook repairs handoffs it would concatenate` });
    }
    if (ctx.options.display) steps.push(...(await refStep(ctx, 'notes.displayRef', 'plain git log shows handoffs', NOTES_REF)));
    return steps;
  },
};
