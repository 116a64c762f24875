/**
 * The panels beside the graph: the bookmark, the diff, search results, work items. Each
 * shows text as text (`textContent`); only plain http(s) URLs in a bookmark become links.
 */
import type { Hit, Item, ViewRow } from './source.js';
import { clear, el, linkified, short } from './dom.js';

export function showText(pre: HTMLElement, text: string, links = false): void {
  clear(pre);
  if (links) pre.append(...linkified(text));
  else pre.textContent = text;
}

export function renderResults(list: HTMLElement, hits: Hit[], open: (id: string) => void): void {
  clear(list);
  if (!hits.length) list.append(el('li', { class: 'empty' }, 'no version matches'));
  for (const h of hits) {
    const li = el(
      'li',
      { 'data-testid': 'result', 'data-version': h.version, tabindex: '0' },
      el('span', { class: 'id' }, short(h.version)),
      ' ',
      el('span', { class: 'date' }, h.date.slice(0, 16).replace('T', ' ')),
      ' ',
      el('span', { class: 'branch' }, h.branch ?? '-'),
      ' ',
      el('span', { class: 'field' }, `${h.field}:`),
      ' ',
      el('span', { class: 'snippet' }, h.snippet),
    );
    li.addEventListener('click', () => open(h.version));
    li.addEventListener('keydown', (e) => e.key === 'Enter' && open(h.version));
    list.append(li);
  }
}

export function renderItems(list: HTMLElement, items: Item[]): void {
  clear(list);
  if (!items.length) list.append(el('li', { class: 'empty' }, 'no work items'));
  for (const it of items) {
    const receipts = el('ul', { class: 'receipts' });
    for (const r of it.receipts.slice(0, 10))
      receipts.append(
        el(
          'li',
          { 'data-testid': 'receipt' },
          `receipt ${r.id}: ${r.kind ?? ''} ${r.fromStatus ?? ''} -> ${r.toStatus ?? ''}${r.commit ? `, commit ${r.commit.slice(0, 12)}` : ''}`,
        ),
      );
    if (it.receipts.length > 10) receipts.append(el('li', {}, `… ${it.receipts.length - 10} older receipts`));
    list.append(
      el(
        'li',
        { 'data-testid': 'item', 'data-item': it.work_item, 'data-state': it.state },
        el('span', { class: 'item-id' }, it.work_item),
        ' ',
        el('span', { class: `state ${it.state}` }, it.state),
        it.title ? ` ${it.title}` : '',
        it.handoff_doc ? el('div', { class: 'doc' }, `document: ${it.handoff_doc}`) : null,
        receipts,
      ),
    );
  }
}

/** The two selects of the diff panel: the newest `cap` versions listed, and the picked ones. */
export function fillDiffSelects(selects: HTMLSelectElement[], rows: readonly ViewRow[], picked: (string | null)[], cap = 200): void {
  selects.forEach((s, n) => {
    clear(s);
    s.append(el('option', { value: '' }, n === 0 ? 'older version…' : 'newer version…'));
    // the newest versions, and the picked ones wherever they are (shift-click reaches the rest)
    const listed = rows.slice(0, cap);
    for (const id of picked) if (id && !listed.some((r) => r.version === id)) listed.push(...rows.filter((r) => r.version === id));
    for (const r of listed) {
      const o = el(
        'option',
        { value: r.version },
        `${short(r.version)} ${r.date.slice(0, 10)} ${r.branch ?? '-'} ${(r.summary ?? '').split('\n')[0].slice(0, 40)}`,
      );
      if (picked[n] === r.version) o.selected = true;
      s.append(o);
    }
  });
}

/** The values of a filter select: a placeholder, then each distinct value in order. */
export function fillSelect(s: HTMLSelectElement, label: string, values: string[]): void {
  const keep = s.value;
  clear(s);
  s.append(el('option', { value: '' }, label));
  for (const v of values) s.append(el('option', { value: v }, v));
  s.value = values.includes(keep) ? keep : '';
}
