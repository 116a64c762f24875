/**
 * The page of `git handoff view` (docs/view.md "The page"): the graph, the bookmark of the
 * version picked, the diff of two, search, filters and work items, from the server's API or
 * from the JSON block of a file written by `view --html`. Plain DOM, no framework.
 */
import { FileSource, LiveSource, type Embedded, type Source, type ViewRow } from './source.js';
import { Graph } from './graph.js';
import { el, short } from './dom.js';
import { fillDiffSelects, fillSelect, renderItems, renderResults, showText } from './panels.js';

const authorOf = (r: ViewRow) => (r.author.email ? `${r.author.name} <${r.author.email}>` : r.author.name);

class App {
  private all: ViewRow[] = [];
  private byId = new Map<string, ViewRow>();
  private next: string | null = null;
  private loading = false;
  private tip: string | null = null;
  private selected: string | null = null;
  private pair: [string | null, string | null] = [null, null];
  private readonly graph: Graph;
  private readonly ui = {
    search: el('input', { type: 'search', 'data-testid': 'search', placeholder: 'search every version (the CLI’s search)', 'aria-label': 'search' }),
    branch: el('select', { 'data-testid': 'filter-branch', 'aria-label': 'branch' }),
    session: el('input', { type: 'text', 'data-testid': 'filter-session', placeholder: 'session', 'aria-label': 'session' }),
    author: el('select', { 'data-testid': 'filter-author', 'aria-label': 'author' }),
    date: el('input', { type: 'date', 'data-testid': 'filter-date', 'aria-label': 'from date' }),
    bookmark: el('pre', { 'data-testid': 'bookmark', class: 'bookmark' }, 'Pick a version: click it, or move with j/k and press Enter.'),
    diffOld: el('select', { 'data-testid': 'diff-old', 'aria-label': 'older version' }),
    diffNew: el('select', { 'data-testid': 'diff-new', 'aria-label': 'newer version' }),
    diff: el('pre', { 'data-testid': 'diff', class: 'diff' }, 'Shift-click a second version, or pick two here.'),
    results: el('ul', { 'data-testid': 'results', class: 'results' }),
    items: el('ul', { 'data-testid': 'items', class: 'items' }),
    status: el('div', { 'data-testid': 'status', class: 'status', role: 'status' }),
  };

  constructor(
    private readonly source: Source,
    private readonly embedded: Embedded | null,
  ) {
    this.graph = new Graph({ pick: (id, extend) => this.pick(id, extend), nearEnd: () => void this.loadMore() });
  }

  start(root: HTMLElement): void {
    const u = this.ui;
    const title = this.embedded ? this.embedded.title : 'git handoff view';
    document.title = title;
    const banner = this.banner();
    root.append(
      el('header', { class: 'bar' }, el('h1', {}, title), u.search, u.branch, u.session, u.author, u.date),
      ...(banner ? [banner] : []),
      el(
        'main',
        { class: 'main' },
        el('section', { class: 'left' }, this.graph.root, u.status),
        el(
          'section',
          { class: 'right' },
          el('div', { class: 'panel' }, el('h2', {}, 'Bookmark'), u.bookmark),
          el('div', { class: 'panel' }, el('h2', {}, 'Diff'), el('div', { class: 'pickers' }, u.diffOld, u.diffNew), u.diff),
          el('div', { class: 'panel' }, el('h2', {}, 'Search'), u.results),
          el('div', { class: 'panel' }, el('h2', {}, 'Work items'), u.items),
        ),
      ),
    );
    for (const f of [u.branch, u.author, u.date]) f.addEventListener('change', () => this.applyFilters());
    u.session.addEventListener('input', () => this.applyFilters());
    let timer = 0;
    u.search.addEventListener('input', () => {
      clearTimeout(timer);
      timer = window.setTimeout(() => void this.search(), 250);
    });
    u.search.addEventListener('keydown', (e) => e.key === 'Enter' && void this.search());
    const pickPair = () => {
      this.pair = [u.diffOld.value || null, u.diffNew.value || null];
      void this.showDiff();
    };
    u.diffOld.addEventListener('change', pickPair);
    u.diffNew.addEventListener('change', pickPair);
    document.addEventListener('keydown', (e) => this.key(e));
    // the work items once the first screen is drawn: they are below it
    void this.reload().then(() =>
      this.source
        .items()
        .then((items) => renderItems(u.items, items))
        .catch((e: Error) => showText(u.items, `work items: ${e.message}`)),
    );
    this.source.watch((tip) => {
      if (tip !== this.tip) void this.reload();
    });
  }

  private banner(): HTMLElement | null {
    const d = this.embedded;
    if (!d) return null;
    if (d.include_encrypted && d.encrypted > 0)
      return el(
        'div',
        { class: 'banner', 'data-testid': 'encrypted-banner', role: 'note' },
        `This file includes ${d.encrypted} encrypted version${d.encrypted === 1 ? '' : 's'} (team or private) in readable form: whoever has the file can read them.`,
      );
    if (d.omitted > 0) return el('div', { class: 'note' }, `${d.omitted} encrypted version${d.omitted === 1 ? ' is' : 's are'} left out of this file.`);
    return null;
  }

  /** The first page again (a new version appeared): the selection stays. */
  private async reload(): Promise<void> {
    try {
      const page = await this.source.versions(null);
      this.tip = page.tip;
      this.all = [];
      this.byId.clear();
      this.add(page.versions, page.next_cursor);
    } catch (e) {
      this.ui.status.textContent = `could not load the versions: ${(e as Error).message}`;
    }
  }

