/**
 * The relay's files under the common git dir (`<common-dir>/handoff/relay/`), shared by
 * every worktree of the repository and never pushed: records (one per version), locks
 * (one relay per version, whatever the number of relay processes), acks and prompts.
 *
 * The lock is the one lock of ./lock.ts: published with link(2), naming its owner; a lock
 * whose owner is gone on this host is taken over. An ack is published with link(2), so exactly one of
 * "the new session acked" and "the relay gave up waiting" wins.
 */
import { mkdirSync, readdirSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from './atomic-write.js';
import { linkNew, readLockOwner, tryLock, unlock, type LockOwner, type LockResult } from './lock.js';
import { jsonText, readJsonFile, writeJsonFile } from './json-file.js';
import type { Ack, RelayRecord } from '../core/relay.js';
import { isObjectId } from '../core/object-id.js';

export type { LockOwner, LockResult } from './lock.js';

export class RelayStore {
  readonly dir: string;

  constructor(commonDir: string) {
    this.dir = join(commonDir, 'handoff', 'relay');
  }

  private path(...parts: string[]): string {
    return join(this.dir, ...parts);
  }

  private ensure(sub = ''): string {
    const d = this.path(sub);
    mkdirSync(d, { recursive: true });
    return d;
  }

  readRecord(version: string): RelayRecord | null {
    return readJsonFile<RelayRecord>(this.path('records', `${version}.json`));
  }

  writeRecord(record: RelayRecord): void {
    writeJsonFile(this.path('records', `${record.version}.json`), record);
  }

  /** Every record (for `relay status`), in no particular order. */
  listRecords(): RelayRecord[] {
    let names: string[] = [];
    try {
      names = readdirSync(this.path('records')).filter((n) => n.endsWith('.json') && isObjectId(n.slice(0, -5)));
    } catch {
      return [];
    }
    return names.map((n) => readJsonFile<RelayRecord>(this.path('records', n))).filter((r): r is RelayRecord => r !== null);
  }

  /** The record whose version starts with `prefix`. */
  findRecord(prefix: string): RelayRecord | null {
    return this.listRecords().find((r) => r.version.startsWith(prefix)) ?? null;
  }

  private lockPath(version: string): string {
    return this.path('locks', `${version}.lock`);
  }

  /** Takes the lock of one version's relay (./lock.ts); takes over a lock whose owner died. */
  tryLock(version: string): LockResult {
    return tryLock(this.lockPath(version));
  }

  unlock(version: string): void {
    unlock(this.lockPath(version));
  }

  lockOwner(version: string): LockOwner | null {
    return readLockOwner(this.lockPath(version));
  }

  /** Publishes an ack for a relay id; false when one exists already (the first ack wins). */
  publishAck(relayId: string, ack: Ack): boolean {
    this.ensure('acks');
    return linkNew(this.path('acks', `${relayId}.json`), jsonText(ack, true));
  }

  readAck(relayId: string): Ack | null {
    return readJsonFile<Ack>(this.path('acks', `${relayId}.json`));
  }

  promptPath(relayId: string): string {
    return this.path('prompts', `${relayId}.md`);
  }

  writePrompt(relayId: string, text: string): string {
    const p = this.promptPath(relayId);
    writeFileAtomic(p, text);
    return p;
  }

  /** Moves an accepted prompt to `archive/` (archived, not deleted: what a session was told stays readable). */
  archivePrompt(relayId: string): string {
    this.ensure('archive');
    const to = this.path('archive', `${relayId}.md`);
    try {
      renameSync(this.promptPath(relayId), to);
    } catch {
      /* already moved */
    }
    return to;
  }
}
