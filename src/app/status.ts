/**
 * `status`: read-only. For one item (or every item the notes know): its state, title,
 * handoff document and whether that document validates now, and its receipts, newest first.
 */
import { existsSync } from 'node:fs';
import type { Repo } from '../git/repo.js';
import { ItemStore } from '../git/item-store.js';
import { handoffDocPath, parseWorkItem, type ItemState, type WorkItemRef } from '../core/work-item.js';
import { validateHandoffDoc, type DocProblem } from '../core/handoff-doc.js';
import type { Receipt } from '../core/receipt.js';
import { openItem, providerProblem, receiptsOf, type ItemContext } from './work-items.js';
import { remoteDisagreements } from '../core/remote-item.js';
import type { RemoteItem } from '../providers/types.js';
import { docFacts, readDoc } from './doc.js';
import { authorizationOf } from './seed.js';
import { untrustedNotice } from './policy.js';
import { isHandoffError, ProviderFailed } from '../errors.js';
import { requireWorkTree } from './repository.js';
import { serializeReceipt } from '../core/receipt.js';
import { insidePath } from '../state/bounded-file.js';

export interface ItemStatus {
  workItem: string;
  state: ItemState;
  title: string | null;
  handoffDoc: string | null;
  valid: boolean;
  problems: DocProblem[];
  receipts: Receipt[];
  authorization: { id: string; valid: boolean; reason: string | null; retriesLeft: number; scope: string | null } | null;
  /** the issue and board fields as the tracker has them (github items; null for local ones) */
  remote: RemoteItem | null;
  /** how the tracker and our record differ, one phrase each (empty: they agree) */
  disagreements: string[];
  /** why the tracker could not be read (listing every item only; one item exits 4 instead) */
  remoteError: string | null;
}

export async function itemStatus(repo: Repo, ref: WorkItemRef, opts: { keepGoing?: boolean } = {}): Promise<{ status: ItemStatus; notice: string | null }> {
  const ctx = await openItem(repo, ref, { write: false });
  const record = ctx.record;
  const path = record?.handoffDoc ?? handoffDocPath(ref);
  // the record may come from a remote: its document path stays inside the work tree
  const abs = insidePath(ctx.workTree, path, 'the handoff document');
  const exists = existsSync(abs);
  let problems: DocProblem[];
  if (!exists) {
    problems = [{ code: 'missing-document', line: null, message: `${path} does not exist; 'git handoff doc' renders its skeleton` }];
  } else {
    try {
      problems = validateHandoffDoc(readDoc(abs, path), await docFacts(ctx, path));
    } catch (e) {
      if (!isHandoffError(e)) throw e;
      problems = [{ code: 'missing-document', line: null, message: e.message }];
    }
  }
  const receipts = await receiptsOf(ctx.items, record);
  const auth = record ? await authorizationOf(ctx, record, receipts) : null;
  let remote: RemoteItem | null = null;
  let remoteError: string | null = null;
  try {
    remote = await inspectRemote(ctx);
  } catch (e) {
    // Listing every item, one tracker that cannot be read hides none of the others.
    if (!opts.keepGoing || !isHandoffError(e, ProviderFailed)) throw e;
    remoteError = e.message;
  }
  const handoffDoc = exists || record?.handoffDoc ? path : null;
  const disagreements = remote
    ? remoteDisagreements({ state: ctx.state, handoffDoc: record?.handoffDoc ?? null }, remote, ctx.policy.effective.statusValues)
    : [];
  // A record `purge` emptied reads as a new item; the one place to say so is where it is asked for.
  const purged = ctx.stored.purged ? `${ref.text}: its record was purged ('git handoff purge' removed a leaked secret from it); it reads as a new item` : null;
  return {
    notice: [purged, untrustedNotice(ctx.policy)].filter(Boolean).join('; ') || null,
    status: {
      workItem: ref.text,
      state: ctx.state,
      title: record?.title ?? null,
      handoffDoc,
      valid: exists && problems.length === 0,
      problems,
      receipts,
      authorization: auth
        ? { id: auth.receipt.id, valid: auth.valid, reason: auth.reason, retriesLeft: auth.retriesLeft, scope: auth.receipt.scope ?? null }
        : null,
      remote,
      disagreements,
      remoteError,
    },
  };
}

/**
 * The tracker's side, read-only (the source design's `session status`): any failure, gh's
 * own or an answer we cannot use, is an external step that failed (exit 4), never ours.
 */
async function inspectRemote(ctx: ItemContext): Promise<RemoteItem | null> {
  try {
    return await ctx.provider.inspect(ctx.ref);
  } catch (e) {
    const problem = providerProblem(e);
    if (problem === null) throw e;
    throw new ProviderFailed(
      `${ctx.ref.provider}: reading ${ctx.ref.text} failed: ${problem}; nothing was written; 'git handoff status' only reads, re-run it once gh works`,
      { step: 'read' },
    );
  }
}

/** Every item the notes know, github then local, by number. */
export async function allStatuses(repo: Repo): Promise<{ statuses: ItemStatus[]; notice: string | null }> {
  requireWorkTree(repo, 'work items', { plural: true });
  const records = await new ItemStore(repo).items();
  const statuses: ItemStatus[] = [];
  let notice: string | null = null;
  for (const r of records) {
    const s = await itemStatus(repo, parseWorkItem(r.workItem)!, { keepGoing: true });
    statuses.push(s.status);
    notice = s.notice;
  }
  return { statuses, notice };
}

/** `status --json`'s record of one item (the view's `/api/items` lists the same). */
export function itemJson(s: ItemStatus) {
  return {
    work_item: s.workItem,
    state: s.state,
    title: s.title,
    handoff_doc: s.handoffDoc,
    valid: s.valid,
    problems: s.problems,
    receipts: s.receipts.map((r) => JSON.parse(serializeReceipt(r))),
    remote: s.remote && {
      issue_state: s.remote.issueState,
      title: s.remote.title,
      status: s.remote.boardStatus,
      handoff_doc: s.remote.boardHandoffDoc,
    },
    disagreements: s.disagreements,
    remote_error: s.remoteError,
    authorization: s.authorization && {
      id: s.authorization.id,
      valid: s.authorization.valid,
      reason: s.authorization.reason,
      retries_left: s.authorization.retriesLeft,
      scope: s.authorization.scope,
    },
  };
}
