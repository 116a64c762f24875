/**
 * The one JSON state-file store: local records (relay, sessions, install, caches) are JSON
 * files read leniently and written atomically (./atomic-write.ts).
 */
import { existsSync } from 'node:fs';
import { writeFileAtomic, type AtomicWriteOptions } from './atomic-write.js';
import { readStateFile } from './bounded-file.js';

/**
 * The parsed file, or null when it is absent, unreadable or not JSON: local state is a
 * convenience, and a damaged record counts as none. The absent case, the common one (hooks
 * read on every commit), is answered without an exception. A symlink, a FIFO or a device in
 * the file's place reads as none too, without being followed or waited on.
 */
export function readJsonFile<T = unknown>(path: string): T | null {
  if (!existsSync(path)) return null;
  const bytes = readStateFile(path);
  if (bytes === null) return null;
  try {
    return JSON.parse(bytes.toString('utf8')) as T;
  } catch {
    return null;
  }
}

/** The bytes a record is stored as: indented by two (or on one line, `compact`), ending in a newline. */
export function jsonText(value: unknown, compact = false): string {
  return `${compact ? JSON.stringify(value) : JSON.stringify(value, null, 2)}\n`;
}

/** Writes `value` as JSON, atomically, creating the parent folders. */
export function writeJsonFile(path: string, value: unknown, opts: AtomicWriteOptions & { compact?: boolean } = {}): void {
  writeFileAtomic(path, jsonText(value, opts.compact), opts);
}
