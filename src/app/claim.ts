/**
 * `claim`: backlog -> in-progress with a claim receipt (session, head commit). The title and
 * acceptance come from the issue (github) or the flags (local). Re-running a claim whose
 * provider steps failed finishes them with the same receipt.
 */
import type { Repo } from '../git/repo.js';
import { decideTransition } from '../core/item-states.js';
import { newItemRecord, type WorkItemRef } from '../core/work-item.js';
import { receiptId, type Receipt } from '../core/receipt.js';
import { lastReceipt, openItem, providerProblem, refuseSecrets, receiptTime, resolveSession, syncProvider, type TransitionResult } from './work-items.js';
import { ProviderFailed, TransitionRefused, UnbornBranch, UsageError } from '../errors.js';

export interface ClaimRequest {
  ref: WorkItemRef;
  title?: string;
  acceptance?: string;
  session?: string;
  dryRun: boolean;
}

export async function claimItem(repo: Repo, req: ClaimRequest): Promise<TransitionResult> {
  const ctx = await openItem(repo, req.ref, { write: true });
  const { ref } = ctx;
  const session = resolveSession(repo, req.session);
  const command = `git handoff claim --work-item ${ref.text}`;
  const sync = (receipt: Receipt) =>
    syncProvider(ctx, receipt, () => ctx.provider.plan({ ref, receipt, status: 'in-progress' }), { dryRun: req.dryRun, command });

  // A claim already made (by this session, or with no session named) is finished, not refused.
  const previous = ctx.state === 'in-progress' ? await lastReceipt(ctx, 'claim') : null;
  if (previous && (!req.session || previous.session === session)) {
    const steps = await sync(previous);
    return { workItem: ref.text, state: 'in-progress', receipt: previous, unchanged: true, dryRun: req.dryRun, provider: ref.provider, steps };
  }

  const head = await repo.headCommit();
  const verdict = decideTransition('claim', ctx.state, { commit: head });
  if (!verdict.ok) {
    if (!head && ctx.state === 'backlog') throw new UnbornBranch(`cannot claim ${ref.text}: ${verdict.reason}`);
    throw new TransitionRefused(`cannot claim ${ref.text}: ${verdict.reason}`, { state: ctx.state });
  }

  let title = req.title ?? ctx.record?.title;
  let acceptance = req.acceptance ?? ctx.record?.acceptance;
  if (req.title === undefined || req.acceptance === undefined) {
    let described = null;
    try {
      described = await ctx.provider.describe(ref);
    } catch (e) {
      const problem = providerProblem(e);
      if (problem !== null)
        throw new ProviderFailed(`github: reading ${ref.text} failed: ${problem}; nothing was written; re-running '${command}' is safe`, { step: 'read' });
      throw e;
    }
    if (described) {
      title = req.title ?? described.title;
      acceptance = req.acceptance ?? described.acceptance;
    }
  }
  if (!title) throw new UsageError(`claim ${ref.text}: --title is required for a local work item`);
  await refuseSecrets(repo, { title, acceptance, session });

  const at = await receiptTime(ctx);
  const base = ctx.record ?? newItemRecord(ref, title, acceptance ?? '');
  const receipt: Receipt = {
    id: receiptId('claim', ref, base.receipts.length, head, at),
    workItem: ref.text,
    session,
    handoffDocPath: null,
    handoffDocHash: null,
    commit: head,
    receiptIds: [],
    fromStatus: ctx.state,
    toStatus: verdict.to,
    at,
    kind: 'claim',
  };
  const record = { ...base, title, acceptance: acceptance ?? '', state: verdict.to, receipts: [...base.receipts, receipt.id] };
  if (!req.dryRun) {
    await ctx.items.apply({
      kind: 'item',
      subject: `handoff item: claim ${ref.text}`,
      trailers: { 'Handoff-Item': ref.text, 'Handoff-Receipt': receipt.id },
      item: { ref, record, expectBlob: ctx.stored.blob },
      receipts: [receipt],
    });
  }
  const steps = await sync(receipt);
  return { workItem: ref.text, state: verdict.to, receipt, unchanged: false, dryRun: req.dryRun, provider: ref.provider, steps };
}
