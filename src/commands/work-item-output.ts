/** Options and output shared by the work-item commands (claim, doc, accept, authorize, reopen). */
import type { CommandSpec, OptionSpec, ParsedArgs } from '../app/command-line.js';
import type { CommandContext, CommandModule } from './types.js';
import { DRY_RUN_OPTION, JSON_OPTION, str } from './types.js';
import { parseItemOption, type TransitionResult } from '../app/work-items.js';
import { withRepo, type InRepo } from '../app/repository.js';
import type { WorkItemRef } from '../core/work-item.js';
import { serializeReceipt } from '../core/receipt.js';

export const WORK_ITEM_OPTION: OptionSpec = { type: 'string', arg: 'item', describe: 'the work item: github:<owner>/<repo>#<n> or local:#<n>' };
export const SESSION_OPTION: OptionSpec = { type: 'string', arg: 'id', describe: 'the session recorded in the receipt (default: $HANDOFF_SESSION_ID)' };
/** The options a transition command ends with: who records it, a dry run, JSON (in this order in -h). */
export const TRANSITION_OPTIONS = { session: SESSION_OPTION, 'dry-run': DRY_RUN_OPTION, json: JSON_OPTION };
export const LANG_OPTION: OptionSpec = { type: 'string', arg: 'en|zh|ru', describe: 'language of the document and seed (default: handoff.lang, else en)' };

/**
 * The JSON document of a transition (keys in this order). Our keys are snake_case like every
 * command's; the receipt keeps its own field names (docs/format.md, "Work items: records and receipts").
 */
export function transitionJson(r: TransitionResult) {
  return {
    ok: true,
    work_item: r.workItem,
    state: r.state,
    unchanged: r.unchanged,
    dry_run: r.dryRun,
    receipt: JSON.parse(serializeReceipt(r.receipt)),
    provider: { name: r.provider, steps: r.steps },
  };
}

/** Human lines: what happened (or would), then each provider step. */
export function renderTransition(ctx: CommandContext, verb: string, r: TransitionResult): void {
  const rc = r.receipt;
  const move = `${rc.fromStatus} -> ${rc.toStatus}`;
  if (r.dryRun) ctx.io.out(`dry run: would ${verb} ${r.workItem} (${move}) with receipt ${rc.id}; nothing was written\n`);
  else if (r.unchanged) ctx.io.out(`unchanged: ${r.workItem} already has receipt ${rc.id} (${move})\n`);
  else ctx.io.out(`${r.workItem}: ${move}, receipt ${rc.id}\n`);
  for (const s of r.steps)
    ctx.io.out(`  ${r.provider} ${s.step}: ${s.state === 'planned' ? 'would ' : ''}${s.detail}${s.state === 'skipped' ? ' (already done)' : ''}\n`);
}

export function emit(ctx: CommandContext, verb: string, r: TransitionResult): void {
  if (ctx.json) ctx.io.json(transitionJson(r));
  else renderTransition(ctx, verb, r);
}

/**
 * A command that moves one work item (claim, accept, authorize, reopen): `--work-item` names
 * it, `transition` checks the rest of the command line and returns the use case to run in the
 * repository, and the result is printed as every transition is. `verb` names the act in the
 * human line ("would claim ...").
 */
export function transitionCommand(
  spec: CommandSpec,
  verb: string | ((v: ParsedArgs['values']) => string),
  transition: (ref: WorkItemRef, v: ParsedArgs['values']) => InRepo<TransitionResult>,
): CommandModule {
  return {
    spec,
    async run(args, ctx) {
      const v = args.values;
      const use = transition(parseItemOption(str(v['work-item'])), v);
      emit(ctx, typeof verb === 'string' ? verb : verb(v), await withRepo(ctx.cwd, use));
    },
  };
}
