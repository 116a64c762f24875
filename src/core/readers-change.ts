/**
 * A change of the readers of team handoffs (docs/privacy.md "When the readers change"):
 * who was added and who removed between two recipients lists, and the words that say so.
 * Plain values in, text out.
 */
import { createHash } from 'node:crypto';
import type { Reader } from './age.js';

export interface ReadersChange {
  added: Reader[];
  removed: Reader[];
}

/** The readers `after` has that `before` has not, and the other way round. */
export function readersChange(before: readonly Reader[], after: readonly Reader[]): ReadersChange {
  const had = new Set(before.map((r) => r.key));
  const has = new Set(after.map((r) => r.key));
  return { added: after.filter((r) => !had.has(r.key)), removed: before.filter((r) => !has.has(r.key)) };
}

export const changed = (c: ReadersChange) => c.added.length + c.removed.length > 0;

/** One reader for people: the name from its comment and the start of its key. */
export function readerName(r: Reader): string {
  const key = `${r.key.slice(0, 12)}…`;
  // A comment is someone else's text: one short line of printable characters.
  const name = r.name
    .replace(/[^\x20-\x7e\u00a0-\uffff]/g, '')
    .slice(0, 40)
    .trim();
  return name ? `${name} (${key})` : key;
}

/** "added a (age1…), b (age1…); removed c (age1…)". */
export function describeChange(c: ReadersChange): string {
  const parts: string[] = [];
  if (c.added.length) parts.push(`added ${c.added.map(readerName).join(', ')}`);
  if (c.removed.length) parts.push(`removed ${c.removed.map(readerName).join(', ')}`);
  return parts.join('; ') || 'no reader added or removed';
}

/** What a removal means, said plainly (the words): nothing already written is taken back. */
export const REMOVED_STAY_READABLE = 'the versions encrypted to a removed key before stay readable to it; only new versions leave it out';

/** The identity of a set of readers, whatever the order, the comments or the blank lines. */
export function readersSetId(readers: readonly Reader[]): string {
  return createHash('sha256')
    .update([...new Set(readers.map((r) => r.key))].sort().join('\n'))
    .digest('hex');
}
