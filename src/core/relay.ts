/**
 * The relay's bookkeeping and decisions (docs/relay.md: a handoff with acknowledgement and a lock).
 * A version asks for a relay through its commit trailer; each attempt to relay it is
 * recorded; one attempt at a time (the lock); accepted is final; failed or timed out is not
 * tried again without `--retry`. Pure.
 */
export const RELAY_TRAILER = 'Handoff-Relay';
export const RELAY_COMPLETED_TRAILER = 'Handoff-Relay-Completed';

/** Why a version asks for a relay: `write --relay`, or the task count of `handoff.relay.tasksPerSession`. */
export type RelayReason = 'requested' | 'tasks-per-session';

export type AttemptStatus = 'waiting' | 'accepted' | 'failed' | 'timeout' | 'interrupted';

export interface RelayAttempt {
  relay_id: string;
  status: AttemptStatus;
  /** why it failed, timed out or was interrupted */
  reason: string | null;
  session: string;
  prompt: string;
  pid: number;
  started_at: string;
  acked_at: string | null;
  finished_at: string | null;
}

export interface RelayRecord {
  version: string;
  branch: string | null;
  attempts: RelayAttempt[];
}

export interface Ack {
  status: 'accepted' | 'failed' | 'timeout';
  reason: string | null;
  at: string;
}

export function relayReasonOf(trailers: Record<string, string>): RelayReason | null {
  const v = trailers[RELAY_TRAILER];
  return v === 'requested' || v === 'tasks-per-session' ? v : null;
}

/** Trailers for a version that asks for a relay. */
export function relayTrailers(reason: RelayReason, completed: number | null): Record<string, string> {
  return { [RELAY_TRAILER]: reason, ...(completed !== null ? { [RELAY_COMPLETED_TRAILER]: String(completed) } : {}) };
}

/**
 * `handoff.relay.tasksPerSession`: relay when the completed count has grown by `perSession`
 * since the last relay mark (0 before the first).
 */
export function tasksDue(completed: number, baseline: number, perSession: number): boolean {
  // A state file that was reset counts from its new start.
  return perSession > 0 && completed - (completed < baseline ? 0 : baseline) >= perSession;
}

export type RelayDecision = { start: true; attempt: number } | { start: false; kind: 'relayed' | 'waiting' | 'failed'; why: string };

/**
 * Whether to start an attempt for a version asking for a relay. `earlier`: the records of
 * the versions whose note this one carries unchanged (a rewrite moved it, app/relay-request.ts):
 * the same request, so an accepted relay of any of them is final, and while this version
 * has no attempt of its own, their last attempt stands for it (waiting, or failed until
 * `--retry`).
 */
export function decideRelay(record: RelayRecord | null, opts: { retry: boolean }, earlier: readonly RelayRecord[] = []): RelayDecision {
  const attempts = record?.attempts ?? [];
  for (const r of [...(record ? [record] : []), ...earlier]) {
    const accepted = r.attempts.find((a) => a.status === 'accepted');
    if (!accepted) continue;
    const moved = r !== record;
    return {
      start: false,
      kind: 'relayed',
      why: `version ${r.version.slice(0, 12)} was already relayed (${accepted.relay_id})${moved ? '; the latest version carries its note, moved by a rewrite' : ''}`,
    };
  }
  const last = attempts[attempts.length - 1] ?? lastOf(earlier);
  if (!last) return { start: true, attempt: 1 };
  if (last.status === 'waiting') return { start: false, kind: 'waiting', why: `relay ${last.relay_id} is in progress` };
  if (!opts.retry)
    return {
      start: false,
      kind: 'failed',
      why: `relay ${last.relay_id} ${last.status === 'timeout' ? 'timed out' : last.status}${last.reason && last.status !== 'timeout' ? ` (${last.reason})` : ''}; run with --retry to try again`,
    };
  return { start: true, attempt: attempts.length + 1 };
}

/** The newest attempt of these records (by start time), if any. */
function lastOf(records: readonly RelayRecord[]): RelayAttempt | undefined {
  let last: RelayAttempt | undefined;
  for (const r of records) {
    const a = r.attempts[r.attempts.length - 1];
    if (a && (!last || a.started_at > last.started_at)) last = a;
  }
  return last;
}

export function relayIdFor(version: string, attempt: number): string {
  return `${version.slice(0, 12)}-${attempt}`;
}

/** The version prefix and attempt number of a relay id, or null when it is not one. */
export function parseRelayId(id: string): { prefix: string; attempt: number } | null {
  const m = /^([0-9a-f]{12})-([1-9]\d*)$/.exec(id);
  return m ? { prefix: m[1], attempt: Number(m[2]) } : null;
}

/** The attempt's outcome from its ack, when one came. */
export function settle(attempt: RelayAttempt, ack: Ack | null, now: string): RelayAttempt {
  if (!ack) return { ...attempt, status: 'timeout', reason: 'timeout', finished_at: now };
  if (ack.status === 'timeout') return { ...attempt, status: 'timeout', reason: ack.reason ?? 'timeout', finished_at: now };
  return { ...attempt, status: ack.status, reason: ack.reason, acked_at: ack.at, finished_at: now };
}
