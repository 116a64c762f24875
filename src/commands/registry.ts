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
  search: () => import('./search.js'),
  mcp: () => import('./mcp.js'),
  key: () => import('./key.js'),
  view: () => import('./view.js'),
};

/**
 * The groups `git handoff -h` and the man page list the commands in, as `git -h` does:
 * what a session needs first, then by task. Every command of COMMANDS is in exactly one
 * (test/unit/command-groups.test.ts).
 */
export const COMMAND_GROUPS: readonly { title: string; commands: readonly string[] }[] = [
  { title: 'everyday (what each session needs)', commands: ['init', 'show', 'write', 'log', 'diff', 'uninstall'] },
  { title: 'history (what earlier sessions wrote)', commands: ['search', 'view', 'export', 'import'] },
  { title: 'sync and repair (a teammate, a second machine)', commands: ['sync', 'doctor', 'purge', 'key'] },
  { title: 'agents', commands: ['mcp', 'classify', 'relay', 'ack'] },
  { title: 'work items (each step proven by a receipt)', commands: ['claim', 'doc', 'status', 'seed', 'accept', 'authorize', 'reopen', 'policy'] },
  { title: 'plumbing (run by the installed hooks)', commands: ['hook', 'sweep'] },
];
