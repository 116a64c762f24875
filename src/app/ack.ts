/**
 * `git handoff ack`: the new session's answer to a relay (HANDOFF_ACK.md
 * `status: accepted | failed`). The relay comes from HANDOFF_RELAY_ID. `accepted` is
 * refused, and recorded as failed, when the prompt is stale: a newer version exists. A
 * version that only moved the relayed note (an amend or rebase, app/relay-request.ts) is
 * not newer: the prompt told its handoff.
 */
import type { Repo } from '../git/repo.js';
import { HandoffStore } from '../git/handoff-store.js';
import { VersionReader } from '../history/reader.js';
import { RelayStore } from '../state/relay-store.js';
import { relayRequest } from './relay-request.js';
import { parseRelayId, type Ack } from '../core/relay.js';
import { AckRefused } from '../errors.js';

export interface AckRequest {
  relayId: string;
  status: 'accepted' | 'failed';
  reason: string | null;
}

export interface AckResult {
  relayId: string;
  version: string;
  status: 'accepted' | 'failed';
  reason: string | null;
}

export async function ackRelay(repo: Repo, req: AckRequest): Promise<AckResult> {
  const id = parseRelayId(req.relayId);
  if (!id) throw new AckRefused(`not a relay id: '${req.relayId}'`);
  const store = new RelayStore(repo.paths.commonDir);
  const record = store.findRecord(id.prefix);
  const attempt = record?.attempts.find((a) => a.relay_id === req.relayId);
  if (!record || !attempt) throw new AckRefused(`no relay ${req.relayId} in this repository`);
  const at = new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
  const existing = store.readAck(req.relayId);
  if (attempt.status !== 'waiting' || existing) {
    const how = existing ? (existing.status === 'timeout' ? 'timed out' : `was already answered (${existing.status})`) : attempt.status;
    throw new AckRefused(`relay ${req.relayId} is no longer waiting: it ${how}`);
  }

  let ack: Ack = { status: req.status, reason: req.reason, at };
  let stale: string | null = null;
  if (req.status === 'accepted') {
    const handoffs = new HandoffStore(repo);
    const { version } = await new VersionReader(repo).latest({ branch: record.branch });
    if (version && version.id !== record.version && !(await relayRequest(handoffs, version, version.branch ?? null))?.chain.includes(record.version)) {
      stale = version.id;
      ack = { status: 'failed', reason: `stale prompt: version ${version.id.slice(0, 12)} is newer than ${record.version.slice(0, 12)}`, at };
    }
  }
  if (!store.publishAck(req.relayId, ack)) {
    const won = store.readAck(req.relayId);
    throw new AckRefused(`relay ${req.relayId} is no longer waiting: it ${won?.status === 'timeout' ? 'timed out' : `was already answered (${won?.status})`}`);
  }
  if (stale)
    throw new AckRefused(`the relay prompt is stale: version ${stale.slice(0, 12)} was written after it; recorded the relay as failed`, {
      relay_id: req.relayId,
      newer: stale,
    });
  return { relayId: req.relayId, version: record.version, status: ack.status as 'accepted' | 'failed', reason: ack.reason };
}
