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
 * - the bytes: a fixed first line, the key, the reach (a commit whose whole history is
 *   listed, or `-`), one object id a line (sorted), and a last line
 *   with the count, the ids' width and a SHA-256 of everything before it, so a truncated,
 *   damaged or foreign file fails;
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
/** A record larger than its bound allows is not one this tool wrote: it is not read into memory. */
const MAX_RECORD_BYTES = (MAX_SCANNED + 16) * 72;
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

/**
 * The commits a record lists. Its lines are sorted and all as wide as the repository's ids,
 * so a push of a few versions asks about them by binary search in the text itself, without
 * taking 50,000 lines apart; a line can only ever match itself, so a line that is not an
 * id (no writer of ours makes one) never vouches for anything.
 */
export class ScannedRecord {
  private constructor(
    private readonly text: string,
    private readonly start: number,
    private readonly width: number,
    readonly size: number,
    /** a commit every commit it reaches is listed (set by a push to an empty remote; see outgoing-secrets.ts) */
    readonly reach: string | null,
  ) {}

  static readonly EMPTY = new ScannedRecord('', 0, 0, 0, null);

  /** The record in `text` under `key`: EMPTY for a foreign or damaged text, or one made under another key. */
  static parse(text: string, key: ScanKey): ScannedRecord {
    const head = header(key);
    if (!text.startsWith(head) || !text.endsWith('\n')) return ScannedRecord.EMPTY;
    const nl = text.indexOf('\n', head.length);
    const r = /^reach ([0-9a-f]{40}|[0-9a-f]{64}|-)$/.exec(text.slice(head.length, nl));
    const last = text.lastIndexOf('\n', text.length - 2);
    if (!r || last < nl) return ScannedRecord.EMPTY;
    const m = /^end (\d+) (40|64) ([0-9a-f]{64})$/.exec(text.slice(last + 1, -1));
    if (!m) return ScannedRecord.EMPTY;
    const count = Number(m[1]);
    const width = Number(m[2]);
    const lines = last - nl;
    if (count > MAX_SCANNED || lines !== count * (width + 1) || m[3] !== sha256(text.slice(0, last + 1))) return ScannedRecord.EMPTY;
    return new ScannedRecord(text, nl + 1, width, count, r[1] === '-' ? null : r[1]);
  }

  private line(i: number): string {
    const at = this.start + i * (this.width + 1);
    return this.text.slice(at, at + this.width);
  }

  /** Where `id` is, or where it would go (~its index as a negative number, minus one). */
  private find(id: string): number {
    let lo = 0;
    let hi = this.size - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const l = this.line(mid);
      if (l === id) return mid;
      if (l < id) lo = mid + 1;
      else hi = mid - 1;
    }
    return -lo - 1;
  }

  has(id: string): boolean {
    return id.length === this.width && this.find(id) >= 0;
  }

  /** A membership test for many questions: past a few hundred, one Set of every line is cheaper than a search each. */
  lookup(questions: number): (id: string) => boolean {
    if (questions < 256 || this.size === 0) return (id) => this.has(id);
    const all = new Set(this.text.slice(this.start, this.start + this.size * (this.width + 1) - 1).split('\n'));
    return (id) => all.has(id);
  }

  /** The text of this record with `more` added and `reach` as its reach (ids of this record's width; others are left out); null: no change. */
  with(key: ScanKey, more: Iterable<string>, reach: string | null): string | null {
    const add = [...new Set(more)].filter((id) => OID.test(id) && !this.has(id)).sort();
    if (!add.length && reach === this.reach) return null;
    const width = this.size ? this.width : (add[0]?.length ?? reach?.length ?? 40);
    const fresh = add.filter((id) => id.length === width);
    const count = this.size + fresh.length;
    // Past the bound the record starts again from what this push found (and reaches nothing).
    if (count > MAX_SCANNED) return recordText(key, fresh.slice(0, MAX_SCANNED));
    // The old lines between the new ones are copied as they stand (one slice each).
    const parts: string[] = [header(key), `reach ${reach ?? '-'}\n`];
    let from = 0;
    for (const id of fresh) {
      const to = -this.find(id) - 1;
      if (to > from) parts.push(this.text.slice(this.start + from * (width + 1), this.start + to * (width + 1)));
      parts.push(`${id}\n`);
      from = to;
    }
    if (this.size > from) parts.push(this.text.slice(this.start + from * (width + 1), this.start + this.size * (width + 1)));
    const body = parts.join('');
    return `${body}end ${count} ${width} ${sha256(body)}\n`;
  }
}

/** The record's bytes for `oids` under `key` (ids of one width: the first one's), reaching `reach`. */
export function recordText(key: ScanKey, oids: Iterable<string>, reach: string | null = null): string {
  const all = [...new Set(oids)].filter((id) => OID.test(id)).sort();
  const width = all.length ? all[0].length : 40;
  const ids = all.filter((id) => id.length === width);
  const body = `${header(key)}reach ${reach ?? '-'}\n${ids.map((o) => `${o}\n`).join('')}`;
  return `${body}end ${ids.length} ${width} ${sha256(body)}\n`;
}

/** Reads the record at `path` (see the file's comment for what is believed). */
export function readScannedNotes(path: string, key: ScanKey): ScannedRecord {
  let fd: number;
  try {
    // O_NONBLOCK: a FIFO put in its place must not hold the sync (and its lock) waiting for a writer.
    fd = openSync(path, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0));
  } catch {
    return ScannedRecord.EMPTY;
  }
  try {
    // The checks are made on the file opened, so it cannot be swapped between them and the read.
    const st = fstatSync(fd);
    if (!trustedRecordFile(st, process.geteuid?.()) || st.size > MAX_RECORD_BYTES) return ScannedRecord.EMPTY;
    return ScannedRecord.parse(readFileSync(fd, 'utf8'), key);
  } catch {
    return ScannedRecord.EMPTY;
  } finally {
    closeSync(fd);
  }
}

/** Saves `text` (from ScannedRecord.with or recordText) as the record; a record that cannot be written is left as it was. */
export function writeScannedNotes(path: string, text: string): void {
  try {
    writeFileAtomic(path, text, { mode: 0o600 });
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
