/**
 * `accept` (ready-for-review -> done on a commit that exists and is reachable from a branch)
 * and `reopen` (back to backlog; a person only). Each leaves a receipt; a re-run after a
 * provider failure finishes the provider steps with the same receipt.
 */
import type { Repo } from '../git/repo.js';
import { branchContaining, resolveCommit } from '../git/reachability.js';
import { decideTransition } from '../core/item-states.js';
import type { ItemState, WorkItemRef } from '../core/work-item.js';
import { receiptId, type Receipt } from '../core/receipt.js';
import { lastReceipt, openItem, receiptTime, refuseSecrets, resolveSession, syncProvider, type ItemContext, type TransitionResult } from './work-items.js';
import { agentActive } from './actor.js';
import { TransitionRefused } from '../errors.js';

async function record(
  ctx: ItemContext,
  receipt: Receipt,
  to: ItemState,
  opts: { dryRun: boolean; command: string; verb: string; clearAuthorization?: boolean },
): Promise<TransitionResult> {
  const { ref } = ctx;
  const base = ctx.record!;
  const next = { ...base, state: to, receipts: [...base.receipts, receipt.id], authorization: opts.clearAuthorization ? null : base.authorization };
  if (!opts.dryRun) {
    await ctx.items.apply({
      kind: 'item',
      subject: `handoff item: ${opts.verb} ${ref.text} (${base.state} -> ${to})`,
      trailers: { 'Handoff-Item': ref.text, 'Handoff-Receipt': receipt.id },
      item: { ref, record: next, expectBlob: ctx.stored.blob },
      receipts: [receipt],
    });
  }
  const steps = await syncProvider(ctx, receipt, () => ctx.provider.plan({ ref, receipt, status: to }), opts);
  return { workItem: ref.text, state: to, receipt, unchanged: false, dryRun: opts.dryRun, provider: ref.provider, steps };
}

async function resume(ctx: ItemContext, receipt: Receipt, dryRun: boolean, command: string): Promise<TransitionResult> {
  const steps = await syncProvider(ctx, receipt, () => ctx.provider.plan({ ref: ctx.ref, receipt, status: receipt.toStatus }), { dryRun, command });
  return { workItem: ctx.ref.text, state: receipt.toStatus, receipt, unchanged: true, dryRun, provider: ctx.ref.provider, steps };
}

export async function acceptItem(repo: Repo, req: { ref: WorkItemRef; commit: string; session?: string; dryRun: boolean }): Promise<TransitionResult> {
  const ctx = await openItem(repo, req.ref, { write: true });
  const command = `git handoff accept --work-item ${req.ref.text} --commit ${req.commit}`;
  const session = resolveSession(repo, req.session);
  await refuseSecrets(repo, { session });
  const commit = await resolveCommit(repo, req.commit);
  const previous = ctx.state === 'done' ? await lastReceipt(ctx, 'accept') : null;
  if (previous && previous.commit === commit) return resume(ctx, previous, req.dryRun, command);
  const reachable = commit ? await branchContaining(repo, commit) : null;
  const v = decideTransition('accept', ctx.state, { commit, reachableFrom: reachable });
  if (!v.ok) {
    const reason = ctx.state === 'ready-for-review' && !commit ? `commit ${req.commit} does not exist` : v.reason;
    throw new TransitionRefused(`cannot accept ${req.ref.text}: ${reason}`, { state: ctx.state });
  }
  const at = await receiptTime(ctx);
  const receipt: Receipt = {
    id: receiptId('accept', req.ref, ctx.record!.receipts.length, commit, at),
    workItem: req.ref.text,
    session,
    handoffDocPath: ctx.record!.handoffDoc,
    handoffDocHash: null,
    commit,
    receiptIds: ctx.record!.receipts.slice(-1),
    fromStatus: ctx.state,
    toStatus: v.to,
    at,
    kind: 'accept',
    branch: reachable,
  };
  return record(ctx, receipt, v.to, { dryRun: req.dryRun, command, verb: 'accept' });
}

export async function reopenItem(repo: Repo, req: { ref: WorkItemRef; dryRun: boolean }): Promise<TransitionResult> {
  const ctx = await openItem(repo, req.ref, { write: true });
  const command = `git handoff reopen --work-item ${req.ref.text}`;
  const actor = agentActive(repo) ? 'agent' : 'person';
  const previous = ctx.state === 'backlog' && actor === 'person' ? await lastReceipt(ctx, 'reopen') : null;
  if (previous) return resume(ctx, previous, req.dryRun, command);
  const v = decideTransition('reopen', ctx.state, { actor });
  if (!v.ok) throw new TransitionRefused(`cannot reopen ${req.ref.text}: ${v.reason}`, { state: ctx.state });
  const ids = await ctx.items.identities();
  const at = await receiptTime(ctx);
  const head = await repo.headCommit();
  const receipt: Receipt = {
    id: receiptId('reopen', req.ref, ctx.record!.receipts.length, head, at),
    workItem: req.ref.text,
    session: null,
    handoffDocPath: ctx.record!.handoffDoc,
    handoffDocHash: null,
    commit: head,
    receiptIds: [],
    fromStatus: ctx.state,
    toStatus: v.to,
    at,
    kind: 'reopen',
    by: `${ids.committer.name} <${ids.committer.email}>`,
  };
  return record(ctx, receipt, v.to, { dryRun: req.dryRun, command, verb: 'reopen', clearAuthorization: true });
}
