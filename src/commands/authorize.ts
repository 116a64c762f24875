import { str } from './types.js';
import { TRANSITION_OPTIONS, WORK_ITEM_OPTION, transitionCommand } from './work-item-output.js';
import { authorizeItem } from '../app/authorize.js';

export const command = transitionCommand(
  {
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
      ...TRANSITION_OPTIONS,
    },
  },
  (v) => (v['use-retry'] ? 'spend a retry on' : 'authorize delivery of'),
  (ref, v) => (repo) =>
    authorizeItem(repo, {
      ref,
      scope: str(v.scope),
      retries: str(v.retries),
      useRetry: Boolean(v['use-retry']),
      reason: str(v.reason),
      session: str(v.session),
      dryRun: Boolean(v['dry-run']),
    }),
);
