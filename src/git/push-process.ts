/**
 * Whether the `git push` that runs our pre-push hook is a dry run. git runs pre-push even
 * for `git push --dry-run` and tells the hook nothing about it, so the hook looks at the
 * command line of the `git push` above it (through husky's or lefthook's shells too).
 */
import { readFileSync } from 'node:fs';

const MAX_DEPTH = 6;

interface Proc {
  ppid: number;
  argv: string[];
}

function procLinux(pid: number): Proc | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name is in parentheses and may hold spaces; fields follow the last ')'.
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
    return Number.isFinite(ppid) ? { ppid, argv } : null;
  } catch {
    return null;
  }
}

function procPs(pid: number): Proc | null {
  try {
    const { execFileSync } = process.getBuiltinModule('node:child_process');
    const out = execFileSync('ps', ['-o', 'ppid=', '-o', 'args=', '-p', String(pid)], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    const m = /^(\d+)\s+(.*)$/.exec(out);
    return m ? { ppid: Number(m[1]), argv: m[2].split(/\s+/) } : null;
  } catch {
    return null;
  }
}

/** The push options of a `git push` command line, or null when it is not one. */
export function pushArgs(argv: string[]): string[] | null {
  const dashed = argv.findIndex((a) => /(^|\/)git-push$/.test(a));
  if (dashed >= 0) return argv.slice(dashed + 1);
  const git = argv.findIndex((a) => /(^|\/)git$/.test(a));
  if (git < 0) return null;
  // git's own options come before the command: -C <dir>, -c <key=value>, --git-dir=..., -p.
  let i = git + 1;
  while (i < argv.length && argv[i].startsWith('-')) i += argv[i] === '-C' || argv[i] === '-c' ? 2 : 1;
  return argv[i] === 'push' ? argv.slice(i + 1) : null;
}

/** `--dry-run`, `-n`, or a cluster of short flags holding `n` (`-nv`), before `--`. */
export function isDryRun(args: string[]): boolean {
  for (const a of args) {
    if (a === '--') return false;
    if (a === '--dry-run' || /^-[vqufdn46]*n[vqufdn46]*$/.test(a)) return true;
  }
  return false;
}

export function pushIsDryRun(startPid = process.ppid): boolean {
  const read = process.platform === 'linux' ? procLinux : procPs;
  let pid = startPid;
  for (let depth = 0; depth < MAX_DEPTH && pid > 1; depth++) {
    const p = read(pid);
    if (!p) return false;
    const args = pushArgs(p.argv);
    if (args) return isDryRun(args);
    pid = p.ppid;
  }
  return false;
}
