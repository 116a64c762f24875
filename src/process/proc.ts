/**
 * The one reader of other processes: the chain of processes above this one with their
 * command lines, when a process started, and which process holds a file open. Linux answers from /proc without
 * starting anything; elsewhere the chain can be asked of `ps` (one start per step), and the
 * open-file question has no answer. Best effort throughout: what cannot be read is absent.
 */
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { tryRun } from './run.js';

export interface ProcessEntry {
  pid: number;
  ppid: number;
  /** the executable's name (`git`, `sh`), without its folder */
  name: string;
  /** the command line; empty when it could not be read */
  argv: string[];
}

/** One process from /proc (Linux), or null when it is gone or /proc is not there. */
export function procEntry(pid: number): ProcessEntry | null {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null;
  }
  // The command name is in parentheses and may hold spaces; fields follow the last ')'.
  const close = stat.lastIndexOf(')');
  const ppid = Number(stat.slice(close + 2).split(' ')[1]);
  if (!Number.isFinite(ppid)) return null;
  let argv: string[] = [];
  try {
    argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
  } catch {
    // the process went away between the two reads, or hides its command line
  }
  return { pid, ppid, name: stat.slice(stat.indexOf('(') + 1, close), argv };
}

let bootId: string | null | undefined;

/**
 * When the process `pid` started, as a token that differs for a later process given the same
 * pid: the boot's id and the start time in clock ticks since boot (/proc/PID/stat field 22),
 * so neither pid reuse nor a reboot repeats it. Null where /proc is not there, or when the
 * process is gone or hidden (`hidepid`).
 */
export function processStartToken(pid: number): string | null {
  if (!Number.isInteger(pid) || pid <= 0) return null;
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null;
  }
  // fields after the command name's ')': the first is field 3 (state), so field 22 is the 20th
  const ticks = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  if (!ticks || !/^\d+$/.test(ticks)) return null;
  if (bootId === undefined) {
    try {
      bootId = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim() || null;
    } catch {
      bootId = null;
    }
  }
  return `${bootId ?? 'boot'}:${ticks}`;
}

/** One process as `ps` prints it (its arguments split at spaces: ps does not say where they were). */
async function psEntry(pid: number): Promise<ProcessEntry | null> {
  try {
    const r = await tryRun('ps', ['-o', 'ppid=', '-o', 'args=', '-p', String(pid)]);
    const m = r.code === 0 ? /^(\d+)\s+(.*)$/.exec(r.stdout.toString('utf8').trim()) : null;
    if (!m) return null;
    const argv = m[2].split(/\s+/);
    return { pid, ppid: Number(m[1]), name: (argv[0] ?? '').split('/').pop() ?? '', argv };
  } catch {
    return null;
  }
}

/**
 * The processes above `startPid` (itself first), nearest first, at most `maxDepth` of them;
 * the walk ends at pid 1 or at the first process it cannot read. `ps: true` asks `ps` where
 * there is no /proc; without it the walk is empty there (for callers on every commit, which
 * must not start a process per step).
 */
export async function* processAncestors(startPid: number, maxDepth: number, opts: { ps?: boolean } = {}): AsyncGenerator<ProcessEntry> {
  const usePs = process.platform !== 'linux';
  if (usePs && !opts.ps) return;
  let pid = startPid;
  for (let depth = 0; depth < maxDepth && pid > 1; depth++) {
    const p = usePs ? await psEntry(pid) : procEntry(pid);
    if (!p) return;
    yield p;
    pid = p.ppid;
  }
}

/** The pid of a process with `path` open, from /proc (null elsewhere, or when none). */
export function processHolding(path: string): number | null {
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((p) => /^\d+$/.test(p));
  } catch {
    return null;
  }
  for (const pid of pids) {
    let fds: string[];
    try {
      fds = readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue;
    }
    for (const fd of fds) {
      try {
        if (readlinkSync(`/proc/${pid}/fd/${fd}`) === path) return Number(pid);
      } catch {
        // the process or descriptor went away
      }
    }
  }
  return null;
}
