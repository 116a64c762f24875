/**
 * The note blobs a push of notes commits sends, found commit by commit, for the outgoing secret
 * scan (src/app/outgoing-secrets.ts): the version reader reads one note per version, at
 * one path, but a notes commit's tree can change more (a notes merge commit, a tree with
 * one note at both fan-out depths, a note no reader takes as text), and every blob pushed
 * reaches every clone.
 *
 * A blob is pushed when some commit of `tip ^remote` holds it and the remote has none of
 * that commit's history holding it; following the parents that hold it at the same path
 * ends at a commit whose tree holds it where none of its parents does. So the blobs a
 * commit introduces, `git diff-tree -c` (combined: what differs from every parent; the
 * whole tree for a root commit), over every commit of the push, cover all it sends.
 */
import type { Repo } from './repo.js';
import { GitFailed } from '../errors.js';

export interface IntroducedBlob {
  /** the notes commit whose tree holds it where none of its parents does */
  commit: string;
  path: string;
  blob: string;
}

const OID = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;
const ZERO = /^0+$/;

/**
 * Whether `path` is where a note can be: an object id, cut by fan-out into folders at any
 * depth (`<target>`, `ab/<38 hex>`, `ab/cd/<36 hex>`). The bookkeeping beside the notes
 * (`items/`, `receipts/`, `policy/`, `purged/`: docs/format.md) is the tool's own JSON,
 * whose keys (`authorization`) a scan of raw text takes for secrets.
 */
export function isNotePath(path: string): boolean {
  return /^(?:[0-9a-f]{2}\/)*[0-9a-f]+$/.test(path) && OID.test(path.replaceAll('/', ''));
}

/**
 * The note blobs (at a path isNotePath accepts) the commits `ids` introduce, each blob once (at
 * the first commit and path it was met). `names`, when given, collects every other path they
 * introduce (bookkeeping entries) with their blobs: a tree entry's name and content are pushed too.
 */
export async function introducedBlobs(repo: Repo, ids: string[], names?: { commit: string; path: string; blob?: string }[]): Promise<IntroducedBlob[]> {
  if (!ids.length) return [];
  const r = await repo.runGit(['--no-replace-objects', 'diff-tree', '--stdin', '-r', '-z', '-c', '--root', '--no-renames', '--no-ext-diff', '--raw'], {
    readOnly: true,
    input: ids.map((id) => `${id}\n`).join(''),
  });
  if (r.code !== 0) throw new GitFailed(`git diff-tree failed: ${r.stderr.trim() || `exit ${r.code}`}`);
  const fields = r.stdout.toString('utf8').split('\0');
  const found = new Map<string, IntroducedBlob>();
  let commit = '';
  for (let i = 0; i < fields.length; i++) {
    const f = fields[i];
    if (OID.test(f)) {
      commit = f;
      continue;
    }
    if (!f.startsWith(':')) continue;
    // `:mode... oid... status` then the path; one colon, mode and oid per parent, then the result's.
    const parents = /^:+/.exec(f)![0].length;
    const head = f.slice(parents).split(' ');
    const path = fields[++i];
    const mode = head[parents];
    const blob = head[2 * parents + 1];
    // A submodule entry is a commit id, never sent; a deleted path has no blob.
    // (with its blob: a bookkeeping record's content is pushed as well as its name)
    if (names && path && !isNotePath(path) && !(blob && ZERO.test(blob))) names.push({ commit, path, ...(blob && mode !== '160000' ? { blob } : {}) });
    if (mode === '160000' || !blob || ZERO.test(blob) || found.has(blob) || !isNotePath(path)) continue;
    found.set(blob, { commit, path, blob });
  }
  return [...found.values()];
}

/** The contents of `blobs`, read in one `git cat-file --batch`; each is handed to `each` in turn. */
export async function readBlobs(repo: Repo, blobs: string[], each: (blob: string, data: Buffer) => void): Promise<void> {
  if (!blobs.length) return;
  const r = await repo.runGit(['--no-replace-objects', 'cat-file', '--batch'], { readOnly: true, input: blobs.map((b) => `${b}\n`).join('') });
  if (r.code !== 0) throw new GitFailed(`git cat-file failed: ${r.stderr.trim() || `exit ${r.code}`}`);
  const out = r.stdout;
  let at = 0;
  for (const blob of blobs) {
    const nl = out.indexOf(10, at);
    if (nl < 0) throw new GitFailed('git cat-file --batch answered fewer objects than it was asked');
    const header = out.toString('latin1', at, nl).split(' ');
    if (header.length !== 3 || header[0] !== blob) throw new GitFailed(`git cat-file --batch could not read blob ${blob}: ${header.join(' ')}`);
    const size = Number(header[2]);
    each(blob, out.subarray(nl + 1, nl + 1 + size));
    at = nl + 2 + size;
  }
}
