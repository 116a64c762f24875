/**
 * How long this process may go on reading the notes history: none for a command (it finishes
 * the work), a deadline for a hook (docs/hooks.md "Time budget"), which must return within its
 * budget whatever a remote sent. The walk checks it at every commit and hands it to git when
 * git reads a region for it (src/git/walk-skips.ts); what was read by then is recorded, so the
 * next reader goes on from there.
 */

/** Kept on the process's global object: each command's bundle (and each lazy part of it) has its own copy of this module. */
const KEY = Symbol.for('git-handoff.readDeadline');
const slot = globalThis as { [KEY]?: number };

/** From now on, reads of the notes history stop at `at` (ms since the epoch). */
export function setReadDeadline(at: number): void {
  slot[KEY] = at;
}

export function readDeadline(): number {
  return slot[KEY] ?? Infinity;
}

/** A read of the notes history stopped at the deadline; its caller skips what needed it. */
export class ReadOverBudget extends Error {
  constructor(readonly commits: number) {
    super(
      `stopped reading the notes history at this hook's time budget, ${commits} commits in (a long run of commits that record no version, as a remote can send); 'git handoff show' reads the rest`,
    );
    this.name = 'ReadOverBudget';
  }
}
