/**
 * `authorize`: a delivery-authorization receipt recording the scope, the retry budget and
 * the facts it rests on (head, branch, base, and for github the open PR and its checks).
 * `--use-retry` spends one retry from it, recording the new evidence. The seed restores it
 * and says when it is void.
 */
import { shellCommand } from '../core/shell-word.js';
import type { Repo } from '../git/repo.js';
import { upstreamOf } from '../git/reachability.js';
import { decideTransition } from '../core/item-states.js';
import type { WorkItemRef } from '../core/work-item.js';
import { receiptId, type PullRequestFacts, type Receipt } from '../core/receipt.js';
import {
  lastReceipt,
  openItem,
  providerProblem,
  refuseSecrets,
  receiptsOf,
  receiptTime,
  resolveSession,
  syncProvider,
  type ItemContext,
  type TransitionResult,
} from './work-items.js';
import { authorizationOf } from './seed.js';
import { ProviderFailed, TransitionRefused, UsageError } from '../errors.js';

export interface AuthorizeRequest {
  ref: WorkItemRef;
  scope?: string;
  retries?: string;
  useRetry: boolean;
  reason?: string;
  session?: string;
  dryRun: boolean;
}

async function pullRequest(ctx: ItemContext, branch: string | null, command: string): Promise<PullRequestFacts | null> {
  if (!branch) return null;
  try {
    return await ctx.provider.pullRequest(ctx.ref, branch);
  } catch (e) {
    const problem = providerProblem(e);
    if (problem !== null)
      throw new ProviderFailed(`github: reading the pull request of ${branch} failed: ${problem}; nothing was written; re-running '${command}' is safe`, {
        step: 'read',
      });
    throw e;
  }
}

/** The command exactly as asked, to print in a "re-running ... is safe" message. */
function rerunCommand(req: AuthorizeRequest): string {
  const args = ['git', 'handoff', 'authorize', '--work-item', req.ref.text];
  if (req.useRetry) args.push('--use-retry');
  if (req.scope !== undefined) args.push('--scope', req.scope);
  if (req.retries !== undefined) args.push('--retries', req.retries);
  if (req.reason !== undefined) args.push('--reason', req.reason);
  if (req.session !== undefined) args.push('--session', req.session);
  return shellCommand(args);
}

