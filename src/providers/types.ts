/**
 * Work-item providers: `local` keeps everything in the notes;
 * `github` also mirrors receipts and fields to the tracker. A provider reads first and
 * returns its writes as a plan, so `--dry-run` prints the plan and runs none of it.
 */
import type { ItemState, ProviderName, WorkItemRef } from '../core/work-item.js';
import type { PullRequestFacts, Receipt } from '../core/receipt.js';

/** The provider steps, in the order they run (comment, handoff-doc field, status field). */
export type StepName = 'comment' | 'handoff-doc' | 'status';

export interface PlannedStep {
  step: StepName;
  /** false: already done (an earlier run did it), nothing to write */
  needed: boolean;
  detail: string;
  run(): Promise<void>;
}

export interface SyncRequest {
  ref: WorkItemRef;
  receipt: Receipt;
  /** the handoff-doc field's value, when this receipt sets it */
  handoffDoc?: string;
  /** the status field's value, when this receipt sets it */
  status?: ItemState;
}

export interface ItemDescription {
  title: string;
  acceptance: string;
}

/** What the tracker says of an item (read-only; `status` compares it with our record). */
export interface RemoteItem {
  /** the issue's state as gh prints it: OPEN or CLOSED */
  issueState: string;
  title: string;
  /** the board's status option and handoff-doc text; null without a project, or when unset */
  boardStatus: string | null;
  boardHandoffDoc: string | null;
  /** the names of those two fields on the board */
  statusField: string | null;
  handoffDocField: string | null;
}

export interface Provider {
  readonly name: ProviderName;
  /** title and acceptance from the tracker; null when the tracker does not know them (local) */
  describe(ref: WorkItemRef): Promise<ItemDescription | null>;
  /** reads what is there and plans the writes still needed for this receipt */
  plan(req: SyncRequest): Promise<PlannedStep[]>;
  /** the open pull request of `branch` with its check results (null: none, or no tracker) */
  pullRequest(ref: WorkItemRef, branch: string): Promise<PullRequestFacts | null>;
  /** the issue and its board fields as the tracker has them, read-only (null: no tracker) */
  inspect(ref: WorkItemRef): Promise<RemoteItem | null>;
}
