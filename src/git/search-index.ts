/**
 * The search index: every version's searchable text, one JSON line each, in
 * `<common-dir>/handoff/search-index.jsonl`. A cache, never the truth: versions are
 * immutable commits, so a line once written stays right; a search walks the notes history
 * from the tip only until it meets commits the index already holds and appends the new
 * ones. A missing, truncated or unwritable index costs time, never an answer.
 */
import { appendFileSync, chmodSync, existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Repo } from './repo.js';
import { HandoffStore } from './handoff-store.js';
import { NOTES_REF } from './repo.js';
import { parseTrailers } from './objects.js';
import { findNote } from './notes-tree.js';
import type { FieldText } from '../core/search.js';
import { GitFailed } from '../errors.js';
import { isObjectId } from '../core/object-id.js';
import { readStateFile } from '../state/bounded-file.js';
import { Moves } from './note-moves.js';
import type { NoteMove } from './handoff-store.js';

/** Bump when the line format changes: an index of another format is rebuilt. */
const FORMAT = 5;

export interface IndexedVersion {
  id: string;
  /** committer time, seconds */
  t: number;
  /** the handoff's date, else the commit time */
  d: string;
  b: string | null;
  g: string;
  /** valid: 1, invalid note: 0, encrypted: 2 (no text of it here: it is decrypted when searched, docs/privacy.md) */
  v: 0 | 1 | 2;
  /** the version's note blob (an encrypted one is decrypted from it when searched) */
  n?: string;
  /** an encrypted version's header was read when the line was made (1): only a key can tell more (absent in lines made before) */
  h?: 1;
  /** searchable fields; absent for an invalid note */
  f?: FieldText[];
  status?: string;
  summary?: string;
}

/** A version as the history holds it: what the index line is made of (../app/search-index-entry.ts). */
export interface StoredVersion {
  id: string;
  /** committer time, seconds */
  t: number;
  target: string;
  /** the branch its trailer names (null: none); undefined for a native note */
  branch: string | null | undefined;
  /** the note's bytes, null when the history does not hold them */
  note: Buffer | null;
  /** the note's blob id, when known */
  blob: string | null;
}

/** The caller's reading of one version (the note parsed and checked): its index line. */
export type DescribeVersion = (v: StoredVersion) => Promise<IndexedVersion>;

export function searchIndexPath(repo: Repo): string {
  return join(repo.paths.commonDir, 'handoff', 'search-index.jsonl');
}

/** Removes the cache (after `purge`: the purged text must not outlive the history in it). */
export function dropSearchIndex(repo: Repo): void {
  try {
    rmSync(searchIndexPath(repo), { force: true });
  } catch {
    // a search that finds the history rewritten rebuilds it anyway
  }
}

/**
 * Brings the index up to the tip and returns its raw lines (parsing is left to the caller,
 * who parses only the lines its prefilter keeps).
 */
export async function loadSearchIndex(repo: Repo, describe: DescribeVersion, ignoreFile = false): Promise<{ lines: string[]; added: number; moves: Moves }> {
  const file = searchIndexPath(repo);
  const store = new HandoffStore(repo);
  const tip = await store.tip();
  if (!tip) return { lines: [], added: 0, moves: new Moves() };
  let text = '';
  // A symlink, a FIFO or a device in the file's place reads as no index (and is replaced below).
  if (!ignoreFile && existsSync(file)) text = readStateFile(file)?.toString('utf8') ?? '';
  const all = text ? text.split('\n') : [];
  if (all.length && all[0] !== JSON.stringify({ format: FORMAT })) all.length = 0;
  const known = new Set<string>();
  const lines: string[] = [];
  let lastTip: string | null = null;
  // git's note copies met by each update, newest first within it (the updates oldest first)
  const batches: NoteMove[][] = [[]];
  for (let i = 1; i < all.length; i++) {
    const line = all[i];
    // A line cut short by a crash, or one written twice by two searches at once, is skipped.
    if (!line.endsWith('}')) continue;
    if (line.startsWith('{"tip":"')) {
      lastTip = line.slice(8, 48);
      batches.push([]);
      continue;
    }
    if (line.startsWith('{"mv":[')) {
      const m = moveOfLine(line);
      if (m) batches.at(-1)!.push(m);
      continue;
    }
    const id = line.slice(7, 47);
    if (!line.startsWith('{"id":"') || !isObjectId(id) || known.has(id)) continue;
    known.add(id);
    lines.push(line);
  }
  if (lastTip === tip) return { lines, added: 0, moves: movesOf(batches) };
  // The tip the index was last brought up to must be an ancestor of today's; when it is
  // not, the history was rewritten (`purge` removing a leaked secret) and the index is
  // rebuilt, so no text of a purged version survives in it.
  if (lastTip && !(await isAncestor(repo, lastTip, tip))) return loadSearchIndex(repo, describe, true);

  const since = await readVersionsSince(repo, tip, lastTip, describe);
  const fresh = since.versions.filter((e) => !known.has(e.id)).map((e) => JSON.stringify(e));
  batches.push(since.moves);
  {
    const out = [...fresh, ...since.moves.map((m) => JSON.stringify({ mv: [m.blob, m.target, ...m.from] })), JSON.stringify({ tip })].join('\n');
    try {
      mkdirSync(join(repo.paths.commonDir, 'handoff'), { recursive: true });
      if (!all.length) {
        rmSync(file, { force: true });
        appendFileSync(file, `${JSON.stringify({ format: FORMAT })}\n`);
      } else if (!text.endsWith('\n')) appendFileSync(file, '\n');
      appendFileSync(file, `${out}\n`);
      // It holds no text of an encrypted version (only its note's id), and is the owner's alone.
      chmodSync(file, 0o600);
    } catch {
      // read-only repository: search still answers, just without the cache
    }
  }
  return { lines: lines.concat(fresh), added: fresh.length, moves: movesOf(batches) };
}

