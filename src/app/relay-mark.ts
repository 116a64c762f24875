/**
 * Whether a `write` asks for a relay: `--relay`, or `handoff.relay.tasksPerSession` (off by
 * default) once the lines `status: completed` in `handoff.relay.stateFile` (a task list such
 * as GLOBAL_STATE.md) grew by that many since the last relay mark. Counted at write time; the
 * baseline is kept per worktree. The mark is a trailer of the version (docs/format.md).
 */
import type { Repo } from '../git/repo.js';
import { readLocalState, writeLocalState } from '../state/local-state.js';
import { countCompleted } from '../core/relay-prompt.js';
import { relayTrailers, tasksDue, type RelayReason } from '../core/relay.js';
import { writeHandoff, type WriteRequest, type WriteResult } from './write.js';
import { readWorkTreeFileOrNull } from '../state/bounded-file.js';

const BASELINE_STATE = 'relay-tasks';

export interface RelayMark {
  reason: RelayReason;
  trailers: Record<string, string>;
  /** the completed count at this mark; null when no state file is configured */
  completed: number | null;
}

export async function relayMark(repo: Repo, explicit: boolean): Promise<RelayMark | null> {
  const perSession = await repo.configInt('handoff.relay.tasksPerSession', 0);
  const stateFile = await repo.configGet('handoff.relay.stateFile');
  if (!explicit && (perSession <= 0 || !stateFile)) return null;
  let completed: number | null = null;
  if (perSession > 0 && stateFile) {
    // no state file yet (or none that is a regular file inside the work tree): nothing completed
    const text = (repo.workTree ? readWorkTreeFileOrNull(repo.workTree, stateFile)?.toString('utf8') : '') ?? '';
    completed = countCompleted(text);
  }
  if (explicit) return { reason: 'requested', trailers: relayTrailers('requested', completed), completed };
  const baseline = readLocalState<{ completed: number }>(repo.gitDir, BASELINE_STATE)?.completed ?? 0;
  if (completed === null || !tasksDue(completed, baseline, perSession)) return null;
  return { reason: 'tasks-per-session', trailers: relayTrailers('tasks-per-session', completed), completed };
}

/** After the version is written: the count it was marked at becomes the new baseline. */
export function recordRelayMark(repo: Repo, mark: RelayMark, version: string): void {
  if (mark.completed !== null) writeLocalState(repo.gitDir, BASELINE_STATE, { completed: mark.completed, version });
}

/**
 * `write`, marked as asking for a relay when `relay` is set or the task count says so. The
 * count's baseline moves only once a version was really written (not on a dry run, not on
 * an unchanged handoff), so a relay that was not marked is still due next time.
 */
export async function writeWithRelayMark(
  repo: Repo,
  req: Omit<WriteRequest, 'trailers'>,
  relay: boolean,
): Promise<WriteResult & { relay: RelayReason | null }> {
  const mark = await relayMark(repo, relay);
  const r = await writeHandoff(repo, { ...req, trailers: mark?.trailers });
  if (mark && !r.dryRun && !r.unchanged) recordRelayMark(repo, mark, r.version!);
  return { ...r, relay: mark?.reason ?? null };
}
