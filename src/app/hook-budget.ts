/**
 * The hooks' time budget (docs/hooks.md "Time budget"): a hook returns within it whatever a
 * remote sent. Reading the notes history is the work that grows with what a remote sends, so
 * a hook sets this process's read deadline (src/git/read-budget.ts); past it, the read stops
 * (keeping what it read for the next reader), the hook skips the work that needed it, says so
 * in one line, and the user's commit or session goes on. `show` and `doctor` have no budget:
 * they finish the reading, and hooks after them jump over it.
 */
import { setReadDeadline, type ReadOverBudget } from '../git/read-budget.js';

/** Seconds a hook may take from its process's start (the pre-push hook has its own, `handoff.sync.hookTimeout`). */
export const HOOK_BUDGET_SECONDS = 2;
/** Kept back from the budget for what a hook does after its read stops: record what it read, answer, exit. */
const FINISH_MS = 300;

/** Starts the budget of a hook, counted from this process's start. */
export function startHookBudget(seconds = HOOK_BUDGET_SECONDS): void {
  setReadDeadline(performance.timeOrigin + seconds * 1000 - FINISH_MS);
}

/** (by name: a lazily loaded part of a command's bundle has its own copy of the class) */
export function isOverBudget(e: unknown): e is ReadOverBudget {
  return e instanceof Error && e.name === 'ReadOverBudget';
}

/** The one line a hook prints for the work it skipped. */
export function skippedLine(what: string, e: ReadOverBudget): string {
  return `${what} was skipped: reading the notes history took this hook's ${HOOK_BUDGET_SECONDS} s budget (${e.commits} commits read, a long run of commits that record no version, as a remote can send); 'git handoff show' reads the rest once`;
}
