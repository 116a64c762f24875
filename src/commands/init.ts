import type { CommandModule } from './types.js';
import { DRY_RUN_OPTION, JSON_OPTION } from './types.js';
import { withRepo } from '../app/repository.js';
import { INSTALLERS } from '../app/install/index.js';
import { initRepository } from '../app/init.js';
import { report } from './install-report.js';

export const command: CommandModule = {
  spec: {
    name: 'init',
    summary: 'install the git hooks and notes config (a second run changes nothing)',
    description:
      "Hooks go into the effective hooks folder, chaining any hook already there (under pre-commit as <hook>.legacy, which its migration mode runs); under husky as a marked block in .husky/<hook>; with a lefthook config as commands in lefthook-local.yml; with simple-git-hooks in its config; with any other core.hooksPath (tracked, relative or shared) that folder is left untouched and this repository's core.hooksPath points at .git/handoff/hooks, which runs the folder's hooks first. Sets notes.rewriteRef (as the glob refs/notes/handof[f]) and notes.rewriteMode=overwrite unless already set. With --sync, a fetch refspec for refs/notes/remotes/<remote>/handoff and a pre-push hook that pushes the handoff history alongside every push. 'git handoff uninstall' takes back exactly what init added and keeps every change made since.",
    options: {
      ...Object.assign({}, ...INSTALLERS.map((i) => i.options ?? {})),
      'dry-run': DRY_RUN_OPTION,
      json: JSON_OPTION,
    },
    examples: ['git handoff init --dry-run', 'git handoff init --display', 'git handoff init --sync'],
  },

  async run(args, ctx) {
    const plan = await withRepo(ctx.cwd, (repo) => initRepository(repo, args.values, Boolean(args.values['dry-run'])));
    report(ctx.io, ctx.json, plan, plan.changed ? (plan.dryRun ? 'dry run: init would' : 'init:') : 'git-handoff is already installed here; nothing changed');
  },
};
