/**
 * The view's data API (docs/view.md "The data API"): each route answers what the CLI's
 * command answers (`show`, `diff`, `search`, `status` through the same use cases and the
 * same JSON documents), every string made visible by the one sanitiser.
 */
import type { Repo } from '../../git/repo.js';
import { showHandoff, showVersion } from '../show.js';
import { bookmarkText, notices, showJson } from '../show-report.js';
import { diffJson, diffOf, diffText, diffVersions } from '../diff.js';
import { readCommit } from '../../git/read-objects.js';
import type { ReadVersion } from '../../git/handoff-store.js';
import { VersionReader } from '../../history/reader.js';
import { searchHandoffs, searchJson } from '../search.js';
import { allStatuses, itemJson } from '../status.js';
import { RowPager } from './rows.js';
import { visibleDeep } from '../../core/visible-text.js';
import { isHandoffError, UsageError } from '../../errors.js';

export const DEFAULT_PAGE = 100;
export const MAX_PAGE = 500;

export interface ApiAnswer {
  status: number;
  body: unknown;
}

const ok = (body: Record<string, unknown>): ApiAnswer => ({ status: 200, body: visibleDeep(body) });

/** A cursor names a place in the listing: `<offset>` (opaque to the client). */
function offsetOf(cursor: string | null): number {
  if (cursor === null || cursor === '') return 0;
  if (!/^\d{1,9}$/.test(cursor)) throw new UsageError(`view: not a cursor: '${cursor}'`);
  return Number(cursor);
}

function limitOf(raw: string | null, max: number, dflt: number): number {
  if (raw === null || raw === '') return dflt;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > max) throw new UsageError(`view: limit must be a whole number from 1 to ${max}, not '${raw}'`);
  return n;
}

function required(params: URLSearchParams, name: string): string {
  const v = params.get(name);
  if (v === null || v === '') throw new UsageError(`view: missing the parameter '${name}'`);
  return v;
}

export class ViewApi {
  private readonly pager: RowPager;

  private readonly reader: VersionReader;

  constructor(readonly repo: Repo) {
    this.pager = new RowPager(repo);
    this.reader = new VersionReader(repo);
  }

  /**
   * A version named by its full id that a page listed lately, read as `show` reads it (its
   * commit added), or null: then the CLI's own resolution answers (a prefix, ~N, an old one).
   */
  private async known(name: string): Promise<ReadVersion | null> {
    const v = /^[0-9a-f]{40}$/.test(name) ? this.pager.listed(name) : undefined;
    const commit = v && (await readCommit(this.repo.objects, v.id));
    return v && commit ? { ...v, commit } : null;
  }

  /** Reads the first screen before anyone asks (the page the URL opens asks it first). */
  prefetch(): void {
    // (not the search index: building it for a long history holds the server for seconds
    // and every note's text in memory; the first search builds it, as the CLI's does)
    void this.pager.page(0, DEFAULT_PAGE).catch(() => undefined);
  }

  /** Ends what the API keeps open between requests. */
  close(): Promise<void> {
    return this.pager.close();
  }

  /** The answer to GET `path` (under /api/), or null when no route has that name. */
  async answer(path: string, params: URLSearchParams): Promise<ApiAnswer | null> {
    try {
      return await this.route(path, params);
    } catch (e) {
      if (!isHandoffError(e) || e.exitCode === 3) throw e;
      const status = e.exitCode === 2 ? 400 : e.code === 'UnknownVersion' || e.code === 'TooFewVersions' ? 404 : 400;
      return { status, body: visibleDeep({ ok: false, error: { code: e.code, message: e.message } }) };
    }
  }

  private async route(path: string, params: URLSearchParams): Promise<ApiAnswer | null> {
    const repo = this.repo;
    if (path === '/api/versions') {
      const offset = offsetOf(params.get('cursor'));
      const page = await this.pager.page(offset, limitOf(params.get('limit'), MAX_PAGE, DEFAULT_PAGE));
      return ok({ ok: true, tip: page.tip, versions: page.rows, next_cursor: page.more ? String(offset + page.rows.length) : null });
    }
    const one = /^\/api\/version\/([^/]+)$/.exec(path);
    if (one) {
      const name = decodeURIComponent(one[1]);
      const known = await this.known(name);
      const r = known ? await showVersion(repo, this.reader, known) : await showHandoff(repo, { version: name, all: true });
      return ok({ ...showJson(r), bookmark: bookmarkText(r), notices: notices(r) });
    }
    if (path === '/api/diff') {
      const [a, b] = [required(params, 'old'), required(params, 'new')];
      const [ka, kb] = [await this.known(a), await this.known(b)];
      const d = ka && kb ? await diffOf(ka, kb, false) : await diffVersions(repo, { old: a, new: b, all: true, checkBranch: false });
      return ok({ ...diffJson(d), text: await diffText(d) });
    }
    if (path === '/api/search') {
      const r = await searchHandoffs(repo, { query: required(params, 'q'), limit: limitOf(params.get('limit'), MAX_PAGE, 50) });
      return ok(searchJson(r));
    }
    if (path === '/api/items') {
      if (repo.workTree === null) return ok({ ok: true, items: [] });
      const { statuses } = await allStatuses(repo);
      return ok({ ok: true, items: statuses.map(itemJson) });
    }
    return null;
  }
}
