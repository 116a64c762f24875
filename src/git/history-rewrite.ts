/**
 * The one history rewrite the tool makes (`purge`, docs/format.md "Purge"): the
 * purged notes' blobs become tombstones wherever the history holds them: at the purged
 * version's commit and at every commit the same blob was copied to (amend and rebase copy a
 * note through `notes.rewriteRef`; `doctor --fix` re-attaches it), before or after the
 * purged version. Every commit from there is replayed with its own author, committer, dates
 * and message (only a commit that put a purged blob in place loses its subject, which may
 * quote the secret), so the result depends only on the history and the purge records.
 * This file replays commits and trees; what a tombstone and a purged message say is the
 * caller's (../app/purge-history.ts).
 */
import type { Repo } from './repo.js';
import { serializeCommit, type ObjectStore } from './objects.js';
import { findNote, readPath, setNote, writePath } from './notes-tree.js';
import { requireCommit } from './read-objects.js';
import { isObjectId } from '../core/object-id.js';
import { remapLineage } from '../core/lineage.js';
import { isCommitOnly, pathDigest } from '../core/purge.js';
import { introducedBlobs } from './pushed-blobs.js';

/** A purged note: the version that wrote it, the commit it is attached to, its blob. */
export interface PurgedNote {
  version: string;
  target: string;
  blob: string;
  /** a bookkeeping record at this path instead of a note (`version` the commit that put `blob` there) */
  path?: string;
  /** the commit `version`'s message is purged with `strictMessage`; with `blob` = `version`, no note is */
  message?: true;
  /** sha1s of the paths `version` adds that are removed wherever a replayed tree holds them */
  names?: string[];
}

/**
 * What the caller decides (../app/purge-history.ts): the bytes a purged note becomes (given
 * its bytes, null when the blob is missing), and the message of a commit that put one in place.
 */
export interface NoteRewrite {
  tombstone(note: Buffer | null): Promise<Buffer>;
  message(message: string, target: string): string;
  /** the message of a commit a record purges the message of (`message: true`) */
  strictMessage(message: string, target: string): string;
  /** the bytes a purged bookkeeping record becomes */
  record: Buffer;
}

export interface Rewrite {
  tip: string;
  /** old commit id -> new commit id, for every commit that changed */
  mapping: Map<string, string>;
}

/**
 * Replays the history of `tip` with `records` applied and returns the new tip. Writes
 * objects only; moving a ref is the caller's compare-and-swap.
 */
export async function rewriteHistory(repo: Repo, store: ObjectStore, tip: string, records: PurgedNote[], how: NoteRewrite): Promise<Rewrite> {
  // (a record of a bookkeeping commit's message names no note: its blob is the commit itself)
  const messages = new Map(records.filter((r) => !r.path && r.message).map((r) => [r.version, r]));
  const notes = records.filter((r) => !r.path && !isCommitOnly(r));
  // The paths whose names leaked, found again from the commits that added them.
  const dropped = await droppedPaths(repo, records);
  const purged = new Map(notes.map((r) => [r.version, r]));
  // the commits a purged note or record was put in place by: replayed even when nothing before them changed
  const touched = new Set(records.map((r) => r.version));
  // A bookkeeping record is purged at its path wherever a replayed tree holds it there.
  const entries = records.filter((r): r is PurgedNote & { path: string } => Boolean(r.path));
  const placed = await placements(
    repo,
    tip,
    notes.map((r) => r.blob),
  );
  // Every (target, blob) pair a purged blob was ever put at: what each replayed tree is checked for.
  const copies = new Map<string, { target: string; blob: string }>();
  for (const p of [...notes, ...[...placed.values()].flat()]) copies.set(`${p.target} ${p.blob}`, { target: p.target, blob: p.blob });
  let recordTombstone: string | null = null;
  const out = await repo.git(['rev-list', '--topo-order', '--reverse', '--parents', tip], { readOnly: true });
  const tombstones = new Map<string, string>();
  const mapping = new Map<string, string>();
  for (const line of out.split('\n')) {
    if (!line) continue;
    const [id, ...parents] = line.split(' ');
    const newParents = parents.map((p) => mapping.get(p) ?? p);
    const own = purged.get(id);
    const puts = placed.get(id);
    if (!touched.has(id) && !puts && newParents.every((p, i) => p === parents[i])) continue;
    const c = await requireCommit(store, id);
    let tree = c.tree;
    for (const { target, blob } of copies.values()) {
      const note = await findNote(store, tree, target);
      if (note?.blob !== blob) continue;
      if (!tombstones.has(blob)) tombstones.set(blob, await store.write('blob', await how.tombstone((await store.read(blob))?.data ?? null)));
      tree = await setNote(store, tree, target, tombstones.get(blob)!);
    }
    for (const path of dropped) if ((await readPath(store, tree, path)) !== null) tree = await writePath(store, tree, path, null);
    for (const e of entries) {
      if ((await readPath(store, tree, e.path)) !== e.blob) continue;
      recordTombstone ??= await store.write('blob', how.record);
      tree = await writePath(store, tree, e.path, recordTombstone);
    }
    // (a record's commit keeps its message: the outgoing scan reads messages on their own)
    const putAt = own?.target ?? puts?.[0].target;
    const strict = messages.get(id);
    const purgedMessage = strict ? how.strictMessage(c.message, strict.target) : putAt ? how.message(c.message, putAt) : c.message;
    // What a replayed version continues is named by id: it follows the ids the replay gives.
    const message = remapLineage(purgedMessage, (old) => mapping.get(old));
    const newId = await store.write('commit', serializeCommit({ ...c, tree, parents: newParents, message }));
    if (newId !== id) mapping.set(id, newId);
  }
  return { tip: mapping.get(tip) ?? tip, mapping };
}

