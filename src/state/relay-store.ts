/**
 * The relay's files under the common git dir (`<common-dir>/handoff/relay/`), shared by
 * every worktree of the repository and never pushed: records (one per version), locks
 * (one relay per version, whatever the number of relay processes), acks and prompts.
 *
 * The lock is a file published with link(2), naming its owner (pid, host); a lock whose
 * owner is gone on this host is taken over. An ack is published with link(2), so exactly one of
 * "the new session acked" and "the relay gave up waiting" wins.
 */
import { closeSync, linkSync, mkdirSync, openSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { temporaryPath, writeFileAtomic } from './atomic-write.js';
import { jsonText, readJsonFile, writeJsonFile } from './json-file.js';
import type { Ack, RelayRecord } from '../core/relay.js';

export interface LockOwner {
  pid: number;
  host: string;
  since: string;
}

export type LockResult = { acquired: true } | { acquired: false; owner: LockOwner | null };

const STEAL_GRACE_MS = 30_000;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

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
      names = readdirSync(this.path('records')).filter((n) => /^[0-9a-f]{40}\.json$/.test(n));
    } catch {
      return [];
    }
    return names.map((n) => readJsonFile<RelayRecord>(this.path('records', n))).filter((r): r is RelayRecord => r !== null);
  }

  /** The record whose version starts with `prefix`. */
  findRecord(prefix: string): RelayRecord | null {
    return this.listRecords().find((r) => r.version.startsWith(prefix)) ?? null;
  }

  /** Takes the lock of one version's relay; takes over a lock whose owner died. */
  tryLock(version: string): LockResult {
    this.ensure('locks');
    const lock = this.path('locks', `${version}.lock`);
    const me: LockOwner = { pid: process.pid, host: hostname(), since: new Date().toISOString() };
    for (let i = 0; i < 2; i++) {
      // link(2) publishes the lock with its owner already inside: never seen half-written
      if (this.linkNew(lock, JSON.stringify(me))) return { acquired: true };
      const owner = readJsonFile<LockOwner>(lock);
      if (!this.stale(lock, owner) || !this.takeOver(lock, owner)) return { acquired: false, owner };
    }
    return { acquired: false, owner: readJsonFile<LockOwner>(lock) };
  }

  private stale(lock: string, owner: LockOwner | null): boolean {
    if (owner) return owner.host === hostname() && !alive(owner.pid);
    // unreadable: being written right now, or left half-written by a crash long ago
    try {
      return Date.now() - statSync(lock).mtimeMs > STEAL_GRACE_MS;
    } catch {
      return true;
    }
  }

  /** Removes a dead owner's lock; a second-level lock keeps two takers from both succeeding. */
  private takeOver(lock: string, owner: LockOwner | null): boolean {
    const guard = `${lock}.takeover`;
    try {
      closeSync(openSync(guard, 'wx'));
    } catch {
      try {
        if (Date.now() - statSync(guard).mtimeMs > STEAL_GRACE_MS) rmSync(guard, { force: true });
      } catch {
        /* gone meanwhile */
      }
      return false;
    }
    try {
      const now = readJsonFile<LockOwner>(lock);
      if (JSON.stringify(now) !== JSON.stringify(owner)) return false;
      rmSync(lock, { force: true });
      return true;
    } finally {
      rmSync(guard, { force: true });
    }
  }

  unlock(version: string): void {
    const lock = this.path('locks', `${version}.lock`);
    const owner = readJsonFile<LockOwner>(lock);
    if (owner && owner.pid === process.pid && owner.host === hostname()) rmSync(lock, { force: true });
  }

  lockOwner(version: string): LockOwner | null {
    return readJsonFile<LockOwner>(this.path('locks', `${version}.lock`));
  }

  /** Creates `path` with `text` unless it exists, atomically; false when it existed. */
  private linkNew(path: string, text: string): boolean {
    const tmp = temporaryPath(path);
    writeFileSync(tmp, text);
    try {
      linkSync(tmp, path);
      return true;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'EEXIST') return false;
      throw e;
    } finally {
      rmSync(tmp, { force: true });
    }
  }

  /** Publishes an ack for a relay id; false when one exists already (the first ack wins). */
  publishAck(relayId: string, ack: Ack): boolean {
    this.ensure('acks');
    return this.linkNew(this.path('acks', `${relayId}.json`), jsonText(ack, true));
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

  /** Moves an accepted prompt to `archive/` (seed 003: archived, not deleted). */
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
