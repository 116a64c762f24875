import type { CommandModule } from './types.js';
import { JSON_OPTION, str } from './types.js';
import { LANG_OPTION, WORK_ITEM_OPTION } from './work-item-output.js';
import { withRepo } from '../app/repository.js';
import { seedFor } from '../app/seed.js';
import { parseItemOption } from '../app/work-items.js';
import { visibleText } from '../core/visible-text.js';

export const command: CommandModule = {
  spec: {
    name: 'seed',
    summary: "print the next session's seed prompt for a work item (writes nothing)",
    description:
      'Deterministic: the same item, receipts, policy and head give the same bytes, whatever the clock, time zone or locale. An unapproved policy file is not used: the built-in defaults are, and stderr says why.',
    options: { 'work-item': WORK_ITEM_OPTION, lang: LANG_OPTION, json: JSON_OPTION },
  },

  async run(args, ctx) {
    const ref = parseItemOption(str(args.values['work-item']));
    const r = await withRepo(ctx.cwd, (repo) => seedFor(repo, ref, { lang: str(args.values.lang) }));
    if (r.notice) ctx.io.err(`git handoff: ${r.notice}`);
    if (ctx.json) ctx.io.json({ ok: true, work_item: r.workItem, seed: r.seed });
    else ctx.io.out(visibleText(r.seed));
  },
};