/** The paths the commits of `records` with `names` add whose sha1 a record names. */
async function droppedPaths(repo: Repo, records: PurgedNote[]): Promise<string[]> {
  const named = records.filter((r) => r.names?.length);
  if (!named.length) return [];
  const added: { commit: string; path: string }[] = [];
  await introducedBlobs(
    repo,
    named.map((r) => r.version),
    added,
  );
  const wanted = new Set(named.flatMap((r) => r.names!.map((n) => `${r.version} ${n}`)));
  return [...new Set(added.filter((a) => wanted.has(`${a.commit} ${pathDigest(a.path)}`)).map((a) => a.path))];
}

/**
 * The commits of `tip`'s history that put one of `blobs` in place as a note (a write, or a
 * copy made by git or by `doctor --fix`), with where: one `git log --find-object`. Merge
 * commits are left out: they only pass on what a parent put in place.
 */
async function placements(repo: Repo, tip: string, blobs: string[]): Promise<Map<string, { target: string; blob: string }[]>> {
  const wanted = new Set(blobs);
  const out = new Map<string, { target: string; blob: string }[]>();
  if (!wanted.size) return out;
  const log = await repo.git(['log', '--format=%x00%H', '--raw', '--no-abbrev', '--no-renames', ...[...wanted].map((b) => `--find-object=${b}`), tip], {
    readOnly: true,
  });
  for (const chunk of log.split('\0')) {
    const [id, ...lines] = chunk.split('\n');
    for (const line of lines) {
      // :<old mode> <new mode> <old blob> <new blob> <status>\t<path>
      const m = /^:\d+ \d+ [0-9a-f]+ ([0-9a-f]{40}) \w+\t(.+)$/.exec(line);
      const target = m?.[2].split('/').join('');
      if (!m || !wanted.has(m[1]) || !isObjectId(target)) continue;
      out.set(id, [...(out.get(id) ?? []), { target: target!, blob: m[1] }]);
    }
  }
  return out;
}

/**
 * Drops reflog entries whose commit the ref no longer reaches, so purged commits are
 * referenced by nothing and `git gc --prune=now` removes them. Reachable entries stay.
 * `--rewrite` judges each entry by the entry kept before it: without it git also drops the
 * purge's own entry (its old value is a purged commit) and the reflog's newest entry no
 * longer names the ref's value.
 */
export async function expireUnreachableReflogs(repo: Repo, refs: string[]): Promise<void> {
  for (const ref of refs) {
    if (!(await repo.resolveRef(ref))) continue;
    await repo.runGit(['reflog', 'expire', '--expire=never', '--expire-unreachable=now', '--rewrite', ref]);
  }
}
