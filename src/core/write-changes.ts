/**
 * What a write changed against the previous version of its branch ("every write
 * says what changed", so a loss is visible the moment it happens). Built on the field-aware
 * `diffHandoffs`; only the user's fields count (tool-filled ones change on every commit).
 * Pure. The MCP `handoff_write` tool uses the same function.
 */
import { diffArrays } from 'diff';
import { diffHandoffs } from './version-diff.js';
import { userContent, withDefaults, type Handoff } from './schema.js';

/** One field's change; list fields also say which items came and went. */
export interface FieldChange {
  field: string;
  change: 'added' | 'removed' | 'changed';
  /** list fields: the items added and removed (in order) */
  items_added?: unknown[];
  items_removed?: unknown[];
}

export interface WriteChanges {
  /** the version compared against; null for the first version */
  previous: string | null;
  /** set when the branch had no version yet, so `previous` is the newest of another branch (null: detached) */
  previous_branch?: string | null;
  fields: FieldChange[];
  /** the one human line, e.g. `changed summary, cursor.next_step; removed 2 guards, soft_context.tone` */
  line: string;
}

type Obj = Record<string, unknown>;
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
const isEmpty = (v: unknown) =>
  v === undefined ||
  v === null ||
  v === '' ||
  (Array.isArray(v) && v.length === 0) ||
  (typeof v === 'object' && v !== null && !Array.isArray(v) && Object.keys(v).length === 0);

/**
 * `consolidation.triggered` is derived from `produced` (docs/format.md "The note"); `session_id` names the
 * writer, not content (it is never carried forward), so neither is a change of its own.
 */
const DERIVED = new Set(['consolidation.triggered', 'session_id']);

/** Nouns for counted list items: `removed 2 guards`. */
const NOUNS: Record<string, [string, string]> = {
  guards: ['guard', 'guards'],
  'cursor.pending_questions': ['pending question', 'pending questions'],
  ask_user: ['ask-user item', 'ask-user items'],
  'soft_context.notes': ['note', 'notes'],
  memory_updates: ['memory update', 'memory updates'],
  continuation_refs: ['continuation ref', 'continuation refs'],
  open_tracks: ['open track', 'open tracks'],
  'consolidation.produced': ['produced path', 'produced paths'],
};

function counted(field: string, n: number): string {
  const noun = NOUNS[field];
  if (noun) return `${n} ${n === 1 ? noun[0] : noun[1]}`;
  return `${n} item${n === 1 ? '' : 's'} of ${field}`;
}

/** The items of `b` not in `a` and of `a` not in `b`, as a list diff sees them. */
function listDelta(a: unknown[], b: unknown[]): { added: unknown[]; removed: unknown[] } {
  const added: unknown[] = [];
  const removed: unknown[] = [];
  for (const part of diffArrays(a, b, { comparator: same })) {
    // item by item: push(...value) with a note's 500,000-item list overflows the stack
    if (part.added) for (const v of part.value) added.push(v);
    else if (part.removed) for (const v of part.value) removed.push(v);
  }
  return { added, removed };
}

/**
 * The changes from `previous` (null: none yet) to `next`, field by field, with the one
 * human line. Empty and absent are the same ("" and [] are what an unset field stores).
 */
export function describeWriteChanges(previous: { id: string; handoff: Handoff } | null, next: Handoff): WriteChanges {
  const norm = (h: Handoff) => withDefaults(userContent(h));
  const fields: FieldChange[] = [];
  if (previous) {
    for (const c of diffHandoffs(norm(previous.handoff), norm(next))) {
      if (DERIVED.has(c.field)) continue;
      if (Array.isArray(c.old) || Array.isArray(c.new)) {
        const { added, removed } = listDelta(Array.isArray(c.old) ? c.old : [], Array.isArray(c.new) ? c.new : []);
        if (!added.length && !removed.length) continue;
        const change = isEmpty(c.old) ? 'added' : isEmpty(c.new) ? 'removed' : 'changed';
        fields.push({ field: c.field, change, items_added: added, items_removed: removed });
      } else if (isEmpty(c.old) && isEmpty(c.new)) {
        continue;
      } else {
        fields.push({ field: c.field, change: isEmpty(c.old) ? 'added' : isEmpty(c.new) ? 'removed' : 'changed' });
      }
    }
  } else {
    const h = norm(next) as Obj;
    for (const f of filledFields(h)) fields.push({ field: f, change: 'added' });
  }
  // Nothing else changed, yet the version differs: say that the writer's session is the
  // difference (it was "no field changed" on a version that was appended anyway).
  if (previous && !fields.length) {
    const was = previous.handoff.session_id || null;
    const now = next.session_id || null;
    if (was !== now) {
      fields.push({ field: 'session_id', change: was === null ? 'added' : now === null ? 'removed' : 'changed' });
      const name = (s: string | null) => (s === null ? 'none' : `'${s}'`);
      return { previous: previous.id, fields, line: `only session_id changed (${name(was)} -> ${name(now)})` };
    }
  }
  return { previous: previous?.id ?? null, fields, line: changeLine(previous !== null, fields) };
}

/** The fields (nested ones by their dotted name) that hold something. */
function filledFields(h: Obj, prefix = ''): string[] {
  const out: string[] = [];
  for (const [k, v] of Object.entries(h)) {
    const f = prefix ? `${prefix}.${k}` : k;
    // schema and the default status are what every version holds, not what this one says
    if (DERIVED.has(f) || isEmpty(v) || f === 'schema' || (f === 'status' && v === 'active')) continue;
    if (typeof v === 'object' && v !== null && !Array.isArray(v) && !prefix && ['cursor', 'soft_context', 'consolidation'].includes(k))
      out.push(...filledFields(v as Obj, f));
    else out.push(f);
  }
  return out;
}

function changeLine(hadPrevious: boolean, fields: FieldChange[]): string {
  if (!hadPrevious) return fields.length ? `first version: ${fields.map((f) => f.field).join(', ')}` : 'first version (empty)';
  const changed: string[] = [];
  const added: string[] = [];
  const removed: string[] = [];
  for (const f of fields) {
    if (f.items_added || f.items_removed) {
      const a = f.items_added?.length ?? 0;
      const r = f.items_removed?.length ?? 0;
      if (a && r && a === r && a === 1) changed.push(counted(f.field, 1));
      else {
        if (a) added.push(counted(f.field, a));
        if (r) removed.push(counted(f.field, r));
      }
    } else if (f.change === 'added') added.push(f.field);
    else if (f.change === 'removed') removed.push(f.field);
    else changed.push(f.field);
  }
  const parts = [
    changed.length ? `changed ${changed.join(', ')}` : '',
    added.length ? `added ${added.join(', ')}` : '',
    removed.length ? `removed ${removed.join(', ')}` : '',
  ].filter(Boolean);
  return parts.length ? parts.join('; ') : 'no field changed';
}