  private async loadMore(): Promise<void> {
    if (this.loading || !this.next) return;
    this.loading = true;
    try {
      const page = await this.source.versions(this.next);
      if (page.tip !== this.tip) return void (await this.reload());
      this.add(page.versions, page.next_cursor);
    } catch (e) {
      this.ui.status.textContent = `could not load more versions: ${(e as Error).message}`;
    } finally {
      this.loading = false;
    }
  }

  private add(rows: ViewRow[], next: string | null): void {
    for (const r of rows) {
      if (this.byId.has(r.version)) continue;
      this.byId.set(r.version, r);
      this.all.push(r);
    }
    this.next = next;
    const distinct = (f: (r: ViewRow) => string) => [...new Set(this.all.map(f))];
    fillSelect(
      this.ui.branch,
      'all branches',
      distinct((r) => r.branch ?? '(detached)'),
    );
    fillSelect(this.ui.author, 'all authors', distinct(authorOf));
    this.applyFilters();
  }

  private applyFilters(): void {
    const u = this.ui;
    const branch = u.branch.value;
    const author = u.author.value;
    const session = u.session.value.trim().toLowerCase();
    const from = u.date.value;
    const shown = this.all.filter(
      (r) =>
        (!branch || (r.branch ?? '(detached)') === branch) &&
        (!author || authorOf(r) === author) &&
        (!session || (r.session_id ?? '').toLowerCase().includes(session)) &&
        (!from || r.date.slice(0, 10) >= from),
    );
    this.graph.setRows(shown);
    this.graph.setSelected(
      this.selected,
      this.pair.filter((x): x is string => x !== null),
      false,
    );
    fillDiffSelects([u.diffOld, u.diffNew], shown, this.pair);
    const filtered = shown.length !== this.all.length ? ` (${shown.length} shown)` : '';
    u.status.textContent = `${this.all.length} version${this.all.length === 1 ? '' : 's'}${this.next ? ' loaded, more below' : ''}${filtered}`;
  }

  private pick(id: string, extend: boolean): void {
    if (extend && this.selected && this.selected !== id) {
      const list = this.graph.list;
      const [a, b] = [list.findIndex((r) => r.version === this.selected), list.findIndex((r) => r.version === id)];
      // the lower row is the older version
      this.pair = a > b ? [this.selected, id] : [id, this.selected];
      fillDiffSelects([this.ui.diffOld, this.ui.diffNew], list, this.pair);
      this.graph.setSelected(this.selected, this.pair as string[]);
      return void this.showDiff();
    }
    this.selected = id;
    this.graph.setSelected(
      id,
      this.pair.filter((x): x is string => x !== null),
    );
    void this.open(id);
  }

  private async open(id: string): Promise<void> {
    const b = this.ui.bookmark;
    b.setAttribute('data-version', id);
    try {
      const doc = await this.source.version(id);
      if (this.selected !== id) return;
      showText(b, doc.bookmark ?? [...doc.notices, `version ${short(id)}: nothing to show (${doc.visibility}, not readable here)`].join('\n'), true);
    } catch (e) {
      showText(b, `version ${short(id)}: ${(e as Error).message}`);
    }
  }

  private async showDiff(): Promise<void> {
    const [a, b] = this.pair;
    if (!a || !b) return;
    this.ui.diff.setAttribute('data-old', a);
    this.ui.diff.setAttribute('data-new', b);
    try {
      showText(this.ui.diff, await this.source.diff(a, b));
    } catch (e) {
      showText(this.ui.diff, `diff: ${(e as Error).message}`);
    }
  }

  private async search(): Promise<void> {
    const q = this.ui.search.value.trim();
    if (!q) return renderResults(this.ui.results, [], () => undefined);
    try {
      const hits = await this.source.search(q);
      if (this.ui.search.value.trim() === q) renderResults(this.ui.results, hits, (id) => this.pick(id, false));
    } catch (e) {
      showText(this.ui.results, `search: ${(e as Error).message}`);
    }
  }

  private key(e: KeyboardEvent): void {
    const t = e.target as HTMLElement | null;
    if (t && (t.tagName === 'INPUT' || t.tagName === 'SELECT' || t.tagName === 'TEXTAREA')) return;
    const list = this.graph.list;
    if (!list.length) return;
    const at = this.selected ? list.findIndex((r) => r.version === this.selected) : -1;
    let to = at;
    if (e.key === 'j' || e.key === 'ArrowDown') to = Math.min(list.length - 1, at + 1);
    else if (e.key === 'k' || e.key === 'ArrowUp') to = Math.max(0, at - 1);
    else if (e.key === 'Enter' && this.selected) return void this.open(this.selected);
    else return;
    e.preventDefault();
    this.selected = list[to].version;
    this.graph.setSelected(
      this.selected,
      this.pair.filter((x): x is string => x !== null),
    );
  }
}

/** The data of a file written by `view --html`: its JSON block, gzipped (src/app/view/page.ts `packedData`). */
async function embeddedData(): Promise<Embedded | null> {
  const block = document.getElementById('handoff-data');
  if (!block) return null;
  const packed = JSON.parse(block.textContent ?? '{}') as { encoding?: string; data?: string };
  if (packed.encoding !== 'gzip+base64' || typeof packed.data !== 'string') return packed as unknown as Embedded;
  const bytes = Uint8Array.from(atob(packed.data), (c) => c.charCodeAt(0));
  const text = await new Response(new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'))).text();
  return JSON.parse(text) as Embedded;
}

void embeddedData().then((embedded) =>
  new App(embedded ? new FileSource(embedded) : new LiveSource(), embedded).start(document.getElementById('app') ?? document.body),
);
