/**
 * `log`: the versions of a selection, newest first, each with the date it stands for. The
 * versions are read one at a time as the caller asks for them, so a history of 50,000
 * versions is never held at once.
 */
import type { Repo } from '../git/repo.js';
import { canStream, type StreamedVersion } from '../git/version-stream.js';
import { VersionReader } from '../history/reader.js';
import { selectBulk } from '../history/bulk.js';
import { isoUtc } from '../git/identity.js';
import { checkedSelection, selectionFor } from './show.js';
import { isUsersOwn, type Provenance } from '../core/provenance.js';
import type { Handoff } from '../core/schema.js';

/** Versions whose provenance is asked at once. */
const PROVENANCE_WINDOW = 256;

/** A row of `log --json` (DESIGN.md), also the view's rows (view/rows.ts). */
export interface LogRow {
  version: string;
  target: string;
  date: string;
  valid: boolean;
  session_id: string | null;
  status: string | null;
  summary: string | null;
  /** the versions it continues (docs/format.md "Lineage"); [] for a first version or one written before lineage */
  continues: string[];
  author: { name: string; email: string };
  origin: string | null;
  signature: string;
  signer?: string;
  visibility: string;
  readable: boolean;
}

export interface LogRequest {
  branch?: string;
  all?: boolean;
  /** refuse a `branch` that has no version, as `show` does (the CLI; not the MCP tool) */
  checkBranch: boolean;
  /**
   * Read the whole history in one pass (one git log, one cat-file --batch) where the
   * repository allows it: for a listing of every version (the CLI), not a first few.
   */
  bulk: boolean;
}

/**
 * What a listing shows of a version, whichever reader read it: a few fields, not the whole
 * note. A window of versions waits for its provenance, and holding each one's parsed note
 * and text through it made every young-generation GC copy ~2.5 MB (a tenth of `log --json`'s
 * CPU on 50,000 versions); the rest of each note dies young.
 */
export type ListedVersion = Pick<StreamedVersion, 'id' | 'target' | 'branch' | 'valid' | 'sealed' | 'problems' | 'continues' | 'visibility' | 'readable'> & {
  handoff: Pick<Handoff, 'session_id' | 'status' | 'summary'>;
};

const listed = (v: StreamedVersion): ListedVersion => ({
  id: v.id,
  target: v.target,
  branch: v.branch,
  valid: v.valid,
  sealed: v.sealed,
  problems: v.problems,
  continues: v.continues,
  visibility: v.visibility,
  readable: v.readable,
  handoff: { session_id: v.handoff.session_id, status: v.handoff.status, summary: v.handoff.summary },
});

export interface LogEntry {
  /** what a listing shows of a version */
  version: ListedVersion;
  /** whose words it holds */
  provenance: Provenance;
  /** written by the current user (made in this clone, or signed by a key the user trusts) */
  own: boolean;
  /** the handoff's own date, else its commit's time (ISO 8601, UTC) */
  date: string;
}

/**
 * Resolves the selection first (a refusal comes before any output), then yields its
 * versions lazily: the caller stops reading when it has enough.
 */
export async function logVersions(repo: Repo, req: LogRequest): Promise<AsyncGenerator<LogEntry>> {
  const reader = new VersionReader(repo);
  const sel = req.checkBranch ? await checkedSelection(repo, reader, req) : selectionFor(repo, req);
  // The bulk reader hands on each version's commit bytes: provenance need not read them again.
  const commits = new Map<string, Buffer>();
  const { versions } = req.bulk && canStream(repo) ? await selectBulk(repo, sel, commits) : await reader.select(sel);
  const prov = reader.provenance;
  return (async function* () {
    // Provenance is asked a window at a time: one git process per window at most, and only
    // for signed commits or versions this clone did not make.
    // The first version goes at once (a reader that wants one should not wait for a window).
    let window: { v: ListedVersion; date: string }[] = [];
    let size = 1;
    const flush = async function* (): AsyncGenerator<LogEntry> {
      const p = await prov.of(
        window.map((w) => w.v.id),
        commits,
      );
      for (const w of window) commits.delete(w.v.id);
      const batch = window;
      window = [];
      size = PROVENANCE_WINDOW;
      for (const { v, date } of batch)
        yield {
          version: v,
          provenance: p.get(v.id)!,
          own: isUsersOwn(p.get(v.id)!),
          date,
        };
    };
    for await (const v of versions) {
      window.push({ v: listed(v), date: typeof v.handoff.date === 'string' ? v.handoff.date : isoUtc(v.timestamp) });
      if (window.length >= size) yield* flush();
    }
    if (window.length) yield* flush();
  })();
}
