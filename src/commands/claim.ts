import type { CommandModule } from './types.js';
import { DRY_RUN_OPTION, JSON_OPTION, str } from './types.js';
import { SESSION_OPTION, WORK_ITEM_OPTION, emit } from './work-item-output.js';
import { withRepo } from '../app/repository.js';
import { claimItem } from '../app/claim.js';
import { parseItemOption } from '../app/work-items.js';

export const command: CommandModule = {
  spec: {
    name: 'claim',
    summary: 'claim a work item: backlog -> in-progress, with a claim receipt',
    description:
      'Records a claim receipt (session, head commit) in refs/notes/handoff. For github: items the title and acceptance come from the issue (flags override); for local: items from the flags. Re-running a claim whose provider steps failed finishes them with the same receipt.',
    options: {
      'work-item': WORK_ITEM_OPTION,
      title: { type: 'string', arg: 'text', describe: 'the goal (required for local: items)' },
      acceptance: { type: 'string', arg: 'text', describe: 'the acceptance criteria' },
      session: SESSION_OPTION,
      'dry-run': DRY_RUN_OPTION,
      json: JSON_OPTION,
    },
    examples: ["git handoff claim --work-item 'local:#7' --title 'parse the config' --acceptance 'tests pass'", "git handoff claim --work-item 'github:acme/widgets#12'"],
  },

  async run(args, ctx) {
    const v = args.values;
    const ref = parseItemOption(str(v['work-item']));
    const req = { ref, title: str(v.title), acceptance: str(v.acceptance), session: str(v.session), dryRun: Boolean(v['dry-run']) };
    emit(ctx, 'claim', await withRepo(ctx.cwd, (repo) => claimItem(repo, req)));
  },
};
