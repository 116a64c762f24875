/**
 * Work items (docs/format.md "Work items: records and receipts"): `github:<owner>/<repo>#<n>` or `local:#<n>`, the
 * record kept for each in the notes tree (`items/<provider>/<n>.json`), and the fixed
 * paths derived from the number. Pure.
 */
import { readJsonObject } from './json-object.js';

export type ItemState = 'backlog' | 'in-progress' | 'ready-for-review' | 'done';
export const ITEM_STATES: readonly ItemState[] = ['backlog', 'in-progress', 'ready-for-review', 'done'];

export type ProviderName = 'github' | 'local';

export interface WorkItemRef {
  provider: ProviderName;
  /** github only */
  owner: string | null;
  /** github only */
  repo: string | null;
  number: number;
  /** the canonical spelling, e.g. `github:acme/widgets#12` */
  text: string;
}

const GITHUB = /^github:([A-Za-z0-9](?:[A-Za-z0-9-]{0,38}))\/([A-Za-z0-9._-]{1,100})#([1-9]\d{0,9})$/;
const LOCAL = /^local:#([1-9]\d{0,9})$/;

/** Parses a work item; null when the text is neither syntax. */
export function parseWorkItem(text: string): WorkItemRef | null {
  const t = text.trim();
  const g = GITHUB.exec(t);
  if (g) return { provider: 'github', owner: g[1], repo: g[2], number: Number(g[3]), text: `github:${g[1]}/${g[2]}#${g[3]}` };
  const l = LOCAL.exec(t);
  if (l) return { provider: 'local', owner: null, repo: null, number: Number(l[1]), text: `local:#${l[1]}` };
  return null;
}

/** Where the item's record lives in the notes tree (docs/format.md "The notes tree"). */
export function itemPath(ref: WorkItemRef): string {
  return `items/${ref.provider}/${ref.number}.json`;
}

/** Whether a notes-tree path is an item record (`items/<provider>/<n>.json`). */
export function isItemPath(path: string): boolean {
  return /^items\/(github|local)\/[1-9]\d{0,9}\.json$/.test(path);
}

/** The handoff document of an item: `docs/HANDOFF-<n>.md`. */
export function handoffDocPath(ref: WorkItemRef): string {
  return `docs/HANDOFF-${ref.number}.md`;
}

/** What the notes remember of an item. `receipts` is oldest first, in the order they were made. */
export interface ItemRecord {
  workItem: string;
  state: ItemState;
  title: string;
  acceptance: string;
  handoffDoc: string | null;
  receipts: string[];
  /** the id of the current delivery-authorization receipt */
  authorization: string | null;
}

export function newItemRecord(ref: WorkItemRef, title: string, acceptance: string): ItemRecord {
  return { workItem: ref.text, state: 'backlog', title, acceptance, handoffDoc: null, receipts: [], authorization: null };
}

/** Stable JSON (fixed key order, 2-space indent, trailing newline): equal records hash equal. */
export function serializeItem(r: ItemRecord): string {
  const ordered = {
    workItem: r.workItem,
    state: r.state,
    title: r.title,
    acceptance: r.acceptance,
    handoffDoc: r.handoffDoc,
    receipts: r.receipts,
    authorization: r.authorization,
  };
  return `${JSON.stringify(ordered, null, 2)}\n`;
}

/** Reads a stored record; a damaged one is reported, not trusted. */
export function parseItem(text: string): ItemRecord | { problem: string } {
  const read = readJsonObject(text);
  if ('problem' in read) return read;
  const o = read.object;
  if (typeof o.workItem !== 'string' || !parseWorkItem(o.workItem)) return { problem: 'workItem is missing or malformed' };
  if (!ITEM_STATES.includes(o.state as ItemState)) return { problem: `unknown state ${JSON.stringify(o.state)}` };
  const receipts = Array.isArray(o.receipts) ? o.receipts.filter((x): x is string => typeof x === 'string') : [];
  return {
    workItem: o.workItem,
    state: o.state as ItemState,
    title: typeof o.title === 'string' ? o.title : '',
    acceptance: typeof o.acceptance === 'string' ? o.acceptance : '',
    handoffDoc: typeof o.handoffDoc === 'string' ? o.handoffDoc : null,
    receipts,
    authorization: typeof o.authorization === 'string' ? o.authorization : null,
  };
}

/**
 * Two clones changed the same item record (sync): the newer record wins with its
 * state and fields, and its receipt list takes the older record's receipts it lacks, so no
 * clone loses sight of a receipt it made. Those go just before the newer record's own
 * additions (where it added none, before its last receipt, which a re-validated document
 * moves there): the list still ends with the receipt that set the newer state, which is
 * what `lastReceipt` reads.
 */
export function mergeItemRecords(newer: ItemRecord, older: ItemRecord): ItemRecord {
  const known = new Set(newer.receipts);
  const carried = older.receipts.filter((id, i) => !known.has(id) && older.receipts.indexOf(id) === i);
  if (!carried.length) return newer;
  const olderSet = new Set(older.receipts);
  const at = newer.receipts.findIndex((id) => !olderSet.has(id));
  const cut = at === -1 ? Math.max(0, newer.receipts.length - 1) : at;
  return { ...newer, receipts: [...newer.receipts.slice(0, cut), ...carried, ...newer.receipts.slice(cut)] };
}
