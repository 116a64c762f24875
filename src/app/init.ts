/**
 * `init` and `uninstall`: plan what the installers (app/install/) would change, apply the
 * plan unless it is a dry run, and say whether anything changed. Both need a work tree:
 * hooks and agent settings live in it.
 */
import type { Repo } from '../git/repo.js';
import { applyInstall, applyUninstall, planInstall, planUninstall, type InstallOptions, type PlannedStep } from './install/index.js';
import { requireWorkTree } from './repository.js';
import { forgetScannedNotes, scannedNotesPath } from '../state/scanned-notes.js';
import { forgetSessions } from '../state/session-store.js';

export interface InstallPlan {
  steps: PlannedStep[];
  /** a step other than a notice: something was (or, on a dry run, would be) changed */
  changed: boolean;
  dryRun: boolean;
}

const changes = (steps: PlannedStep[]) => steps.some((s) => s.kind !== 'notice');

export async function initRepository(repo: Repo, options: InstallOptions, dryRun: boolean): Promise<InstallPlan> {
  requireWorkTree(repo, 'init');
  const steps = await planInstall(repo, options);
  const changed = changes(steps);
  if (!dryRun) await applyInstall(repo, steps);
  return { steps, changed, dryRun };
}

export async function uninstallRepository(repo: Repo, dryRun: boolean): Promise<InstallPlan> {
  requireWorkTree(repo, 'uninstall');
  const { steps } = await planUninstall(repo);
  const changed = changes(steps);
  if (!dryRun) {
    await applyUninstall(repo, steps);
    // The outgoing scan's record of clean notes is a cache of the tool's own: it goes with
    // the tool, so the git dir is left as init found it (the notes history stays).
    forgetScannedNotes(scannedNotesPath(repo.paths.commonDir));
    // The agent hooks' session records go with the hooks: a session left behind would lend
    // its id to later writes (issue 25).
    forgetSessions(repo.gitDir);
  }
  return { steps, changed, dryRun };
}
