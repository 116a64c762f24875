/**
 * Which relay request a version carries: its own `Handoff-Relay` trailer (docs/format.md), or
 * the one of the version whose note it carries unchanged. An amend or a rebase moves a note
 * to the rewritten commit as a new version: git's own copy when `notes.rewriteRef` covers
 * refs/notes/handoff (a native commit, no trailer of ours), else the post-rewrite hook's
 * (src/app/hooks/post-rewrite.ts). Either way the new version's note is the very blob the
 * old version had. A `write` never makes that blob on another commit (the note names the
 * commit it was written at, its `head`), so a version whose note is the blob of the previous
 * version of its branch is that version moved, and asks what it asked; a `write` in between
 * (any other blob) ends the chain, as does a purge's tombstone. A note whose `head` is its
 * commit was written there, not moved: the history is not read for it (the relay's idle
 * pass every 5 s stays one step).
 *
 * Read from the history, not recorded by the hook: git's copy is made whether or not the
 * hook runs (a clone with `notes.rewriteRef` and no hooks, a rebase that ends in a hook
 * failure), and the same rule covers both copies and `git notes copy` by hand.
 */
import type { HandoffStore, ReadVersion, VersionInfo } from '../git/handoff-store.js';
import { findNote } from '../git/notes-tree.js';
import { parseTrailers } from '../git/objects.js';
import { noteBranch } from '../core/front-matter.js';
import { movedByRewrite } from '../core/rewrite.js';
import { relayReasonOf, type RelayReason } from '../core/relay.js';

export interface RelayRequest {
  reason: RelayReason;
  /** the version whose trailer asks */
  asking: string;
  /** the versions that carry its note, from the given one (first) to `asking` (last) */
  chain: string[];
}

/** The relay request `version` (of `branch`) carries, or null when it asks for none. */
export async function relayRequest(store: HandoffStore, version: ReadVersion, branch: string | null): Promise<RelayRequest | null> {
  const own = relayReasonOf(parseTrailers(version.commit.message));
  if (own) return { reason: own, asking: version.id, chain: [version.id] };
  if (!movedByRewrite(version.handoff, version.target)) return null;
  const objects = store.repo.objects;
  const blob = (await findNote(objects, version.commit.tree, version.writtenAt))?.blob;
  if (!blob) return null;
  const chain: string[] = [];
  for await (const v of store.versions(version.id)) {
    const note = await findNote(objects, v.commit.tree, v.writtenAt);
    if (note?.blob === blob) {
      // the same note: the same branch, wherever it sits
      chain.push(v.id);
      const reason = relayReasonOf(parseTrailers(v.commit.message));
      if (reason) return { reason, asking: v.id, chain };
      continue;
    }
    if ((await branchOf(store, v, note?.blob)) === branch) return null; // written since: a newer handoff
  }
  return null;
}

/** A version's branch: our trailer, else the note's `branch:` line (a native version). */
async function branchOf(store: HandoffStore, v: VersionInfo, blob: string | undefined): Promise<string | null> {
  if (v.branch !== undefined) return v.branch;
  const data = blob ? await store.repo.objects.read(blob) : null;
  return data ? noteBranch(data.data.toString('utf8')) : null;
}
