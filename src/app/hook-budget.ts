/**
 * The hooks' time budget (docs/hooks.md "Time budget"): a hook returns within it whatever a
 * remote sent. Reading the notes history is the work that grows with what a remote sends, so
 * a hook sets this process's read deadline (src/git/read-budget.ts); past it, the read stops
 * (keeping what it read for the next reader), the hook skips the work that needed it, says so
 * in one line, and the user's commit or session goes on. `show` and `doctor` have no budget:
 * they finish the reading, and hooks after them jump over it.
 */
import { readDeadline, setReadDeadline, type ReadOverBudget } from '../git/read-budget.js';

/** Seconds a hook may take from its process's start (the pre-push hook has its own, `handoff.sync.hookTimeout`). */
export const HOOK_BUDGET_SECONDS = 2;
/** Kept back from the budget for what a hook does after its read stops: record what it read, answer, exit. */
const FINISH_MS = 300;

/** Starts the budget of a hook, counted from this process's start. */
export function startHookBudget(seconds = HOOK_BUDGET_SECONDS): void {
  setReadDeadline(performance.timeOrigin + seconds * 1000 - FINISH_MS);
}

/**
 * Runs work a hook may not skip (it has no later reader to do it: the landing of a squash
 * merge, the heal after a merge) with no read deadline, as post-rewrite runs, then puts the
 * hook's deadline back for the optional work after it.
 */
export async function outsideBudget<T>(work: () => Promise<T>): Promise<T> {
  const saved = readDeadline();
  setReadDeadline(Infinity);
  try {
    return await work();
  } finally {
    setReadDeadline(saved);
  }
}

/** (by name: a lazily loaded part of a command's bundle has its own copy of the class) */
export function isOverBudget(e: unknown): e is ReadOverBudget {
  return e instanceof Error && e.name === 'ReadOverBudget';
}

/** `read`'s answer, or why it stopped at the read deadline: for a check after work that is done, whose skipping changes nothing of that work. */
export async function orOverBudget<T>(read: () => Promise<T>): Promise<{ value: T } | { skipped: ReadOverBudget }> {
  try {
    return { value: await read() };
  } catch (e) {
    if (!isOverBudget(e)) throw e;
    return { skipped: e };
  }
}

/** The one line a hook prints for the work it skipped. */
export function skippedLine(what: string, e: ReadOverBudget): string {
  return `${what} was skipped: reading the notes history took this hook's ${HOOK_BUDGET_SECONDS} s budget (${e.commits} commits read, a long run of commits that record no version, as a remote can send); 'git handoff show' reads the rest once`;
}
