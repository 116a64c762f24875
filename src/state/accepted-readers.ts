/**
 * The sets of team readers the user accepted in this clone (docs/privacy.md "When the
 * readers change"): `<git-common-dir>/handoff/readers-accepted.json`, the identity of each
 * set (core/readers-change.ts `readersSetId`), newest last. Local, never in the notes: it
 * records this user's consent, which no one else can give for them.
 */
import { readLocalState, writeLocalState } from './local-state.js';

const NAME = 'readers-accepted';
/** Sets kept, at most: the oldest are forgotten first (and asked about again if they come back). */
const MAX_SETS = 200;

/** A reader as the record keeps it: the public key and its comment. */
export interface AcceptedReader {
  key: string;
  name: string;
}

interface Record {
  format: 1;
  sets: string[];
  /** the readers last accepted (or written to), to say what changed since */
  last: AcceptedReader[];
}

function read(commonDir: string): Record {
  const r = readLocalState<Record>(commonDir, NAME);
  if (!r || r.format !== 1 || !Array.isArray(r.sets)) return { format: 1, sets: [], last: [] };
  const last = Array.isArray(r.last) ? r.last.filter((x) => x && typeof x.key === 'string' && typeof x.name === 'string') : [];
  return { format: 1, sets: r.sets.filter((s): s is string => typeof s === 'string'), last };
}

export function isAcceptedReaders(commonDir: string, setId: string): boolean {
  return read(commonDir).sets.includes(setId);
}

/** The readers accepted last in this clone, or null when none ever was. */
export function lastAcceptedReaders(commonDir: string): AcceptedReader[] | null {
  const { last } = read(commonDir);
  return last.length ? last : null;
}

export function acceptReaders(commonDir: string, setId: string, readers: readonly AcceptedReader[]): void {
  const sets = read(commonDir).sets.filter((s) => s !== setId);
  sets.push(setId);
  writeLocalState(commonDir, NAME, { format: 1, sets: sets.slice(-MAX_SETS), last: readers.map((r) => ({ key: r.key, name: r.name })) });
}
