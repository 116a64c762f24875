import type { CommandModule } from './types.js';

/** Every command, loaded only when it runs (start-up parses nothing it does not use). */
export const COMMANDS: Record<string, () => Promise<{ command: CommandModule }>> = {
  write: () => import('./write.js'),
  show: () => import('./show.js'),
  log: () => import('./log.js'),
  diff: () => import('./diff.js'),
  init: () => import('./init.js'),
  uninstall: () => import('./uninstall.js'),
  hook: () => import('./hook.js'),
  sweep: () => import('./sweep.js'),
  claim: () => import('./claim.js'),
  doc: () => import('./doc.js'),
  status: () => import('./status.js'),
  seed: () => import('./seed.js'),
  accept: () => import('./accept.js'),
  authorize: () => import('./authorize.js'),
  reopen: () => import('./reopen.js'),
  policy: () => import('./policy.js'),
  classify: () => import('./classify.js'),
  export: () => import('./export.js'),
  import: () => import('./import.js'),
  relay: () => import('./relay.js'),
  ack: () => import('./ack.js'),
  sync: () => import('./sync.js'),
  purge: () => import('./purge.js'),
  doctor: () => import('./doctor.js'),
};
