/**
 * Field-aware differences between two handoffs: scalars compared whole, lists item by
 * item, multi-line text line by line (the `diff` package). Pure.
 */
import { diffArrays, diffLines } from 'diff';
import { KEY_ORDER, TOOL_KEYS, type Handoff } from './schema.js';
import { visibleText } from './visible-text.js';

export type Change = { field: string; change: 'added' | 'removed' | 'changed'; old: unknown; new: unknown };

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

function orderedKeys(a: Obj, b: Obj, order: readonly string[]): string[] {
  const keys = [...order.filter((k) => k in a || k in b)];
  for (const k of [...Object.keys(a), ...Object.keys(b)]) if (!keys.includes(k)) keys.push(k);
  return keys;
}

/** What the tool fills in on every write (DESIGN.md "filled by the tool"), and the schema number: not what a person wrote. */
export const BOOKKEEPING_FIELDS: readonly string[] = ['schema', ...TOOL_KEYS];

/** Whether a change is to a bookkeeping field (`head`, `date`, `content_hashes.x`, ...). */
export function isBookkeeping(c: Change): boolean {
  return BOOKKEEPING_FIELDS.includes(c.field.split('.')[0]);
}

/** Changes field by field; nested mappings (cursor, soft_context, ...) by their sub-fields. */
export function diffHandoffs(oldH: Handoff, newH: Handoff): Change[] {
  const out: Change[] = [];
  const walk = (a: Obj, b: Obj, prefix: string, order: readonly string[]) => {
    for (const k of orderedKeys(a, b, order)) {
      const field = prefix ? `${prefix}.${k}` : k;
      const x = a[k];
      const y = b[k];
      if (same(x, y)) continue;
      if (isObj(x) && isObj(y) && field !== 'content_hashes') walk(x, y, field, []);
      // a version written by another session, or by none: a change of writer, not content added or removed
      else if (field === 'session_id') out.push({ field, change: 'changed', old: x ?? null, new: y ?? null });
      else if (x === undefined) out.push({ field, change: 'added', old: null, new: y });
      else if (y === undefined) out.push({ field, change: 'removed', old: x, new: null });
      else out.push({ field, change: 'changed', old: x, new: y });
    }
  };
  walk(oldH as Obj, newH as Obj, '', KEY_ORDER);
  return out;
}

function show(v: unknown): string {
  if (typeof v === 'string') return v;
  if (isObj(v)) {
    return Object.entries(v)
      .map(([k, x]) => `${k}: ${typeof x === 'string' ? x : JSON.stringify(x)}`)
      .join(', ');
  }
  return JSON.stringify(v);
}

/** Human text: `-`/`+` lines under each changed field, control characters shown visibly. */
export function renderChanges(changes: Change[]): string {
  return visibleText(changeLines(changes));
}

function changeLines(changes: Change[]): string {
  const lines: string[] = [];
  for (const c of changes) {
    const { old: a, new: b } = c;
    if (Array.isArray(a) || Array.isArray(b)) {
      lines.push(`${c.field}:`);
      for (const part of diffArrays((a as unknown[]) ?? [], (b as unknown[]) ?? [], { comparator: same })) {
        const sign = part.added ? '+' : part.removed ? '-' : ' ';
        if (sign === ' ') continue;
        for (const v of part.value) lines.push(`  ${sign} ${show(v)}`);
      }
    } else if ((typeof a === 'string' && a.includes('\n')) || (typeof b === 'string' && b.includes('\n'))) {
      lines.push(`${c.field}:`);
      for (const part of diffLines(typeof a === 'string' ? a : '', typeof b === 'string' ? b : '')) {
        const sign = part.added ? '+' : part.removed ? '-' : ' ';
        for (const l of part.value.replace(/\n$/, '').split('\n')) lines.push(`  ${sign} ${l}`);
      }
    } else if (c.field === 'session_id') {
      // which session wrote the version: a change of writer, never content added or deleted
      lines.push(`session_id: ${a == null ? '(none)' : show(a)} → ${b == null ? '(none)' : show(b)}`);
    } else if (c.change === 'added') lines.push(`${c.field}: + ${show(b)}`);
    else if (c.change === 'removed') lines.push(`${c.field}: - ${show(a)}`);
    else lines.push(`${c.field}:`, `  - ${show(a)}`, `  + ${show(b)}`);
  }
  return lines.length ? `${lines.join('\n')}\n` : '';
}

/** What `diff` says of two versions: their ids and targets, the changes, and which of them a rewrite moved. */
export interface VersionDiffFacts {
  old: { id: string; target: string };
  new: { id: string; target: string };
  changes: Change[];
  /** bookkeeping changes left out of `changes` */
  hidden: number;
  moved: { version: string; from: string; to: string }[];
  /** of the two, the versions this reader cannot read (encrypted for others, or damaged ciphertext), and why */
  unreadable?: { version: string; reason: string }[];
}

/** The text `diff` prints (the MCP tool and the view show the same), the heading through `heading`. */
export function renderVersionDiff(d: VersionDiffFacts, heading: (s: string) => string = (s) => s): string {
  let out = `${heading(`diff ${d.old.id.slice(0, 12)}..${d.new.id.slice(0, 12)}`)}\n`;
  // A version the reader cannot decrypt has no fields to compare: comparing it as an empty
  // handoff would print "(no changes)" or every field as removed. Say which one, and why.
  if (d.unreadable?.length) {
    for (const u of d.unreadable) out += `version ${u.version.slice(0, 12)}: ${u.reason}\n`;
    return out + `(not compared: ${d.unreadable.length === 2 ? 'neither version' : 'one of the two versions'} can be read here)\n`;
  }
  for (const m of d.moved)
    out += `version ${m.version.slice(0, 12)} was moved from commit ${m.from.slice(0, 7)} to ${m.to.slice(0, 7)} by a rewrite (amend or rebase)\n`;
  // A version moved by a rewrite carries the same note: say so rather than "(no changes)".
  if (d.moved.length && !d.changes.length)
    out += `(no changes to the content; the note moved from ${d.old.target.slice(0, 7)} to ${d.new.target.slice(0, 7)})\n`;
  else if (d.changes.length) out += renderChanges(d.changes);
  else out += d.hidden ? `(no changes to what was written; only bookkeeping: see --bookkeeping)\n` : '(no changes)\n';
  return out;
}
