/**
 * The version graph as a virtualised list: one row per version, newest at the top, one
 * lane per branch, and the edges of its lineage (docs/view.md "The page"). Only the rows on
 * screen (and a few beyond) are in the document, so 50,000 versions scroll like fifty.
 */
import type { ViewRow } from './source.js';
import { clear, el, short, svg } from './dom.js';

export const ROW_H = 28;
const LANE_W = 14;
const MAX_LANES = 8;
const OVERSCAN = 8;

export type EdgeKind = 'continues' | 'diverged' | 'relay' | 'rewrite' | 'squash';

export interface GraphHandlers {
  /** a row was clicked (`extend`: with shift, to pick the second version of a diff) */
  pick(id: string, extend: boolean): void;
  /** the list was scrolled near its end: load more if there is more */
  nearEnd(): void;
}

/** The kind of the edge from `child` to a version it continues (docs/view.md). */
export function edgeKind(child: ViewRow, parent: ViewRow): EdgeKind {
  if (parent.relay) return 'relay';
  if (child.diverged) return 'diverged';
  return 'continues';
}

export class Graph {
  readonly root: HTMLDivElement;
  private readonly spacer: HTMLDivElement;
  private readonly layer: HTMLDivElement;
  private rows: ViewRow[] = [];
  private index = new Map<string, number>();
  private byTarget = new Map<string, number>();
  private children = new Map<string, string[]>();
  private lanes = new Map<string | null, number>();
  private selected: string | null = null;
  private marked = new Set<string>();
  private frame = 0;
  private drawn = false;

  constructor(private readonly on: GraphHandlers) {
    this.spacer = el('div', { class: 'spacer' });
    this.layer = el('div', { class: 'layer' });
    this.spacer.append(this.layer);
    this.root = el('div', { class: 'graph', 'data-testid': 'graph', tabindex: '0', role: 'listbox', 'aria-label': 'versions' }, this.spacer);
    this.root.addEventListener('scroll', () => this.schedule());
    window.addEventListener('resize', () => this.schedule());
  }

  setRows(rows: ViewRow[]): void {
    this.rows = rows;
    this.index = new Map(rows.map((r, i) => [r.version, i]));
    this.byTarget = new Map();
    this.children = new Map();
    rows.forEach((r, i) => {
      if (!this.byTarget.has(r.target)) this.byTarget.set(r.target, i);
      if (!this.lanes.has(r.branch)) this.lanes.set(r.branch, this.lanes.size);
      for (const p of r.continues) this.children.set(p, [...(this.children.get(p) ?? []), r.version]);
    });
    this.spacer.style.height = `${rows.length * ROW_H}px`;
    this.schedule();
  }

  get list(): readonly ViewRow[] {
    return this.rows;
  }

  setSelected(id: string | null, marked: string[] = [], reveal = true): void {
    this.selected = id;
    this.marked = new Set(marked);
    if (id !== null && reveal) this.reveal(id);
    this.schedule();
  }

  /** Scrolls so that the row of `id` is on screen. */
  reveal(id: string): void {
    const i = this.index.get(id);
    if (i === undefined) return;
    const top = i * ROW_H;
    const view = this.root.clientHeight || 600;
    if (top < this.root.scrollTop) this.root.scrollTop = top;
    else if (top + ROW_H > this.root.scrollTop + view) this.root.scrollTop = top + ROW_H - view;
  }

