import { str } from './types.js';
import { TRANSITION_OPTIONS, WORK_ITEM_OPTION, transitionCommand } from './work-item-output.js';
import { acceptItem } from '../app/transitions.js';
import { UsageError } from '../errors.js';

export const command = transitionCommand(
  {
    name: 'accept',
    summary: 'accept a work item: ready-for-review -> done, on a commit reachable from a branch',
    options: {
      'work-item': WORK_ITEM_OPTION,
      commit: { type: 'string', arg: 'rev', describe: 'the accepted commit (must exist and be reachable from a branch)' },
      ...TRANSITION_OPTIONS,
    },
  },
  'accept',
  (ref, v) => {
    const commit = str(v.commit);
    if (!commit) throw new UsageError('accept: --commit is required');
    return (repo) => acceptItem(repo, { ref, commit, session: str(v.session), dryRun: Boolean(v['dry-run']) });
  },
);
