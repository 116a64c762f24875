/**
 * Where the page's data comes from: the server's API (`git handoff view`), or the JSON
 * block of a self-contained file (`view --html`), where the bookmark, the diff and the search
 * are computed in the page by the same core code the CLI runs (src/core/).
 */
import type { ViewRow } from '../app/view/rows.js';
import type { Handoff } from '../core/schema.js';
import { renderBookmark } from '../core/bookmark.js';
import { diffHandoffs, isBookkeeping, renderVersionDiff } from '../core/version-diff.js';
import { fold, matchFields, queryTerms, searchableFields } from '../core/search.js';
import { visibleDeep } from '../core/visible-text.js';

export type { ViewRow };

export interface Page {
  tip: string | null;
  versions: ViewRow[];
  next_cursor: string | null;
}

export interface VersionDoc {
  version: string;
  bookmark: string | null;
  notices: string[];
  visibility: string;
  readable: boolean;
}

export interface Hit {
  version: string;
  date: string;
  branch: string | null;
  field: string;
  snippet: string;
}

export interface Item {
  work_item: string;
  state: string;
  title: string | null;
  handoff_doc: string | null;
  receipts: { id: string; kind?: string; fromStatus?: string; toStatus?: string; commit?: string | null }[];
}

/** The JSON block of a file written by `view --html` (src/app/view/snapshot.ts writes it). */
export interface Embedded {
  format: 'git-handoff-view';
  generated: string;
  title: string;
  include_encrypted: boolean;
  /** encrypted versions included (readable by the file's maker) */
  encrypted: number;
  /** encrypted versions left out (without --include-encrypted, or unreadable) */
  omitted: number;
  versions: ViewRow[];
  handoffs: Record<string, Handoff>;
  notices: Record<string, string[]>;
  items: Item[];
}

export interface Source {
  live: boolean;
  versions(cursor: string | null): Promise<Page>;
  version(id: string): Promise<VersionDoc>;
  diff(oldId: string, newId: string): Promise<string>;
  search(q: string): Promise<Hit[]>;
  items(): Promise<Item[]>;
  /** calls `onTip` when the history moves (live only) */
  watch(onTip: (tip: string | null) => void): void;
}

async function getJson<T>(path: string): Promise<T> {
  const r = await fetch(path, { credentials: 'same-origin', headers: { accept: 'application/json' } });
  const doc = (await r.json()) as T & { ok: boolean; error?: { message: string } };
  if (!doc.ok) throw new Error(doc.error?.message ?? `${path}: ${r.status}`);
  return doc;
}

export class LiveSource implements Source {
  readonly live = true;
  versions(cursor: string | null): Promise<Page> {
    // the first screen small and soon, the pages below it larger
    return getJson<Page>(cursor ? `/api/versions?limit=200&cursor=${encodeURIComponent(cursor)}` : '/api/versions?limit=100');
  }
  version(id: string): Promise<VersionDoc> {
    return getJson<VersionDoc>(`/api/version/${encodeURIComponent(id)}`);
  }
  async diff(a: string, b: string): Promise<string> {
    return (await getJson<{ text: string }>(`/api/diff?old=${encodeURIComponent(a)}&new=${encodeURIComponent(b)}`)).text;
  }
  async search(q: string): Promise<Hit[]> {
    return (await getJson<{ results: Hit[] }>(`/api/search?q=${encodeURIComponent(q)}`)).results;
  }
  async items(): Promise<Item[]> {
    return (await getJson<{ items: Item[] }>('/api/items')).items;
  }
  watch(onTip: (tip: string | null) => void): void {
    const events = new EventSource('/api/events');
    events.addEventListener('tip', (e) => onTip((JSON.parse((e as MessageEvent<string>).data) as { tip: string | null }).tip));
  }
}

export class FileSource implements Source {
  readonly live = false;
  private readonly rows: Map<string, ViewRow>;
  constructor(readonly data: Embedded) {
    this.rows = new Map(data.versions.map((r) => [r.version, r]));
  }
  async versions(): Promise<Page> {
    return { tip: null, versions: this.data.versions, next_cursor: null };
  }
  async version(id: string): Promise<VersionDoc> {
    const row = this.rows.get(id);
    const handoff = this.data.handoffs[id];
    if (!row) throw new Error(`no version ${id} in this file`);
    const notices = this.data.notices[id] ?? [];
    const bookmark = handoff ? renderBookmark({ version: id, target: row.target, date: row.date, handoff, notices }) : null;
    return { version: id, bookmark, notices, visibility: row.visibility, readable: row.readable };
  }
  async diff(a: string, b: string): Promise<string> {
    const [ra, rb] = [this.rows.get(a), this.rows.get(b)];
    const [ha, hb] = [this.data.handoffs[a], this.data.handoffs[b]];
    if (!ra || !rb || !ha || !hb) throw new Error('both versions must be in this file, and readable');
    const all = diffHandoffs(ha, hb);
    const changes = all.filter((c) => !isBookkeeping(c));
    const moved = [ra, rb].flatMap((r) => (r.moved ? [{ version: r.version, from: r.moved.from, to: r.moved.to }] : []));
    return renderVersionDiff({ old: { id: a, target: ra.target }, new: { id: b, target: rb.target }, changes, hidden: all.length - changes.length, moved });
  }
  /** The CLI's matching and scoring (src/core/search.ts) over the embedded versions, newest first. */
  async search(q: string): Promise<Hit[]> {
    const terms = queryTerms(q);
    if (!terms.length) return [];
    const phrase = terms.length > 1 ? fold(q.trim()) : '';
    const hits: (Hit & { t: number })[] = [];
    for (const row of this.data.versions) {
      const h = this.data.handoffs[row.version];
      if (!h) continue;
      const m = matchFields(searchableFields(h), terms, phrase);
      if (m) hits.push({ version: row.version, date: row.date, branch: row.branch, field: m.field, snippet: m.snippet, t: Date.parse(row.date) || 0 });
    }
    hits.sort((x, y) => y.t - x.t);
    return visibleDeep(hits.slice(0, 50));
  }
  async items(): Promise<Item[]> {
    return this.data.items;
  }
  watch(): void {}
}
