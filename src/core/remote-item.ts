/**
 * Does the tracker agree with our record of a work item (`status`)? Pure: the
 * record's state and document, what the tracker says, the policy's state -> board option
 * mapping in; the differences out, each a short phrase, for one line.
 */
import type { ItemState } from './work-item.js';

export interface RemoteFacts {
  issueState: string;
  boardStatus: string | null;
  boardHandoffDoc: string | null;
  statusField: string | null;
  handoffDocField: string | null;
}

export function remoteDisagreements(
  local: { state: ItemState; handoffDoc: string | null },
  remote: RemoteFacts,
  statusValues: Record<ItemState, string>,
): string[] {
  const out: string[] = [];
  const closed = remote.issueState.toUpperCase() === 'CLOSED';
  if (closed && local.state !== 'done') out.push(`the issue is closed, our record says ${local.state}`);
  if (!closed && remote.issueState && local.state === 'done') out.push('the issue is still open, our record says done');
  if (remote.statusField !== null) {
    const want = statusValues[local.state];
    if ((remote.boardStatus ?? '').toLowerCase() !== want.toLowerCase()) {
      out.push(
        `the board's ${remote.statusField} is ${remote.boardStatus === null ? 'not set' : `'${remote.boardStatus}'`}, our record says ${local.state}${want !== local.state ? ` ('${want}')` : ''}`,
      );
    }
  }
  if (remote.handoffDocField !== null && local.handoffDoc !== null && remote.boardHandoffDoc !== local.handoffDoc) {
    out.push(
      `the board's ${remote.handoffDocField} is ${remote.boardHandoffDoc === null ? 'not set' : `'${remote.boardHandoffDoc}'`}, our record says ${local.handoffDoc}`,
    );
  }
  return out;
}
