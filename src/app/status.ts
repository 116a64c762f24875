/**
 * `status`: read-only. For one item (or every item the notes know): its state, title,
 * handoff document and whether that document validates now, and its receipts, newest first.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Repo } from '../git/repo.js';
import { ItemStore } from '../git/item-store.js';
import { handoffDocPath, parseWorkItem, type ItemState, type WorkItemRef } from '../core/work-item.js';
import { validateHandoffDoc, type DocProblem } from '../core/handoff-doc.js';
import type { Receipt } from '../core/receipt.js';
import { openItem, receiptsOf } from './work-items.js';
import { docFacts, readDoc } from './doc.js';
import { authorizationOf } from './seed.js';
import { untrustedNotice } from './policy.js';
import { isHandoffError, Refused } from '../errors.js';

export interface ItemStatus {
  workItem: string;
  state: ItemState;
  title: string | null;
  handoffDoc: string | null;
  valid: boolean;
  problems: DocProblem[];
  receipts: Receipt[];
  authorization: { id: string; valid: boolean; reason: string | null; retriesLeft: number; scope: string | null } | null;
}

export async function itemStatus(repo: Repo, ref: WorkItemRef): Promise<{ status: ItemStatus; notice: string | null }> {
  const ctx = await openItem(repo, ref, { write: false });
  const record = ctx.record;
  const path = record?.handoffDoc ?? handoffDocPath(ref);
  const abs = join(ctx.workTree, path);
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
  return {
    notice: untrustedNotice(ctx.policy),
    status: {
      workItem: ref.text,
      state: ctx.state,
      title: record?.title ?? null,
      handoffDoc: exists || record?.handoffDoc ? path : null,
      valid: exists && problems.length === 0,
      problems,
      receipts,
      authorization: auth
        ? { id: auth.receipt.id, valid: auth.valid, reason: auth.reason, retriesLeft: auth.retriesLeft, scope: auth.receipt.scope ?? null }
        : null,
    },
  };
}

/** Every item the notes know, github then local, by number. */
export async function allStatuses(repo: Repo): Promise<{ statuses: ItemStatus[]; notice: string | null }> {
  if (!repo.workTree) throw new Refused('work items need a work tree; this is a bare repository');
  const records = await new ItemStore(repo).items();
  const statuses: ItemStatus[] = [];
  let notice: string | null = null;
  for (const r of records) {
    const s = await itemStatus(repo, parseWorkItem(r.workItem)!);
    statuses.push(s.status);
    notice = s.notice;
  }
  return { statuses, notice };
}
