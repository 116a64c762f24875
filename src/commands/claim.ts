import { str } from './types.js';
import { TRANSITION_OPTIONS, WORK_ITEM_OPTION, transitionCommand } from './work-item-output.js';
import { claimItem } from '../app/claim.js';

export const command = transitionCommand(
  {
    name: 'claim',
    summary: 'claim a work item: backlog -> in-progress, with a claim receipt',
    description:
      'Records a claim receipt (session, head commit) in refs/notes/handoff. For github: items the title and acceptance come from the issue (flags override); for local: items from the flags. Re-running a claim whose provider steps failed finishes them with the same receipt.',
    options: {
      'work-item': WORK_ITEM_OPTION,
      title: { type: 'string', arg: 'text', describe: 'the goal (required for local: items)' },
      acceptance: { type: 'string', arg: 'text', describe: 'the acceptance criteria' },
      ...TRANSITION_OPTIONS,
    },
    examples: [
      "git handoff claim --work-item 'local:#7' --title 'parse the config' --acceptance 'tests pass'",
      "git handoff claim --work-item 'github:acme/widgets#12'",
    ],
  },
  'claim',
  (ref, v) => (repo) => claimItem(repo, { ref, title: str(v.title), acceptance: str(v.acceptance), session: str(v.session), dryRun: Boolean(v['dry-run']) }),
);
