import type { CommandModule } from './types.js';
import { JSON_OPTION, str } from './types.js';
import { WORK_ITEM_OPTION } from './work-item-output.js';
import { withRepo } from '../app/repository.js';
import { allStatuses, itemJson, itemStatus, type ItemStatus } from '../app/status.js';
import { parseItemOption } from '../app/work-items.js';
import { visibleText } from '../core/visible-text.js';

function render(s: ItemStatus): string {
  const lines = [`${s.workItem}: ${s.state}${s.title ? ` - ${s.title}` : ''}`];
  if (s.handoffDoc) lines.push(`  document: ${s.handoffDoc} (${s.valid ? 'valid' : `${s.problems.length} problem${s.problems.length === 1 ? '' : 's'}`})`);
  for (const p of s.problems) lines.push(`    ${p.line ? `line ${p.line}: ` : ''}${p.message}`);
  if (s.remote) {
    const r = s.remote;
    const board = r.statusField ? `; board ${r.statusField}: ${r.boardStatus ?? '(not set)'}, ${r.handoffDocField}: ${r.boardHandoffDoc ?? '(not set)'}` : '';
    lines.push(`  github: issue ${r.issueState.toLowerCase() || 'state unknown'}${r.title ? ` - ${r.title}` : ''}${board}`);
  }
  if (s.remoteError) lines.push(`  github: not read: ${s.remoteError}`);
  if (s.disagreements.length) {
    lines.push(`  remote and local disagree: ${s.disagreements.join('; ')} (re-run the last work-item command to update GitHub, or correct the board by hand)`);
  }
  if (s.authorization) {
    const a = s.authorization;
    lines.push(`  authorization: ${a.id} ${a.valid ? `valid, ${a.retriesLeft} retries left` : `void: ${a.reason}`}`);
  }
  for (const r of s.receipts.slice(0, 5))
    lines.push(`  receipt ${r.id}: ${r.kind}, ${r.fromStatus} -> ${r.toStatus}${r.commit ? `, commit ${r.commit.slice(0, 12)}` : ''}`);
  if (s.receipts.length > 5) lines.push(`  … ${s.receipts.length - 5} older receipts`);
  return `${lines.join('\n')}\n`;
}

export const command: CommandModule = {
  spec: {
    name: 'status',
    summary: 'work items: state, handoff document validity, receipts (read-only)',
    options: { 'work-item': WORK_ITEM_OPTION, json: JSON_OPTION },
  },

  async run(args, ctx) {
    const item = str(args.values['work-item']);
    const ref = item === undefined ? null : parseItemOption(item);
    if (ref) {
      const { status, notice } = await withRepo(ctx.cwd, (repo) => itemStatus(repo, ref));
      if (notice) ctx.io.err(`git handoff: ${notice}`);
      if (ctx.json) return void ctx.io.json({ ok: true, item: itemJson(status) });
      return void ctx.io.out(visibleText(render(status)));
    }
    const { statuses, notice } = await withRepo(ctx.cwd, (repo) => allStatuses(repo));
    if (notice) ctx.io.err(`git handoff: ${notice}`);
    // Every item is listed; a tracker that could not be read is still an external step that failed (exit 4, safe to re-run).
    const unread = statuses.filter((s) => s.remoteError).length;
    if (unread)
      ctx.io.err(
        `git handoff: ${unread} item${unread === 1 ? '' : 's'} could not be read from the tracker (shown from our record only); re-run 'git handoff status' once gh works`,
      );
    if (ctx.json) ctx.io.json({ ok: true, items: statuses.map(itemJson) });
    else ctx.io.out(statuses.length ? visibleText(statuses.map(render).join('')) : 'no work items yet\n');
    return unread ? 4 : 0;
  },
};
