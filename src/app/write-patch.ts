/**
 * How a write patches the version it continues: the field flags (`--summary`, `--add-note`,
 * `--remove-guard`, ...) and `--patch`'s document merged key by key. Pure: data in, data
 * out; `write` applies it again to the head it continues whenever the head moved before its
 * compare-and-swap (docs/format.md "Lineage").
 */
import { InvalidInput } from '../errors.js';

/** List fields that flags can replace, add to and remove from, by dotted path. */
export const LIST_FIELDS = ['guards', 'cursor.pending_questions', 'ask_user', 'soft_context.notes', 'memory_updates', 'continuation_refs'] as const;
export type ListField = (typeof LIST_FIELDS)[number];

/** Field overrides from command-line flags; `undefined` leaves a field alone. */
export interface WriteFlags {
  status?: string;
  summary?: string;
  session?: string;
  nextStep?: string;
  lastDiscussed?: string;
  /** list replacements (the whole list) */
  pendingQuestions?: string[];
  guards?: string[];
  askUser?: string[];
  notes?: string[];
  memoryUpdates?: string[];
  continuationRefs?: string[];
  tone?: string;
  workItem?: string;
  produced?: string[];
  /** items added to / removed from a list field, after any replacement */
  addItems?: Partial<Record<ListField, string[]>>;
  removeItems?: Partial<Record<ListField, string[]>>;
}

export type Obj = Record<string, unknown>;
export const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

const REPLACE_FLAG: Record<ListField, { key: keyof WriteFlags; flag: string; noun: string }> = {
  guards: { key: 'guards', flag: '--guard', noun: 'guard' },
  'cursor.pending_questions': { key: 'pendingQuestions', flag: '--pending-question', noun: 'pending question' },
  ask_user: { key: 'askUser', flag: '--ask-user', noun: 'ask-user item' },
  'soft_context.notes': { key: 'notes', flag: '--note', noun: 'note' },
  memory_updates: { key: 'memoryUpdates', flag: '--memory-update', noun: 'memory update' },
  continuation_refs: { key: 'continuationRefs', flag: '--continuation-ref', noun: 'continuation ref' },
};

function getList(o: Obj, path: ListField): string[] {
  const [a, b] = path.split('.');
  const v = b === undefined ? o[a] : isObj(o[a]) ? (o[a] as Obj)[b] : undefined;
  return Array.isArray(v) ? (v as string[]) : [];
}

function setList(o: Obj, path: ListField, items: string[]): void {
  const [a, b] = path.split('.');
  if (b === undefined) o[a] = items;
  else o[a] = { ...(isObj(o[a]) ? (o[a] as Obj) : {}), [b]: items };
}

export const quoteList = (xs: string[]) => xs.map((x) => `'${x.length > 60 ? `${x.slice(0, 59)}…` : x}'`).join(', ');

export function applyFlags(base: Obj, f: WriteFlags, warnings: string[]): Obj {
  const out: Obj = { ...base };
  const sub = (key: string) => ({ ...((out[key] as Obj) ?? {}) });
  if (f.status !== undefined) out.status = f.status;
  if (f.summary !== undefined) out.summary = f.summary;
  if (f.session !== undefined) out.session_id = f.session;
  if (f.workItem !== undefined) out.work_item = f.workItem;
  if (f.nextStep !== undefined || f.lastDiscussed !== undefined) {
    const c = sub('cursor');
    if (f.lastDiscussed !== undefined) c.last_discussed = f.lastDiscussed;
    if (f.nextStep !== undefined) c.next_step = f.nextStep;
    out.cursor = c;
  }
  if (f.tone !== undefined) out.soft_context = { ...sub('soft_context'), tone: f.tone };
  for (const field of LIST_FIELDS) {
    const r = REPLACE_FLAG[field];
    const replacement = f[r.key] as string[] | undefined;
    const add = f.addItems?.[field];
    const remove = f.removeItems?.[field];
    if (replacement === undefined && !add?.length && !remove?.length) continue;
    let items = [...getList(out, field)];
    if (replacement !== undefined) {
      const dropped = items.filter((x) => !replacement.includes(x));
      if (dropped.length) {
        warnings.push(`${r.flag} replaced ${field}, dropping ${dropped.length}: ${quoteList(dropped)} (${r.flag.replace('--', '--add-')} adds one instead)`);
      }
      items = [...replacement];
    }
    for (const x of remove ?? []) {
      if (!items.includes(x)) {
        const have = items.length ? `${field} holds ${quoteList(items)}` : `${field} is empty`;
        throw new InvalidInput(`${r.flag.replace('--', '--remove-')}: no ${r.noun} '${x}' to remove (${have})`);
      }
      items = items.filter((y) => y !== x);
    }
    for (const x of add ?? []) if (!items.includes(x)) items.push(x);
    setList(out, field, items);
  }
  if (f.produced !== undefined) out.consolidation = { ...sub('consolidation'), produced: f.produced };
  return out;
}

/**
 * `write --patch`: the document's fields over the latest version's; cursor, soft_context and
 * consolidation field by field. `null` removes the key, known field or unknown (DESIGN.md).
 */
export function mergeDocument(base: Obj, doc: Obj): Obj {
  const out: Obj = { ...base };
  for (const [k, v] of Object.entries(doc)) {
    if (v === null) delete out[k];
    else if (PATCHED_BY_FIELD.includes(k) && isObj(v)) out[k] = withoutNulls({ ...(isObj(out[k]) ? (out[k] as Obj) : {}), ...v });
    else out[k] = v;
  }
  return out;
}

const PATCHED_BY_FIELD = ['cursor', 'soft_context', 'consolidation'];

function withoutNulls(o: Obj): Obj {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== null));
}

/** The fields of a patch that set something: its `null`s remove a field, so they are not unknown fields to warn about. */
export function patchSettings(doc: Obj): Obj {
  const out: Obj = {};
  for (const [k, v] of Object.entries(doc)) {
    if (v === null) continue;
    out[k] = PATCHED_BY_FIELD.includes(k) && isObj(v) ? withoutNulls(v) : v;
  }
  return out;
}
