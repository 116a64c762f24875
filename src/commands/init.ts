import type { CommandModule } from './types.js';
import { DRY_RUN_OPTION, JSON_OPTION } from './types.js';
import { Repo } from '../git/repo.js';
import { INSTALLERS, applyInstall, planInstall, type PlannedStep } from '../app/install/index.js';
import type { Io } from '../app/io.js';
import { Refused } from '../errors.js';

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
    const repo = await Repo.discover(ctx.cwd);
    try {
      if (repo.isBare) throw new Refused('init needs a work tree; this is a bare repository');
      const dryRun = Boolean(args.values['dry-run']);
      const steps = await planInstall(repo, args.values);
      if (!dryRun) await applyInstall(repo, steps);
      const changed = steps.some((s) => s.kind !== 'notice');
      report(ctx.io, ctx.json, steps, { dryRun, changed, done: changed ? (dryRun ? 'dry run: init would' : 'init:') : 'git-handoff is already installed here; nothing changed' });
    } finally {
      repo.close();
    }
  },
};

/** Prints a plan: one line a step (shared by init and uninstall). */
export function report(io: Io, json: boolean, steps: PlannedStep[], o: { dryRun: boolean; changed: boolean; done: string }): void {
  if (json) {
    io.json({
      ok: true,
      dry_run: o.dryRun,
      changed: o.changed,
      steps: steps.map((s) => ({
        installer: s.installer,
        kind: s.kind,
        ...(s.kind === 'file' ? { path: s.path, action: s.content === null && s.link === undefined ? 'remove' : 'write' } : {}),
        ...(s.kind === 'config' ? { key: s.key, value: s.value, action: s.action } : {}),
        summary: s.summary,
      })),
    });
    return;
  }
  const changes = steps.filter((s) => s.kind !== 'notice');
  io.out(`${o.done}\n`);
  for (const s of changes) if (s.summary) io.out(`  ${s.summary}\n`);
  for (const s of steps) if (s.kind === 'notice') io.out(`note: ${s.summary}\n`);
}
