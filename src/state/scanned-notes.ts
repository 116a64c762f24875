/**
 * The record of notes commits the outgoing secret scan (src/app/outgoing-secrets.ts) found
 * clean (a version whose note holds no secret, a commit that is no version), so that a push
 * does not parse and scan again a note this clone already scanned. A cache with a safety
 * role: a commit it lists is pushed unread, so it is trusted only
 * when nothing but this user, running this very build, under the same allow list, can have
 * written it. Anything else, and the record counts as empty (every version is scanned):
 * - the key: the build's digest (the scanner's rules, the YAML reader and every other
 *   source file that went into the bundle) and the `handoff.secrets.allow` values, in
 *   order; another key is another record, never a partial match;
 * - the bytes: a fixed first line, one object id a line, and a last line with the count
 *   and a SHA-256 of everything before it, so a truncated, damaged or foreign file fails;
 * - the file: a regular file (not followed through a symbolic link), owned by the
 *   current user, writable by no one else (another user's file, or a file others may
 *   write, could list a version whose note holds a secret).
 * Written atomically (./atomic-write.ts) with mode 0600; a clone we may not write to just
 * goes without.
 */
import { closeSync, constants, fstatSync, openSync, readFileSync, rmSync, type Stats } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from './atomic-write.js';

const MAGIC = 'git-handoff scanned notes 1';
/** More entries than this and the record is started afresh (a bound on its size: ~20 MiB). */
export const MAX_SCANNED = 500_000;
const OID = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

export interface ScanKey {
  /** what the build says it is (scripts/build.mjs: a digest of the bundled sources) */
  build: string;
  /** `handoff.secrets.allow`, as configured */
  allow: string[];
}

export function scannedNotesPath(commonDir: string): string {
  return join(commonDir, 'handoff', 'scanned-notes');
}

const sha256 = (s: string) => process.getBuiltinModule('node:crypto').createHash('sha256').update(s).digest('hex');

function header(key: ScanKey): string {
  return `${MAGIC}\nbuild ${key.build}\nallow ${sha256(JSON.stringify(key.allow))}\n`;
}

/** Whether a record file with these facts may be believed: ours, a plain file, writable by us alone. */
export function trustedRecordFile(st: Pick<Stats, 'uid' | 'mode' | 'isFile'>, euid: number | undefined): boolean {
  return euid !== undefined && st.isFile() && st.uid === euid && (st.mode & 0o022) === 0;
}

/** The record's bytes for `oids` under `key`. */
export function recordText(key: ScanKey, oids: Iterable<string>): string {
  const body = header(key) + [...oids].map((o) => `${o}\n`).join('');
  const count = body.split('\n').length - 4;
  return `${body}end ${count} ${sha256(body)}\n`;
}

/** The commits recorded as clean under `key`: empty for a missing, foreign, damaged or untrusted record, or one made under another key. */
export function parseRecord(text: string, key: ScanKey): Set<string> {
  const none = new Set<string>();
  const head = header(key);
  if (!text.startsWith(head) || !text.endsWith('\n')) return none;
  const last = text.lastIndexOf('\n', text.length - 2);
  if (last < head.length - 1) return none;
  const body = text.slice(0, last + 1);
  const m = /^end (\d+) ([0-9a-f]{64})$/.exec(text.slice(last + 1, -1));
  if (!m || m[2] !== sha256(body)) return none;
  const lines = body.slice(head.length, -1);
  const oids = lines === '' ? [] : lines.split('\n');
  if (oids.length !== Number(m[1]) || oids.length > MAX_SCANNED || !oids.every((o) => OID.test(o))) return none;
  return new Set(oids);
}

/** Reads the record at `path` (see the file's comment for what is believed). */
export function readScannedNotes(path: string, key: ScanKey): Set<string> {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
  } catch {
    return new Set();
  }
  try {
    // The checks are made on the file opened, so it cannot be swapped between them and the read.
    if (!trustedRecordFile(fstatSync(fd), process.geteuid?.())) return new Set();
    return parseRecord(readFileSync(fd, 'utf8'), key);
  } catch {
    return new Set();
  } finally {
    closeSync(fd);
  }
}

/** Saves `oids` as the record under `key`; a record that cannot be written is left as it was. */
export function writeScannedNotes(path: string, key: ScanKey, oids: Set<string>): void {
  try {
    writeFileAtomic(path, recordText(key, oids), { mode: 0o600 });
  } catch {
    /* not recorded: the next push scans these again */
  }
}

/** Removes the record (uninstall); one that cannot be removed stays, believed as before (under its key only). */
export function forgetScannedNotes(path: string): void {
  try {
    rmSync(path, { force: true });
  } catch {
    /* left as it is */
  }
}