export async function authorizeItem(repo: Repo, req: AuthorizeRequest): Promise<TransitionResult> {
  const ctx = await openItem(repo, req.ref, { write: true });
  const { ref } = ctx;
  const command = rerunCommand(req);
  const head = await repo.headCommit();
  const branch = repo.headBranch();
  const session = resolveSession(repo, req.session);
  const comment = (receipt: Receipt) => syncProvider(ctx, receipt, () => ctx.provider.plan({ ref, receipt }), { dryRun: req.dryRun, command });
  const receipts = await receiptsOf(ctx.items, ctx.record);
  const current = ctx.record ? await authorizationOf(ctx, ctx.record, receipts) : null;
  const base = ctx.record!;

  if (req.useRetry) {
    if (req.scope !== undefined || req.retries !== undefined) throw new UsageError('authorize: --use-retry takes no --scope or --retries');
    const v = decideTransition('retry', ctx.state, { retriesLeft: current?.retriesLeft });
    if (!v.ok) throw new TransitionRefused(`cannot retry ${ref.text}: ${v.reason}`, { state: ctx.state });
    if (!current!.valid) throw new TransitionRefused(`cannot retry ${ref.text}: the authorization ${current!.receipt.id} is void: ${current!.reason}`);
    // A retry whose comment never reached the tracker is finished, not spent twice.
    const last = await lastReceipt(ctx, 'retry');
    if (last && last.authorization === current!.receipt.id && ref.provider !== 'local') {
      const pending = await syncProvider(ctx, last, () => ctx.provider.plan({ ref, receipt: last }), { dryRun: true, command });
      if (pending.some((s) => s.state === 'planned')) {
        const steps = await comment(last);
        return { workItem: ref.text, state: ctx.state, receipt: last, unchanged: true, dryRun: req.dryRun, provider: ref.provider, steps };
      }
    }
    await refuseSecrets(repo, { reason: req.reason, session });
    const pr = await pullRequest(ctx, branch, command);
    const at = await receiptTime(ctx);
    const receipt: Receipt = {
      ...stateKeepingReceipt('retry', { ctx, session, head, at, pr }, [current!.receipt.id]),
      authorization: current!.receipt.id,
      reason: req.reason ?? null,
    };
    return write(ctx, receipt, { ...base, receipts: [...base.receipts, receipt.id] }, req.dryRun, comment);
  }

  if (!req.scope || !req.scope.trim()) throw new UsageError('authorize: --scope is required');
  if (req.retries === undefined || !/^\d{1,4}$/.test(req.retries) || Number(req.retries) < 1)
    throw new UsageError('authorize: --retries must be a whole number of at least 1');
  const retries = Number(req.retries);
  await refuseSecrets(repo, { scope: req.scope, session });
  const v = decideTransition('authorize', ctx.state, { commit: head });
  if (!v.ok) throw new TransitionRefused(`cannot authorize delivery of ${ref.text}: ${v.reason}`, { state: ctx.state });
  const pr = await pullRequest(ctx, branch, command);
  const baseBranch = pr?.baseRefName ?? (await upstreamOf(repo, branch));

  // The same authorization again (same scope, budget and facts): finish it, do not repeat it.
  const prev = current?.receipt;
  if (prev && current!.valid && prev.scope === req.scope && prev.retries === retries && prev.commit === head && (prev.branch ?? null) === branch) {
    const steps = await comment(prev);
    return { workItem: ref.text, state: ctx.state, receipt: prev, unchanged: true, dryRun: req.dryRun, provider: ref.provider, steps };
  }
  const at = await receiptTime(ctx);
  const receipt: Receipt = {
    ...stateKeepingReceipt('authorize', { ctx, session, head, at, pr }, base.receipts.slice(-1)),
    scope: req.scope,
    retries,
    branch,
    base: baseBranch,
  };
  return write(ctx, receipt, { ...base, receipts: [...base.receipts, receipt.id], authorization: receipt.id }, req.dryRun, comment);
}

/**
 * What an authorize and a retry receipt share: neither moves the item's state nor cites a
 * handoff document; a GitHub item's receipt carries the pull request it was taken against.
 */
function stateKeepingReceipt(
  kind: 'authorize' | 'retry',
  facts: { ctx: ItemContext; session: Receipt['session']; head: Receipt['commit']; at: string; pr: PullRequestFacts | null },
  receiptIds: string[],
): Receipt {
  const { ctx, session, head, at, pr } = facts;
  const base = ctx.record!;
  return {
    id: receiptId(kind, ctx.ref, base.receipts.length, head, at),
    workItem: ctx.ref.text,
    session,
    handoffDocPath: base.handoffDoc,
    handoffDocHash: null,
    commit: head,
    receiptIds,
    fromStatus: ctx.state,
    toStatus: ctx.state,
    at,
    kind,
    ...(ctx.ref.provider === 'github' ? { pr } : {}),
  };
}

async function write(
  ctx: ItemContext,
  receipt: Receipt,
  next: NonNullable<ItemContext['record']>,
  dryRun: boolean,
  comment: (r: Receipt) => Promise<TransitionResult['steps']>,
): Promise<TransitionResult> {
  if (!dryRun) {
    await ctx.items.apply({
      kind: 'receipt',
      subject: `handoff item: ${receipt.kind} ${receipt.id} for ${ctx.ref.text}`,
      trailers: { 'Handoff-Item': ctx.ref.text, 'Handoff-Receipt': receipt.id },
      item: { ref: ctx.ref, record: next, expectBlob: ctx.stored.blob },
      receipts: [receipt],
    });
  }
  const steps = await comment(receipt);
  return { workItem: ctx.ref.text, state: next.state, receipt, unchanged: false, dryRun, provider: ctx.ref.provider, steps };
}
