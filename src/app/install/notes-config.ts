/**
 * Installer: notes config (DESIGN.md "Git hooks"). `notes.rewriteRef=refs/notes/handoff` and
 * `notes.rewriteMode=overwrite` make amend and rebase carry handoffs, a squash keeping the
 * newest instead of concatenating two YAML documents; `notes.displayRef` only with
 * `--display`. Values already set are kept.
 */
import { NOTES_REF } from '../../git/repo.js';
import type { Installer, PlanContext, Step } from './types.js';

/** A notes ref config value (exact ref or glob) that covers refs/notes/handoff. */
export function coversHandoff(value: string): boolean {
  const v = value.trim();
  if (v === NOTES_REF) return true;
  if (!v.includes('*')) return false;
  const re = new RegExp(`^${v.split('*').map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`);
  return re.test(NOTES_REF);
}

async function refStep(ctx: PlanContext, key: string, why: string): Promise<Step[]> {
  const values = await ctx.configAll(key);
  if (values.some(coversHandoff)) return [];
  return [{ kind: 'config', key, value: NOTES_REF, action: values.length ? 'add' : 'set', summary: `set ${key}=${NOTES_REF} (${why})` }];
}

export const notesConfigInstaller: Installer = {
  id: 'notes-config',
  options: {
    display: { type: 'boolean', describe: 'also show handoffs in plain `git log` (notes.displayRef)' },
  },

  async plan(ctx) {
    const steps: Step[] = [];
    steps.push(...(await refStep(ctx, 'notes.rewriteRef', 'amend and rebase carry handoffs')));
    const mode = (await ctx.configAll('notes.rewriteMode')).at(-1);
    if (mode === undefined) {
      steps.push({ kind: 'config', key: 'notes.rewriteMode', value: 'overwrite', action: 'set', summary: 'set notes.rewriteMode=overwrite (a squash keeps the newest handoff)' });
    } else if (mode !== 'overwrite' && steps.length) {
      steps.push({ kind: 'notice', summary: `kept notes.rewriteMode=${mode}; the post-rewrite hook repairs handoffs it would concatenate` });
    }
    if (ctx.options.display) steps.push(...(await refStep(ctx, 'notes.displayRef', 'plain git log shows handoffs')));
    return steps;
  },
};
