/**
 * The one history rewrite the tool makes (`purge`, DESIGN.md "the one exception"): the
 * purged versions' notes become tombstones, in them and in every later commit that still
 * carries the same blob; every commit after them is replayed with its own author, committer,
 * dates and message, so the result depends only on the history and the purge records.
 */
import type { Repo } from './repo.js';
import { parseCommit, parseTrailers, serializeCommit, type ObjectStore } from './objects.js';
import { findNote, listPath, setNote } from './notes-tree.js';
import { decodeText, DEFAULT_MAX_BYTES } from '../core/bytes.js';
import { parseDocument } from '../core/parse.js';
import { checkStored } from '../core/schema.js';
import { toCanonicalYaml } from '../core/canonical.js';
import { parseRecord, purgedMessage, tombstone, PURGED_DIR, type PurgeRecord } from '../core/purge.js';
import { GitFailed } from '../errors.js';

/** The purge records a notes tree carries (`purged/<version>`). */
export async function purgeRecords(store: ObjectStore, root: string): Promise<PurgeRecord[]> {
  const out: PurgeRecord[] = [];
  for (const e of await listPath(store, root, PURGED_DIR)) {
    const blob = await store.read(e.oid);
    const r = blob?.type === 'blob' ? parseRecord(blob.data.toString('utf8')) : null;
    if (r && r.version === e.name) out.push(r);
  }
  return out;
}

/** The tombstone blob for a purged note: keeps only the facts that place it. */
async function tombstoneBlob(store: ObjectStore, blob: string): Promise<string> {
  const obj = await store.read(blob);
  let original = null;
  if (obj) {
    const decoded = decodeText(obj.data, Math.max(DEFAULT_MAX_BYTES, obj.data.length));
    if ('text' in decoded) {
      try {
        const { handoff, problems } = checkStored(await parseDocument(decoded.text));
        if (!problems.length) original = handoff;
      } catch {
        // an unparseable note keeps nothing
      }
    }
  }
  return store.write('blob', Buffer.from(toCanonicalYaml(tombstone(original) as Record<string, unknown>), 'utf8'));
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
export async function rewriteHistory(repo: Repo, store: ObjectStore, tip: string, records: PurgeRecord[]): Promise<Rewrite> {
  const purged = new Map(records.map((r) => [r.version, r]));
  const out = await repo.git(['rev-list', '--topo-order', '--reverse', '--parents', tip], { readOnly: true });
  const tombstones = new Map<string, string>();
  const mapping = new Map<string, string>();
  for (const line of out.split('\n')) {
    if (!line) continue;
    const [id, ...parents] = line.split(' ');
    const newParents = parents.map((p) => mapping.get(p) ?? p);
    const own = purged.get(id);
    if (!own && newParents.every((p, i) => p === parents[i])) continue;
    const obj = await store.read(id);
    if (!obj || obj.type !== 'commit') throw new GitFailed(`commit ${id} is missing from the repository`);
    const c = parseCommit(obj.data);
    let tree = c.tree;
    for (const r of records) {
      const note = await findNote(store, tree, r.target);
      if (note?.blob !== r.blob) continue;
      if (!tombstones.has(r.blob)) tombstones.set(r.blob, await tombstoneBlob(store, r.blob));
      tree = await setNote(store, tree, r.target, tombstones.get(r.blob)!);
    }
    const message = own ? purgedMessage(parseTrailers(c.message), own.target) : c.message;
    const newId = await store.write('commit', serializeCommit({ ...c, tree, parents: newParents, message }));
    if (newId !== id) mapping.set(id, newId);
  }
  return { tip: mapping.get(tip) ?? tip, mapping };
}

/**
 * Drops reflog entries whose commit the ref no longer reaches, so purged commits are
 * referenced by nothing and `git gc --prune=now` removes them. Reachable entries stay.
 */
export async function expireUnreachableReflogs(repo: Repo, refs: string[]): Promise<void> {
  for (const ref of refs) {
    if (!(await repo.resolveRef(ref))) continue;
    await repo.runGit(['reflog', 'expire', '--expire=never', '--expire-unreachable=now', ref]);
  }
}
