/**
 * The notes history as versions, newest first (the store's walk), with git's note copies
 * applied: a native commit that only copies note blobs the tree already held (amend,
 * rebase through `notes.rewriteRef`) is no version; it moves the versions whose notes it
 * copied, so each is reported where its note sits now (docs/format.md "Rewritten commits").
 */
import type { Commit } from '../git/objects.js';
import type { HandoffStore, VersionInfo } from '../git/handoff-store.js';
import { Moves } from '../git/note-moves.js';
import { findNote } from '../git/notes-tree.js';

export interface WalkedCommit {
  id: string;
  commit: Commit;
  /** the version this commit records (its target moved where a later copy put its note), or null */
  version: VersionInfo | null;
}

/** Every commit of the history from `tip`, newest first, with the version it records. */
export async function* walkVersions(store: HandoffStore, tip: string): AsyncGenerator<WalkedCommit> {
  const moves = new Moves();
  for await (const { id, commit } of store.walk(tip)) {
    const c = await store.classify(id, commit);
    moves.add(c.moves);
    const v = c.version;
    yield { id, commit, version: v && (await moves.apply(v, async () => (await findNote(store.repo.objects, v.commit.tree, v.writtenAt))?.blob)) };
  }
}
