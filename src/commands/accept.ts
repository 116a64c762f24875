import type { CommandModule } from './types.js';
import { DRY_RUN_OPTION, JSON_OPTION, str } from './types.js';
import { SESSION_OPTION, WORK_ITEM_OPTION, emit } from './work-item-output.js';
import { withRepo } from '../app/repository.js';
import { acceptItem } from '../app/transitions.js';
import { parseItemOption } from '../app/work-items.js';
import { UsageError } from '../errors.js';

export const command: CommandModule = {
  spec: {
    name: 'accept',
    summary: 'accept a work item: ready-for-review -> done, on a commit reachable from a branch',
    options: {
      'work-item': WORK_ITEM_OPTION,
      commit: { type: 'string', arg: 'rev', describe: 'the accepted commit (must exist and be reachable from a branch)' },
      session: SESSION_OPTION,
      'dry-run': DRY_RUN_OPTION,
      json: JSON_OPTION,
    },
  },

  async run(args, ctx) {
    const v = args.values;
    const ref = parseItemOption(str(v['work-item']));
    const commit = str(v.commit);
    if (!commit) throw new UsageError('accept: --commit is required');
    emit(ctx, 'accept', await withRepo(ctx.cwd, (repo) => acceptItem(repo, { ref, commit, session: str(v.session), dryRun: Boolean(v['dry-run']) })));
  },
};
