/**
 * A version as the view draws it (docs/view.md "The data API"): the row `log --json` gives,
 * and what the reader knows of its place in the graph: a head, one of a divergence's heads,
 * moved by a rewrite or carried onto a squash merge, asking for a relay. Pages are read
 * through the one reader, a page at a time: the server never holds every note's text.
 */
import type { Repo } from '../../git/repo.js';
import type { LogRow } from '../log.js';
import type { NoteReading } from '../../git/note-reading.js';
import { VersionReader } from '../../history/reader.js';
import { selectBulk } from '../../history/bulk.js';
import { canStream } from '../../git/version-stream.js';
import { readCommit } from '../../git/read-objects.js';
import { parseTrailers } from '../../git/objects.js';
import { isoUtc } from '../../git/identity.js';
import { provenanceJson, type Provenance } from '../../core/provenance.js';
import { movedByRewrite } from '../../core/rewrite.js';
import { relayReasonOf } from '../../core/relay.js';
import { subjectLine } from '../../core/substantive.js';

/** How much of a summary a row carries: the list shows one line; the bookmark has the rest. */
const SUMMARY_CHARS = 300;
/** How many listed versions are kept to answer a click without a walk (a few MB at most). */
const RECENT = 2000;

export interface Moved {
  from: string;
  to: string;
  by: 'rewrite' | 'squash';
}

/** A `log --json` row with where it stands in the graph. */
export interface ViewRow extends LogRow {
  branch: string | null;
  head: boolean;
  diverged: boolean;
  moved: Moved | null;
  relay: string | null;
}

const text = (x: unknown): string | null => (typeof x === 'string' ? x : null);

/** A version as either reader lists it (the store's walk, or the bulk stream `log` uses). */
export interface ListedVersion extends NoteReading {
  id: string;
  target: string;
  writtenAt: string;
  continues: string[] | null;
  beside: string[];
  timestamp: number;
  native: boolean;
}

/** How a version came to sit where it sits, when it was not written there (`message`: its commit's). */
export function movedOf(v: ListedVersion, message: string): Moved | null {
  const trailers = parseTrailers(message);
  const reattached = trailers['Handoff-Reattached-From'];
  if (reattached) {
    // app/heal.ts names a squash merge (local, or the same tree merged on the forge) in the subject
    const squash = /\((squash merge|same tree[^)]*)\)\s*$/.test(subjectLine(message));
    return { from: reattached, to: v.target, by: squash ? 'squash' : 'rewrite' };
  }
  if (v.writtenAt !== v.target) return { from: v.writtenAt, to: v.target, by: 'rewrite' };
  const m = movedByRewrite(v.handoff, v.target);
  return m ? { ...m, by: 'rewrite' } : null;
}

export function viewRow(v: ListedVersion, message: string, p: Provenance, place: { head: boolean; diverged: boolean }): ViewRow {
  const h = v.handoff;
  const summary = text(h.summary);
  return {
    version: v.id,
    target: v.target,
    date: text(h.date) ?? isoUtc(v.timestamp),
    branch: v.branch ?? null,
    valid: v.valid,
    session_id: text(h.session_id),
    status: text(h.status),
    summary: summary && summary.length > SUMMARY_CHARS ? `${summary.slice(0, SUMMARY_CHARS - 1)}…` : summary,
    continues: v.continues ?? [],
    ...provenanceJson(p),
    visibility: v.visibility,
    readable: v.readable,
    head: place.head,
    diverged: place.diverged,
    moved: movedOf(v, message),
    relay: relayReasonOf(parseTrailers(message)),
  };
}

/** The heads of each branch at one tip, asked of the reader once per branch met. */
export class BranchHeads {
  private readonly heads = new Map<string | null, Promise<{ heads: Set<string>; diverged: boolean }>>();
  constructor(private readonly reader: VersionReader) {}

  place(v: { id: string; branch: string | null | undefined }): Promise<{ head: boolean; diverged: boolean }> {
    const b = v.branch ?? null;
    let found = this.heads.get(b);
    if (!found) {
      found = this.reader.latest({ branch: b }).then((l) => ({
        heads: new Set([...(l.version && !l.fallback ? [l.version.id] : []), ...(l.fallback ? [] : l.diverged.map((d) => d.id))]),
        diverged: !l.fallback && l.diverged.length > 0,
      }));
      this.heads.set(b, found);
    }
    return found.then((f) => ({ head: f.heads.has(v.id), diverged: f.diverged && f.heads.has(v.id) }));
  }
}

