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
};
