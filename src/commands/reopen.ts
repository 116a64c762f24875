import { DRY_RUN_OPTION, JSON_OPTION } from './types.js';
import { WORK_ITEM_OPTION, transitionCommand } from './work-item-output.js';
import { reopenItem } from '../app/transitions.js';

export const command = transitionCommand(
  {
    name: 'reopen',
    summary: 'move a work item back to backlog (a person only)',
    description: 'Refused when HANDOFF_AGENT is set or an agent hook session is active: only a person moves an item back. Voids its delivery authorization.',
    options: { 'work-item': WORK_ITEM_OPTION, 'dry-run': DRY_RUN_OPTION, json: JSON_OPTION },
  },
  'reopen',
  (ref, v) => (repo) => reopenItem(repo, { ref, dryRun: Boolean(v['dry-run']) }),
);
