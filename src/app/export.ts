/**
 * `export`: the latest handoff (or `--version V`) as `.tasks/NEXT_SESSION.md`, JSON or
 * YAML. JSON and YAML carry every field; next-session the fields of its convention.
 */
import type { Repo } from '../git/repo.js';
import { VersionReader } from '../history/reader.js';
import { isoUtc } from '../git/identity.js';
import { checkedSelection } from './show.js';
import { toCanonicalYaml } from '../core/canonical.js';
import { renderNextSession } from '../core/next-session.js';
import { NoHandoff } from '../errors.js';
import { isInside, writablePath } from '../state/bounded-file.js';
import { realpathSync, statSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { writeFileAtomic } from '../state/atomic-write.js';
import type { Visibility } from '../core/age.js';

export const EXPORT_FORMATS = ['next-session', 'json', 'yaml'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export interface ExportRequest {
  format: ExportFormat;
  version?: string;
  branch?: string;
  all?: boolean;
}

export interface ExportResult {
  version: string;
  text: string;
  /** the current branch had no version, so the newest one overall was exported (its branch) */
  fallback: { branch: string | null; from: string | null } | null;
  /** the work tree exported from (null in a bare repository): a target inside it must stay inside */
  workTree: string | null;
  /** who may read the exported version (docs/privacy.md) */
  visibility: Visibility;
  /** one line each: newer versions the user's key cannot read, passed over */
  unreadable: string[];
}

/**
 * The file `export -o` writes, checked before anything is written (a dry run too): a path
 * inside the work tree must not leave it through a symlink the repository ships (a tracked
 * `notes.md` linked to `~/.bashrc`), and must be a regular file or none. A path outside the
 * work tree is the user's own choice.
 */
export function exportTarget(r: ExportResult, path: string): string {
  const top = r.workTree;
  if (!top || !isInside(resolve(top), resolve(path))) return path;
  return writablePath(top, relative(top, resolve(path)), 'the export target');
}

/**
 * Writes the export to its checked target, atomically: on a full disk the old file stays
 * whole. A link outside the work tree (the user's own) is written through, and an existing
 * file keeps its mode.
 */
export function writeExport(target: string, text: string): void {
  let path = target;
  let mode: number | undefined;
  try {
    path = realpathSync(target);
    mode = statSync(path).mode & 0o7777;
  } catch {
    /* not there yet */
  }
  writeFileAtomic(path, text, mode === undefined ? {} : { mode });
}

export async function exportHandoff(repo: Repo, req: ExportRequest): Promise<ExportResult> {
  const reader = new VersionReader(repo);
  const sel = await checkedSelection(repo, reader, req);
  const latest = req.version ? null : await reader.latest(sel);
  const v = req.version ? await reader.resolve(req.version, sel) : latest!.version;
  if (!v) throw new NoHandoff('there is no handoff yet; nothing to export');
  const h = v.handoff;
  let text: string;
  if (req.format === 'json') text = `${JSON.stringify(h, null, 2)}\n`;
  else if (req.format === 'yaml') text = v.valid && v.text ? v.text : toCanonicalYaml(h as Record<string, unknown>);
  else text = renderNextSession(h, typeof h.date === 'string' ? h.date : isoUtc(v.timestamp));
  const fallback = latest?.fallback ? { branch: sel.branch ?? null, from: v.branch ?? null } : null;
  const unreadable = (latest?.skipped ?? []).filter((s) => s.sealed).map((s) => `version ${s.id.slice(0, 12)}: ${s.problems[0]}`);
  return { version: v.id, text, fallback, workTree: repo.workTree, visibility: v.visibility, unreadable };
}