  private schedule(): void {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.draw();
    });
  }

  /** Draws now (the tests and the first screen do not wait for a frame). */
  draw(): void {
    const view = this.root.clientHeight || 600;
    const first = Math.max(0, Math.floor(this.root.scrollTop / ROW_H) - OVERSCAN);
    const last = Math.min(this.rows.length, Math.ceil((this.root.scrollTop + view) / ROW_H) + OVERSCAN);
    clear(this.layer);
    const gutter = Math.min(this.lanes.size, MAX_LANES) * LANE_W + LANE_W;
    const edges = svg('svg', { class: 'edges', width: String(gutter + 40), height: String(Math.max(1, (last - first) * ROW_H)) });
    this.layer.style.top = `${first * ROW_H}px`;
    this.layer.append(edges);
    const x = (r: ViewRow) => LANE_W / 2 + Math.min(this.lanes.get(r.branch) ?? 0, MAX_LANES - 1) * LANE_W + 4;
    const y = (i: number) => (i - first) * ROW_H + ROW_H / 2;
    const line = (kind: EdgeKind, x1: number, y1: number, x2: number, y2: number, from: string, to: string) => {
      const mid = (y1 + y2) / 2;
      edges.append(
        svg('path', {
          'data-testid': 'edge',
          'data-kind': kind,
          'data-from': from,
          'data-to': to,
          class: `edge ${kind}`,
          d: x1 === x2 ? `M${x1} ${y1}L${x2} ${y2}` : `M${x1} ${y1}C${x1} ${mid} ${x2} ${mid} ${x2} ${y2}`,
        }),
      );
    };
    for (let i = first; i < last; i++) {
      const r = this.rows[i];
      // edges down to what it continues, and up from what continues it when that is above the window
      for (const p of r.continues) {
        const j = this.index.get(p);
        if (j !== undefined) line(edgeKind(r, this.rows[j]), x(r), y(i), x(this.rows[j]), y(j), r.version, p);
      }
      for (const c of this.children.get(r.version) ?? []) {
        const j = this.index.get(c);
        if (j !== undefined && j < first) line(edgeKind(this.rows[j], r), x(this.rows[j]), y(j), x(r), y(i), c, r.version);
      }
      if (r.moved) {
        // to the version written on the commit it was moved from, else to a mark that names that commit
        const j = this.byTarget.get(r.moved.from);
        if (j !== undefined && j !== i) line(r.moved.by, x(r), y(i), x(this.rows[j]), y(j), r.version, this.rows[j].version);
        else line(r.moved.by, x(r), y(i), gutter + 20, y(i), r.version, r.moved.from);
      }
      this.layer.append(this.rowElement(r, i - first, x(r), gutter + 40));
    }
    // the moment the first versions are on screen, for the bench and the browser tests
    if (last > first && !this.drawn) {
      this.drawn = true;
      performance.mark('handoff-view:first-screen');
    }
    if (last >= this.rows.length - OVERSCAN) this.on.nearEnd();
  }

  private rowElement(r: ViewRow, at: number, dotX: number, textX: number): HTMLElement {
    const summary = r.readable ? (r.summary ?? '').split('\n')[0] : `(${r.visibility}: not readable here)`;
    const row = el(
      'div',
      {
        class: `row${r.version === this.selected ? ' selected' : ''}${this.marked.has(r.version) ? ' marked' : ''}${r.valid ? '' : ' invalid'}`,
        'data-testid': 'node',
        'data-version': r.version,
        'data-branch': r.branch ?? '',
        'data-diverged': r.diverged ? 'true' : undefined,
        role: 'option',
        'aria-selected': r.version === this.selected ? 'true' : 'false',
        title: `${r.version}${r.moved ? `\nmoved from ${short(r.moved.from)} (${r.moved.by})` : ''}`,
      },
      el('span', { class: `dot${r.head ? ' head' : ''}${r.diverged ? ' diverged' : ''}${r.visibility !== 'shared' ? ' sealed' : ''}` }),
      el('span', { class: 'id' }, short(r.version)),
      el('span', { class: 'date' }, r.date.slice(0, 16).replace('T', ' ')),
      el('span', { class: 'branch' }, r.branch ?? '(detached)'),
      r.session_id ? el('span', { class: 'session' }, r.session_id.slice(0, 24)) : null,
      r.diverged ? el('span', { class: 'badge diverged' }, 'diverged') : null,
      r.relay ? el('span', { class: 'badge relay' }, 'relay') : null,
      r.moved ? el('span', { class: `badge ${r.moved.by}` }, r.moved.by === 'squash' ? 'squash' : 'moved') : null,
      el('span', { class: 'summary' }, summary),
    );
    row.style.top = `${at * ROW_H}px`;
    row.style.paddingLeft = `${textX}px`;
    (row.firstChild as HTMLElement).style.left = `${dotX - 5}px`;
    row.addEventListener('click', (e) => this.on.pick(r.version, e.shiftKey));
    return row;
  }
}