/** A copy line: `{"mv":[blob, target, from...]}`, or null when it is not one. */
function moveOfLine(line: string): NoteMove | null {
  try {
    const [blob, target, ...from] = (JSON.parse(line) as { mv: unknown[] }).mv;
    if (!isObjectId(blob) || !isObjectId(target) || !from.every(isObjectId)) return null;
    return { blob, target, from: from as string[] };
  } catch {
    return null;
  }
}

/** Where git's copies put each note, as the reader's walk learns it: the newest update first. */
function movesOf(batches: NoteMove[][]): Moves {
  const moves = new Moves();
  for (const b of [...batches].reverse()) moves.add(b);
  return moves;
}

async function isAncestor(repo: Repo, ancestor: string, tip: string): Promise<boolean> {
  const r = await repo.runGit(['merge-base', '--is-ancestor', ancestor, tip], { readOnly: true });
  return r.code === 0;
}

/**
 * The versions reachable from `tip` and not from `since`, read in bulk: one `git log --raw`
 * names every commit's changed notes, one `git cat-file --batch` reads their blobs. (The
 * object store reads one object at a time and keeps each; 50,000 versions need neither.)
 */
async function readVersionsSince(
  repo: Repo,
  tip: string,
  since: string | null,
  describe: DescribeVersion,
): Promise<{ versions: IndexedVersion[]; moves: NoteMove[] }> {
  const log = await repo.runGit(
    ['log', '--no-abbrev', '--raw', '--no-renames', '--root', '--no-color', '--format=%x1e%H %ct %P%x1f%B%x1f', tip, ...(since ? [`^${since}`] : []), '--'],
    { readOnly: true },
  );
  if (log.code !== 0) throw new GitFailed(`git log of ${NOTES_REF} failed: ${log.stderr.toString().trim()}`);
  const found: { id: string; t: number; target: string; blob: string; branch: string | null | undefined }[] = [];
  const store = new HandoffStore(repo);
  const moves: NoteMove[] = [];
  for (const rec of log.stdout.toString('utf8').split('\x1e')) {
    if (!rec) continue;
    const [head, message = '', raw = ''] = rec.split('\x1f');
    const [id, ct, ...parents] = head.trim().split(' ');
    const trailers = parseTrailers(message);
    const kind = trailers['Handoff-Kind'];
    // What HandoffStore.versionOf decides, from the same facts.
    if (kind ? kind !== 'version' : parents.length > 1) continue;
    const changes = new Map<string, { old?: string; new?: string }>();
    for (const line of raw.split('\n')) {
      const m = /^:\d+ \d+ ([0-9a-f]{40}) ([0-9a-f]{40}) [AMDT]\d*\t(.+)$/.exec(line);
      if (!m) continue;
      const target = m[3].replace(/\//g, '');
      if (!isObjectId(target)) continue;
      const c = changes.get(target) ?? {};
      if (!/^0+$/.test(m[1])) c.old = m[1];
      if (!/^0+$/.test(m[2])) c.new = m[2];
      changes.set(target, c);
    }
    let target: string | undefined;
    let blob: string | undefined;
    if (kind) {
      target = trailers['Handoff-Target'];
      if (!isObjectId(target)) continue;
      blob = changes.get(target!)?.new;
    } else {
      // A native commit: the store tells git's own note copy (the same versions moved, no
      // version) from a new note, and which note is the version's (rare; it reads the trees).
      const c = await store.classify(id, await store.readCommit(id));
      // git's own copy moves versions: a search names where their notes sit now
      moves.push(...c.moves);
      const v = c.version;
      if (!v) continue;
      target = v.target;
      blob = changes.get(target)?.new;
    }
    found.push({ id, t: Number(ct), target: target!, blob: blob ?? '', branch: kind ? (trailers['Handoff-Branch'] ?? null) : undefined });
  }
  const blobs = await readBlobs(repo, found.map((f) => f.blob).filter(Boolean));
  const out: IndexedVersion[] = [];
  for (const f of found) {
    let data = f.blob ? blobs.get(f.blob) : undefined;
    let blob = f.blob || null;
    if (!data && !f.blob && f.branch !== undefined) {
      // Our version whose note did not change (the same content again, e.g. a relay mark):
      // its note is where the tree says.
      const commit = await store.readCommit(f.id);
      const note = await findNote(repo.objects, commit.tree, f.target);
      data = (note && (await repo.objects.read(note.blob))?.data) || undefined;
      blob = note?.blob ?? null;
    }
    out.push(await describe({ id: f.id, t: f.t, target: f.target, branch: f.branch, note: data ?? null, blob }));
  }
  return { versions: out, moves };
}

async function readBlobs(repo: Repo, ids: string[]): Promise<Map<string, Buffer>> {
  const out = new Map<string, Buffer>();
  if (!ids.length) return out;
  const r = await repo.runGit(['cat-file', '--batch'], { input: `${ids.join('\n')}\n`, readOnly: true });
  const buf = r.stdout;
  let at = 0;
  while (at < buf.length) {
    const nl = buf.indexOf(10, at);
    if (nl < 0) break;
    const [oid, type, size] = buf.subarray(at, nl).toString('latin1').split(' ');
    at = nl + 1;
    if (type === undefined || size === undefined) continue; // "<oid> missing"
    const n = Number(size);
    if (type === 'blob') out.set(oid, buf.subarray(at, at + n));
    at += n + 1;
  }
  return out;
}
