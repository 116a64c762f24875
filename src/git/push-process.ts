/**
 * Whether the `git push` that runs our pre-push hook is a dry run. git runs pre-push even
 * for `git push --dry-run` and tells the hook nothing about it, so the hook looks at the
 * command line of the `git push` above it (through husky's or lefthook's shells too).
 */
import { processAncestors } from '../process/proc.js';
import { gitCommandLine } from './argv.js';

const MAX_DEPTH = 6;

/** The push options of a `git push` command line, or null when it is not one. */
export function pushArgs(argv: string[]): string[] | null {
  const cmd = gitCommandLine(argv);
  return cmd?.command === 'push' ? cmd.args : null;
}

/** `--dry-run`, `-n`, or a cluster of short flags holding `n` (`-nv`), before `--`. */
export function isDryRun(args: string[]): boolean {
  for (const a of args) {
    if (a === '--') return false;
    if (a === '--dry-run' || /^-[vqufdn46]*n[vqufdn46]*$/.test(a)) return true;
  }
  return false;
}

export async function pushIsDryRun(startPid = process.ppid): Promise<boolean> {
  for await (const p of processAncestors(startPid, MAX_DEPTH, { ps: true })) {
    const args = pushArgs(p.argv);
    if (args) return isDryRun(args);
  }
  return false;
}
