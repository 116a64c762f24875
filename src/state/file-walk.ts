/**
 * The one walk over a folder tree: every entry that is not a folder, depth first in the order
 * the folders list them. A folder that cannot be read is passed over (it went away, or we may
 * not read it): the walkers here look for what is there, never fail on what is not.
 */
import { readdirSync, type Dirent } from 'node:fs';
import { join } from 'node:path';

export interface WalkedEntry {
  path: string;
  entry: Dirent;
}

/** Entries below `root`; folders deeper than `maxDepth` levels under it are not entered. */
export function* entriesUnder(root: string, maxDepth = Infinity): Generator<WalkedEntry> {
  function* walk(dir: string, depth: number): Generator<WalkedEntry> {
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (depth < maxDepth) yield* walk(path, depth + 1);
      } else yield { path, entry };
    }
  }
  yield* walk(root, 0);
}
