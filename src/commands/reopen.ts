import type { CommandModule } from './types.js';
import { DRY_RUN_OPTION, JSON_OPTION, str } from './types.js';
import { WORK_ITEM_OPTION, emit } from './work-item-output.js';
import { withRepo } from '../app/repository.js';
import { reopenItem } from '../app/transitions.js';
import { parseItemOption } from '../app/work-items.js';

export const command: CommandModule = {
  spec: {
    name: 'reopen',
    summary: 'move a work item back to backlog (a person only)',
    description: 'Refused when HANDOFF_AGENT is set or an agent hook session is active: only a person moves an item back. Voids its delivery authorization.',
    options: { 'work-item': WORK_ITEM_OPTION, 'dry-run': DRY_RUN_OPTION, json: JSON_OPTION },
  },

  async run(args, ctx) {
    const v = args.values;
    const ref = parseItemOption(str(v['work-item']));
    emit(ctx, 'reopen', await withRepo(ctx.cwd, (repo) => reopenItem(repo, { ref, dryRun: Boolean(v['dry-run']) })));
  },
};
