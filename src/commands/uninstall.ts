import type { CommandModule } from './types.js';
import { DRY_RUN_OPTION, JSON_OPTION } from './types.js';
import { Repo } from '../git/repo.js';
import { applyUninstall, planUninstall } from '../app/install/index.js';
import { report } from './init.js';
import { Refused } from '../errors.js';

export const command: CommandModule = {
  spec: {
    name: 'uninstall',
    summary: "take back what 'git handoff init' installed, restoring what was there before",
    description:
      'Hook files and config are restored byte for byte when they are as init left them; a file changed since keeps the changes and loses only our part. Config values are removed only where init added them. Handoffs (refs/notes/handoff) are never touched.',
    options: { 'dry-run': DRY_RUN_OPTION, json: JSON_OPTION },
  },

  async run(args, ctx) {
    const repo = await Repo.discover(ctx.cwd);
    try {
      if (repo.isBare) throw new Refused('uninstall needs a work tree; this is a bare repository');
      const dryRun = Boolean(args.values['dry-run']);
      const { steps } = await planUninstall(repo);
      const changed = steps.some((s) => s.kind !== 'notice');
      if (!dryRun) await applyUninstall(repo, steps);
      report(ctx.io, ctx.json, steps, { dryRun, changed, done: changed ? (dryRun ? 'dry run: uninstall would' : 'uninstall:') : 'nothing of git-handoff is installed here' });
    } finally {
      repo.close();
    }
  },
};
