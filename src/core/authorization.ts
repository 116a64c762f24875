/**
 * Delivery authorization (the source's "交付授权回执"): a receipt recording the
 * scope, a retry budget and the facts it rests on (work item, branch, base, head, PR and
 * checks). A session switch, a normal commit or a rebase inside the scope needs no new
 * confirmation; the authorization is void once a recorded fact no longer holds. Pure.
 */
import type { Receipt } from './receipt.js';

export interface AuthorizationFacts {
  /** the work item the current branch's latest handoff names, if any */
  currentWorkItem: string | null;
  /** HEAD's branch now (null: detached) */
  branch: string | null;
  /** the base branch now, as the authorization's source knows it (null: unknown) */
  base: string | null;
  /** retry receipts recorded against this authorization */
  retriesUsed: number;
}

export interface AuthorizationView {
  receipt: Receipt;
  valid: boolean;
  /** why it is void (null when valid) */
  reason: string | null;
  retriesLeft: number;
}

/** Decides whether the recorded facts still hold. */
export function assessAuthorization(auth: Receipt, facts: AuthorizationFacts): AuthorizationView {
  const budget = auth.retries ?? 0;
  const retriesLeft = Math.max(0, budget - facts.retriesUsed);
  const reasons: string[] = [];
  if (facts.currentWorkItem && facts.currentWorkItem !== auth.workItem) reasons.push(`another work item is current (${facts.currentWorkItem})`);
  if ((auth.branch ?? null) !== facts.branch)
    reasons.push(`the branch changed (authorized on ${auth.branch ?? 'a detached HEAD'}, now ${facts.branch ?? 'a detached HEAD'})`);
  if ((auth.base ?? null) !== null && facts.base !== (auth.base ?? null))
    reasons.push(`the base branch changed (authorized against ${auth.base}, now ${facts.base ?? 'none'})`);
  if (retriesLeft === 0) reasons.push(`the retries are spent (${facts.retriesUsed} of ${budget} used)`);
  return { receipt: auth, valid: reasons.length === 0, reason: reasons.length ? reasons.join('; ') : null, retriesLeft };
}
