/**
 * The notes history as versions, newest first (the store's walk), with git's note copies
 * applied: a native commit that only copies note blobs the tree already held (amend,
 * rebase through `notes.rewriteRef`) is no version; it moves the versions whose notes it
 * copied, so each is reported where its note sits now (docs/format.md "Rewritten commits").
 *
 * A long run of commits that record nothing (a remote's 100,000 receipts or merges, however
 * they arrived) is read once: the walk that meets one hands the rest of it to git and
 * records where it is left (src/git/walk-skips.ts); this walk and later ones jump over it.
 */
import type { Commit } from '../git/objects.js';
import { recordsNothing, type HandoffStore, type VersionInfo } from '../git/handoff-store.js';
import { Moves } from '../git/note-moves.js';
import { findNote } from '../git/notes-tree.js';
import { MIN_SKIP, WalkSkips, type Skip } from '../git/walk-skips.js';
import { ReadOverBudget, readDeadline } from '../git/read-budget.js';

export interface WalkedCommit {
  id: string;
  /** with the parents the walk goes on from (the way out of a region jumped over) */
  commit: Commit;
  /** the version this commit records (its target moved where a later copy put its note), or null */
  version: VersionInfo | null;
}

/** How many times one walk asks git for a region: a run that turns out short costs one each. */
const MAX_FINDS = 8;

/**
 * Every commit of the history from `tip`, newest first, with the version it records. Past
 * this process's read deadline (a hook's budget: src/git/read-budget.ts) it throws
 * `ReadOverBudget`, keeping what it read for the next walk.
 */
export async function* walkVersions(store: HandoffStore, tip: string): AsyncGenerator<WalkedCommit> {
  let read = 0;
  const moves = new Moves();
  const skips = new WalkSkips(store.repo);
  /** single lines of commits that record nothing under way, by the commit the line waits for next */
  const lines = new Map<string, { top: string; length: number }>();
  /** such commits read in process one after another (git reads the rest once there are many) */
  let run = 0;
  let finds = 0;
  try {
    for await (const { id, commit: given } of store.walk(tip, undefined, (c) => skips.get(c)?.below)) {
      if (++read % 64 === 0 && Date.now() > readDeadline()) throw new ReadOverBudget(read);
      let jumped: Skip | null | undefined = skips.get(id);
      const c = jumped ? { version: null, moves: [] } : await store.classify(id, given);
      moves.add(c.moves);
      const v = c.version;
      const nothing = jumped !== undefined || recordsNothing(given);
      run = nothing && !jumped ? run + 1 : 0;
      if (run >= MIN_SKIP && finds < MAX_FINDS) {
        finds++;
        jumped = await skips.find(id, readDeadline());
        if (jumped) {
          skips.record(id, jumped);
          run = 0;
        }
      }
      const commit = jumped ? { ...given, parents: jumped.below } : given;
      const line = lines.get(id);
      lines.delete(id);
      // (native commits that proved to change no note are in a line too: a fact of theirs as well)
      if (!v && !c.moves.length && commit.parents.length === 1) {
        const length = (line?.length ?? 0) + (jumped?.length ?? 1);
        lines.set(commit.parents[0], { top: line?.top ?? id, length });
      } else if (line && line.length >= MIN_SKIP) skips.record(line.top, { below: [id], length: line.length });
      yield { id, commit, version: v && (await moves.apply(v, async () => (await findNote(store.repo.objects, v.commit.tree, v.writtenAt))?.blob)) };
    }
  } finally {
    // A reader that stopped early (it had its answer) still keeps the lines it read: any
    // part of a line, from its top to the parent of the last commit read, is a line too.
    for (const [below, line] of lines) if (line.length >= MIN_SKIP) skips.record(line.top, { below: [below], length: line.length });
  }
}