/**
 * Pages of rows in the reader's order (every branch). The client asks page after page as it
 * scrolls: the walk is kept between requests and resumed where the last page ended; a
 * cursor for another place (or another tip) starts a new walk and skips to it.
 */
export class RowPager {
  private walk: { tip: string | null; offset: number; it: AsyncGenerator<ListedVersion>; heads: BranchHeads; peeked: ListedVersion | null } | null = null;
  private readonly reader: VersionReader;

  constructor(readonly repo: Repo) {
    this.reader = new VersionReader(repo);
  }

  /** The versions listed last (at most RECENT), by id: a click on one reads it from here, not by walking the history again. */
  private readonly recent = new Map<string, ListedVersion>();

  /** A version a page listed lately, or undefined. */
  listed(id: string): ListedVersion | undefined {
    return this.recent.get(id);
  }

  private remember(batch: ListedVersion[]): void {
    for (const v of batch) {
      this.recent.delete(v.id);
      this.recent.set(v.id, v);
    }
    for (const id of this.recent.keys()) {
      if (this.recent.size <= RECENT) break;
      this.recent.delete(id);
    }
  }

  /** Ends the walk kept between pages (and the git processes reading it). */
  async close(): Promise<void> {
    const w = this.walk;
    this.walk = null;
    await w?.it.return(undefined);
  }

  /** The last page answered: asked again (a reload, the page opened twice), it is answered at once. */
  private last: { tip: string | null; offset: number; limit: number; page: Promise<{ tip: string | null; rows: ViewRow[]; more: boolean }> } | null = null;

  async page(offset: number, limit: number): Promise<{ tip: string | null; rows: ViewRow[]; more: boolean }> {
    const tip = await this.reader.store.tip();
    const l = this.last;
    if (l && l.tip === tip && l.offset === offset && l.limit === limit) return l.page;
    const page = this.read(tip, offset, limit);
    this.last = { tip, offset, limit, page };
    page.catch(() => (this.last = null));
    return page;
  }

  private async read(tip: string | null, offset: number, limit: number): Promise<{ tip: string | null; rows: ViewRow[]; more: boolean }> {
    if (!this.walk || this.walk.tip !== tip || this.walk.offset !== offset) {
      // the walk left behind holds a git log and a cat-file: end them
      await this.close();
      const { versions } = await listAll(this.repo, this.reader);
      this.walk = { tip, offset: 0, it: versions, heads: new BranchHeads(this.reader), peeked: null };
      while (this.walk.offset < offset) {
        if ((await this.walk.it.next()).done) return { tip, rows: [], more: false };
        this.walk.offset++;
      }
    }
    const w = this.walk;
    const batch: ListedVersion[] = [];
    if (w.peeked && limit > 0) {
      batch.push(w.peeked);
      w.peeked = null;
    }
    let done = false;
    while (batch.length < limit) {
      const n = await w.it.next();
      if (n.done) {
        done = true;
        break;
      }
      batch.push(n.value);
    }
    w.offset += batch.length;
    // One more look ahead says whether a next page exists without a second request.
    if (!done && !w.peeked) {
      const n = await w.it.next();
      if (!n.done) w.peeked = n.value;
    }
    const more = w.peeked !== null;
    this.remember(batch);
    return { tip, rows: (await describe(this.repo, this.reader, w.heads, batch)).rows, more };
  }
}

/**
 * Every version of every branch in the reader's order, as `log --all` reads them: the bulk
 * stream (one git log, one cat-file) where the repository allows it, else the store's walk.
 */
export async function listAll(repo: Repo, reader: VersionReader): Promise<{ versions: AsyncGenerator<ListedVersion> }> {
  return canStream(repo) ? selectBulk(repo, { all: true }) : reader.select({ all: true });
}

/** The rows of a batch of listed versions: their provenance asked together, each commit's trailers read. */
export async function describe(
  repo: Repo,
  reader: VersionReader,
  heads: BranchHeads,
  batch: ListedVersion[],
): Promise<{ rows: ViewRow[]; provenance: Map<string, Provenance> }> {
  const prov = await reader.provenance.of(batch.map((v) => v.id));
  const rows: ViewRow[] = [];
  for (const v of batch) {
    const message = (await readCommit(repo.objects, v.id))?.message ?? '';
    rows.push(viewRow(v, message, prov.get(v.id)!, await heads.place(v)));
  }
  return { rows, provenance: prov };
}
