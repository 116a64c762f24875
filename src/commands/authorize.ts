import type { CommandModule } from './types.js';
import { DRY_RUN_OPTION, JSON_OPTION, str } from './types.js';
import { SESSION_OPTION, WORK_ITEM_OPTION, emit } from './work-item-output.js';
import { withRepo } from '../app/repository.js';
import { authorizeItem } from '../app/authorize.js';
import { parseItemOption } from '../app/work-items.js';

export const command: CommandModule = {
  spec: {
    name: 'authorize',
    summary: 'record a delivery authorization (scope, retry budget, head, PR and checks)',
    description:
      'The seed restores the scope, the retries left, the head and the evidence, so a session switch, a normal commit or a rebase inside the scope needs no new confirmation. The authorization is void once its facts no longer hold: another work item, another branch or base branch, or the retries spent. --use-retry spends one retry and records the new evidence.',
    options: {
      'work-item': WORK_ITEM_OPTION,
      scope: { type: 'string', arg: 'text', describe: 'what delivery is authorized (e.g. "merge PR after green checks")' },
      retries: { type: 'string', arg: 'n', describe: 'the retry budget (at least 1)' },
      'use-retry': { type: 'boolean', describe: 'spend one retry of the current authorization' },
      reason: { type: 'string', arg: 'text', describe: 'why the retry (with --use-retry)' },
      session: SESSION_OPTION,
      'dry-run': DRY_RUN_OPTION,
      json: JSON_OPTION,
    },
  },

  async run(args, ctx) {
    const v = args.values;
    const ref = parseItemOption(str(v['work-item']));
    const req = { ref, scope: str(v.scope), retries: str(v.retries), useRetry: Boolean(v['use-retry']), reason: str(v.reason), session: str(v.session), dryRun: Boolean(v['dry-run']) };
    emit(ctx, v['use-retry'] ? 'spend a retry on' : 'authorize delivery of', await withRepo(ctx.cwd, (repo) => authorizeItem(repo, req)));
  },
};
