/** The output of `init` and `uninstall`: one line a planned step, or the plan as JSON. */
import type { Io } from '../app/io.js';
import type { InstallPlan } from '../app/init.js';

/** Prints a plan: one line a step (shared by init and uninstall), under `done`. */
export function report(io: Io, json: boolean, plan: InstallPlan, done: string): void {
  const { steps } = plan;
  if (json) {
    io.json({
      ok: true,
      dry_run: plan.dryRun,
      changed: plan.changed,
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
  io.out(`${done}\n`);
  for (const s of changes) if (s.summary) io.out(`  ${s.summary}\n`);
  for (const s of steps) if (s.kind === 'notice') io.out(`note: ${s.summary}\n`);
}
