/**
 * The notes history as versions, newest first (the store's walk), with git's note copies
 * applied: a native commit that only copies note blobs the tree already held (amend,
 * rebase through `notes.rewriteRef`) is no version; it moves the versions whose notes it
 * copied, so each is reported where its note sits now (docs/format.md "Rewritten commits").
 *
 * A long line of bookkeeping commits (a remote's 100,000 receipts) is read once: the walk
 * records where it ends (src/git/walk-skips.ts) and later walks jump over it.
 */
import type { Commit } from '../git/objects.js';
import { parseTrailers } from '../git/objects.js';
import type { HandoffStore, VersionInfo } from '../git/handoff-store.js';
import { Moves } from '../git/note-moves.js';
import { findNote } from '../git/notes-tree.js';
import { MIN_SKIP, WalkSkips, type Skip } from '../git/walk-skips.js';

export interface WalkedCommit {
  id: string;
  commit: Commit;
  /** the version this commit records (its target moved where a later copy put its note), or null */
  version: VersionInfo | null;
}

/** Every commit of the history from `tip`, newest first, with the version it records. */
export async function* walkVersions(store: HandoffStore, tip: string): AsyncGenerator<WalkedCommit> {
  const moves = new Moves();
  const skips = new WalkSkips(store.repo);
  /** lines of bookkeeping commits under way, by the commit the line waits for next */
  const lines = new Map<string, { top: string; length: number }>();
  try {
    for await (const { id, commit } of store.walk(tip, undefined, (c) => skips.get(c)?.below)) {
      const c = await store.classify(id, commit);
      moves.add(c.moves);
      const v = c.version;
      const line = lines.get(id);
      lines.delete(id);
      if (!v && commit.parents.length === 1 && parseTrailers(commit.message)['Handoff-Kind']) {
        const jumped: Skip | undefined = skips.get(id);
        const length = (line?.length ?? 0) + (jumped?.length ?? 1);
        lines.set(commit.parents[0], { top: line?.top ?? id, length });
      } else if (line && line.length >= MIN_SKIP) skips.record(line.top, { below: id, length: line.length });
      yield { id, commit, version: v && (await moves.apply(v, async () => (await findNote(store.repo.objects, v.commit.tree, v.writtenAt))?.blob)) };
    }
  } finally {
    // A reader that stopped early (it had its answer) still keeps the lines it read: any
    // part of a line, from its top to the parent of the last commit read, is a line too.
    for (const [below, line] of lines) if (line.length >= MIN_SKIP) skips.record(line.top, { below, length: line.length });
  }
}
