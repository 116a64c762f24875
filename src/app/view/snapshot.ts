/**
 * `git handoff view --html FILE` (docs/view.md "The file"): every version of every branch,
 * read once through the one reader, as the rows the server pages out plus each handoff and
 * the notices `show` would put before it, embedded in one self-contained page. Shared
 * versions only, unless the maker asks for the encrypted ones they can read.
 */
import { lstatSync, statSync } from 'node:fs';
import { basename, relative, resolve } from 'node:path';
import type { Repo } from '../../git/repo.js';
import type { ReadVersion } from '../../git/handoff-store.js';
import { VersionReader } from '../../history/reader.js';
import { notices } from '../show-report.js';
import { allStatuses, itemJson } from '../status.js';
import { writeExport } from '../export.js';
import { BranchHeads, describe, listAll, type ListedVersion, type ViewRow } from './rows.js';
import { filePage } from './page.js';
import { isInside, writablePath } from '../../state/bounded-file.js';
import { visibleDeep } from '../../core/visible-text.js';
import { UnsafePath } from '../../errors.js';
import type { Handoff } from '../../core/schema.js';

/** Versions whose provenance is asked at once (as `log` does). */
const WINDOW = 256;

export interface ViewFileRequest {
  /** the FILE as given, and the folder it is relative to */
  file: string;
  cwd: string;
  includeEncrypted: boolean;
}

export interface ViewFileResult {
  path: string;
  versions: number;
  /** encrypted versions included */
  encrypted: number;
  /** encrypted versions left out (not asked for, or not readable with this user's keys) */
  omitted: number;
  bytes: number;
}

/** The path to write: a regular file or none yet (inside the work tree, with no symlink leading out); never a folder or a FIFO. */
function target(repo: Repo, file: string, cwd: string): string {
  const abs = resolve(cwd, file);
  const top = repo.workTree;
  if (top && isInside(resolve(top), abs)) return writablePath(top, relative(top, abs), 'the view file');
  let st;
  try {
    st = lstatSync(abs).isSymbolicLink() ? statSync(abs) : lstatSync(abs);
  } catch {
    return abs;
  }
  if (!st.isFile()) throw new UnsafePath(`refusing the view file: ${file} is ${st.isDirectory() ? 'a folder' : 'not a regular file'}`, { path: file });
  return abs;
}

export async function writeViewFile(repo: Repo, req: ViewFileRequest): Promise<ViewFileResult> {
  const path = target(repo, req.file, req.cwd);
  const reader = new VersionReader(repo);
  const heads = new BranchHeads(reader);
  const rows: ViewRow[] = [];
  const handoffs: Record<string, Handoff> = {};
  const said: Record<string, string[]> = {};
  let encrypted = 0;
  let omitted = 0;
  let window: ListedVersion[] = [];
  const flush = async () => {
    const described = await describe(repo, reader, heads, window);
    window.forEach((v, n) => {
      const provenance = described.provenance.get(v.id)!;
      rows.push(described.rows[n]);
      if (v.readable) handoffs[v.id] = v.handoff;
      // what `show --version` would say before the bookmark, of what the listing knows (a
      // listed version has all that notices() reads of a version: id, target, handoff)
      const lines = notices({
        version: v as unknown as ReadVersion,
        skipped: [],
        fallback: false,
        currentBranch: null,
        date: described.rows[n].date,
        stale: false,
        ageDays: null,
        staleDays: 0,
        due: null,
        remoteAhead: null,
        provenance,
      });
      if (lines.length) said[v.id] = lines;
    });
    window = [];
  };
  const { versions } = await listAll(repo, reader);
  for await (const v of versions) {
    if (v.visibility !== 'shared') {
      if (!req.includeEncrypted || !v.readable) {
        omitted++;
        continue;
      }
      encrypted++;
    }
    window.push(v);
    if (window.length >= WINDOW) await flush();
  }
  await flush();
  const items = repo.workTree === null ? [] : (await allStatuses(repo)).statuses.map(itemJson);
  const name = basename(repo.workTree ?? repo.gitDir);
  const data = visibleDeep({
    format: 'git-handoff-view',
    generated: new Date().toISOString(),
    title: `git handoff view: ${name}`,
    include_encrypted: req.includeEncrypted,
    encrypted,
    omitted,
    versions: rows,
    handoffs,
    notices: said,
    items,
  });
  const html = filePage(data, data.title);
  writeExport(path, html);
  return { path, versions: rows.length, encrypted, omitted, bytes: Buffer.byteLength(html) };
}
