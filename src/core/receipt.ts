/**
 * Receipts: the evidence a transition leaves behind (docs/work-items.md). A handoff
 * receipt is `{id, workItem, session, handoffDocPath, handoffDocHash, commit, receiptIds,
 * fromStatus, toStatus, at}`; every receipt carries those keys (null where they do not
 * apply), then `kind`, then what its kind adds. Pure.
 */
import { createHash } from 'node:crypto';
import type { ItemState, WorkItemRef } from './work-item.js';

export type ReceiptKind = 'claim' | 'handoff' | 'accept' | 'authorize' | 'retry' | 'reopen';
export const RECEIPT_KINDS: readonly ReceiptKind[] = ['claim', 'handoff', 'accept', 'authorize', 'retry', 'reopen'];

export interface CheckResult {
  name: string;
  status: string;
  conclusion: string;
}

export interface PullRequestFacts {
  number: number;
  url: string;
  headRefOid: string;
  baseRefName: string;
  checks: CheckResult[];
}

export interface Receipt {
  id: string;
  workItem: string;
  session: string | null;
  handoffDocPath: string | null;
  handoffDocHash: string | null;
  commit: string | null;
  receiptIds: string[];
  fromStatus: ItemState;
  toStatus: ItemState;
  /** ISO-8601 UTC: the commit time of the notes commit that recorded it */
  at: string;
  kind: ReceiptKind;
  /** authorize: the delivery scope */
  scope?: string;
  /** authorize: the retry budget */
  retries?: number;
  /** authorize: branch and base recorded; accept: the branch containing the commit */
  branch?: string | null;
  base?: string | null;
  /** authorize/retry: the open pull request and its checks (github) */
  pr?: PullRequestFacts | null;
  /** retry: the authorization it spends from */
  authorization?: string;
  /** retry: why */
  reason?: string | null;
  /** reopen: the person who did it */
  by?: string;
}

const BASE_KEYS = ['id', 'workItem', 'session', 'handoffDocPath', 'handoffDocHash', 'commit', 'receiptIds', 'fromStatus', 'toStatus', 'at', 'kind'] as const;
const EXTRA_KEYS = ['scope', 'retries', 'branch', 'base', 'pr', 'authorization', 'reason', 'by'] as const;

/** Stable JSON with the contract's key order first. */
export function serializeReceipt(r: Receipt): string {
  const out: Record<string, unknown> = {};
  for (const k of BASE_KEYS) out[k] = r[k];
  for (const k of EXTRA_KEYS) if (r[k] !== undefined) out[k] = r[k];
  return `${JSON.stringify(out, null, 2)}\n`;
}

export function parseReceipt(text: string): Receipt | null {
  try {
    const v = JSON.parse(text) as Receipt;
    if (!v || typeof v !== 'object' || typeof v.id !== 'string' || typeof v.workItem !== 'string') return null;
    if (!RECEIPT_KINDS.includes(v.kind)) v.kind = 'handoff';
    if (!Array.isArray(v.receiptIds)) v.receiptIds = [];
    return v;
  } catch {
    return null;
  }
}

/** `handoff-<n>-<first 12 hex of the document hash>`: the same document always gives the same id. */
export function handoffReceiptId(ref: WorkItemRef, docHash: string): string {
  return `handoff-${ref.number}-${docHash.slice(0, 12)}`;
}

/**
 * Ids of the other kinds: `<kind>-<n>-<12 hex>` from what makes the receipt unique within
 * the item's history (its position, commit and time), so two claims never share an id.
 */
export function receiptId(kind: Exclude<ReceiptKind, 'handoff'>, ref: WorkItemRef, seq: number, commit: string | null, at: string): string {
  const h = createHash('sha1')
    .update(`${ref.text}\n${kind}\n${seq}\n${commit ?? ''}\n${at}\n`)
    .digest('hex');
  return `${kind}-${ref.number}-${h.slice(0, 12)}`;
}
