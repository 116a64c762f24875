/**
 * Is a rebase, merge, cherry-pick, revert or bisect in progress? (docs/hooks.md: the
 * commit hooks stay quiet then.) Read from the git dir and the HEAD reflog, no git process.
 */
import { closeSync, constants, existsSync, fstatSync, openSync, readSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { processAncestors } from '../process/proc.js';
import { gitCommandLine } from './argv.js';

const MARKERS = ['rebase-merge', 'rebase-apply', 'MERGE_HEAD', 'CHERRY_PICK_HEAD', 'REVERT_HEAD', 'BISECT_LOG', 'sequencer'];
/** Reflog messages of commits made by a sequencer command rather than by `git commit`. */
const SEQUENCER_REFLOG = /^((rebase|cherry-pick|revert|merge|pull|am)\b|commit \((merge|cherry-pick)\))/;

export function operationInProgress(gitDir: string): string | null {
  for (const m of MARKERS) if (existsSync(join(gitDir, m))) return m;
  return null;
}

export interface ReflogEntry {
  old: string;
  new: string;
  message: string;
}

/** The last entry of HEAD's reflog (read from the end of the file), or null. */
export function lastHeadReflog(gitDir: string): ReflogEntry | null {
  let fd: number;
  try {
    fd = openSync(join(gitDir, 'logs', 'HEAD'), 'r');
  } catch {
    return null;
  }
  try {
    const size = fstatSync(fd).size;
    const len = Math.min(size, 4096);
    const buf = Buffer.alloc(len);
    readSync(fd, buf, 0, len, size - len);
    const lines = buf.toString('utf8').split('\n').filter(Boolean);
    const last = lines[lines.length - 1];
    const m = last && /^([0-9a-f]{40}) ([0-9a-f]{40}) [^\t]*\t(.*)$/.exec(last);
    return m ? { old: m[1], new: m[2], message: m[3] } : null;
  } finally {
    closeSync(fd);
  }
}

/**
 * The commit `head` was made by a sequencer command (a cherry-pick without conflicts leaves no
 * other trace), or concluded one (`git commit` after a conflicted merge or cherry-pick).
 */
export function madeBySequencer(entry: ReflogEntry | null, head: string): boolean {
  return entry !== null && entry.new === head && SEQUENCER_REFLOG.test(entry.message);
}

/** A sequencer command among git's arguments (`git cherry-pick ...`, `git -c x=y revert ...`). */
export function isSequencerCommand(argv: string[] | null): boolean {
  const sub = argv ? gitCommandLine(argv)?.command : undefined;
  return sub !== undefined && /^(cherry-pick|revert|rebase|merge|pull|am)$/.test(sub);
}

/**
 * This hook runs under a sequencer command, directly or through the `git commit` it starts
 * (`git cherry-pick --continue`, `git revert --continue` after a conflict).
 */
export async function runBySequencer(maxDepth = 6): Promise<boolean> {
  // Linux only (no `ps` per step): the commit hooks run on every commit.
  for await (const p of processAncestors(process.ppid, maxDepth)) if (p.name === 'git' && isSequencerCommand(p.argv)) return true;
  return false;
}

/**
 * The message `git revert` wrote: a conflicted revert concluded by a plain `git commit`
 * leaves no other trace by the time post-commit runs (REVERT_HEAD is gone, the reflog says
 * "commit").
 */
export function isRevertMessage(message: string): boolean {
  return /^This reverts commit [0-9a-f]{40}\.$/m.test(message);
}

/**
 * The commits the pending `git merge --squash` squashes, as git lists them in `SQUASH_MSG`
 * (a `commit <id>` line each), at most `max`; empty when there is no squash merge pending.
 */
export function squashedCommits(gitDir: string, max = 200): string[] {
  const text = readHead(join(gitDir, 'SQUASH_MSG'), 1 << 20);
  if (text === null) return [];
  const out: string[] = [];
  for (const m of text.matchAll(/^commit ([0-9a-f]{40})$/gm)) if (out.length < max && !out.includes(m[1])) out.push(m[1]);
  return out;
}

/** The size in bytes of HEAD's reflog (0 when there is none): where the entries made after now will start. */
export function headReflogSize(gitDir: string): number {
  try {
    return statSync(join(gitDir, 'logs', 'HEAD')).size;
  } catch {
    return 0;
  }
}

/** HEAD's reflog entries written after its first `offset` bytes (at most a few KB read). */
export function headReflogSince(gitDir: string, offset: number): ReflogEntry[] {
  const text = readHead(join(gitDir, 'logs', 'HEAD'), 8192, offset);
  if (text === null) return [];
  const out: ReflogEntry[] = [];
  for (const line of text.split('\n')) {
    const m = /^([0-9a-f]{40}) ([0-9a-f]{40}) [^\t]*\t(.*)$/.exec(line);
    if (m) out.push({ old: m[1], new: m[2], message: m[3] });
  }
  return out;
}

/** Up to `max` bytes of a regular file from `offset`, or null when it is absent or not a regular file. */
function readHead(path: string, max: number, offset = 0): string | null {
  let fd: number;
  try {
    // Never blocks: a FIFO in its place is answered "not a regular file".
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch {
    return null;
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile() || st.size <= offset) return st.isFile() ? '' : null;
    const buf = Buffer.alloc(Math.min(st.size - offset, max));
    const n = readSync(fd, buf, 0, buf.length, offset);
    return buf.subarray(0, n).toString('utf8');
  } finally {
    closeSync(fd);
  }
}
