import type { CommandModule } from './types.js';
import { DRY_RUN_OPTION, JSON_OPTION } from './types.js';
import { withRepo } from '../app/repository.js';
import { uninstallRepository } from '../app/init.js';
import { report } from './install-report.js';

export const command: CommandModule = {
  spec: {
    name: 'uninstall',
    summary: "take back what 'git handoff init' installed, restoring what was there before",
    description:
      'Hook files and config are restored byte for byte when they are as init left them; a file changed since keeps the changes and loses only our part. Config values are removed only where init added them. Handoffs (refs/notes/handoff) are never touched.',
    options: { 'dry-run': DRY_RUN_OPTION, json: JSON_OPTION },
  },

  async run(args, ctx) {
    const plan = await withRepo(ctx.cwd, (repo) => uninstallRepository(repo, Boolean(args.values['dry-run'])));
    report(ctx.io, ctx.json, plan, plan.changed ? (plan.dryRun ? 'dry run: uninstall would' : 'uninstall:') : 'nothing of git-handoff is installed here');
  },
};
