/**
 * Fields a handoff holds that the schema does not know (a misspelled `sumary` or a
 * top-level `next_step` was stored and round-tripped, as the design says, but nothing warned
 * and `show` never displayed it). Unknown fields are still kept; this only names them, with
 * the nearest known field or the place a known field belongs. Pure.
 */
import { KEY_ORDER, NESTED_ORDER } from './schema.js';

export interface UnknownField {
  /** dotted path, e.g. `sumary`, `cursor.pending_question`, `open_tracks[0].entry` */
  path: string;
  /** the known field it probably means, as a full dotted path */
  suggestion: string | null;
  /** true when `suggestion` is a known field in another place (a cursor field at the top level) */
  misplaced: boolean;
  /** the field holds something (not empty, not null) */
  hasContent: boolean;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const hasContent = (v: unknown): boolean =>
  !(v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0) || (isObj(v) && Object.keys(v).length === 0));

const TOP: readonly string[] = [...KEY_ORDER, 'open_treks', 'purged'];
const NESTED_PARENTS = ['cursor', 'soft_context', 'mid_task', 'consolidation'] as const;

/** Levenshtein distance, bounded: enough for "did you mean". */
function distance(a: string, b: string): number {
  const m = a.length;
  const n = b.length;
  let prev = Array.from({ length: n + 1 }, (_, j) => j);
  for (let i = 1; i <= m; i++) {
    const cur = [i];
    for (let j = 1; j <= n; j++) cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = cur;
  }
  return prev[n];
}

const squash = (s: string) => s.toLowerCase().replace(/[-_\s]/g, '');

/** The nearest name in `names`, when it is near enough to be a typo of `key`. */
function nearest(key: string, names: readonly string[]): string | null {
  let best: string | null = null;
  let bestD = Infinity;
  for (const n of names) {
    const d = squash(key) === squash(n) ? 0 : distance(key.toLowerCase(), n);
    if (d < bestD) {
      best = n;
      bestD = d;
    }
  }
  const limit = Math.max(1, Math.min(3, Math.floor(key.length / 3)));
  return best !== null && bestD <= limit ? best : null;
}

/** Known nested fields by their own name: `next_step` -> `cursor.next_step`. */
function nestedHome(key: string): string | null {
  for (const parent of NESTED_PARENTS) {
    const hit = nearest(key, NESTED_ORDER[parent]);
    if (hit) return `${parent}.${hit}`;
  }
  return null;
}

function suggestTop(key: string): Pick<UnknownField, 'suggestion' | 'misplaced'> {
  const exactNested = NESTED_PARENTS.find((p) => NESTED_ORDER[p].includes(key));
  if (exactNested) return { suggestion: `${exactNested}.${key}`, misplaced: true };
  const top = nearest(key, TOP);
  if (top) return { suggestion: top, misplaced: false };
  const home = nestedHome(key);
  return home ? { suggestion: home, misplaced: true } : { suggestion: null, misplaced: false };
}

function suggestNested(parent: string, key: string): Pick<UnknownField, 'suggestion' | 'misplaced'> {
  const own = nearest(key, NESTED_ORDER[parent] ?? []);
  if (own) return { suggestion: `${parent}.${own}`, misplaced: false };
  if (TOP.includes(key)) return { suggestion: key, misplaced: true };
  const home = nestedHome(key);
  if (home && !home.startsWith(`${parent}.`)) return { suggestion: home, misplaced: true };
  return { suggestion: null, misplaced: false };
}

/** Every unknown field of a handoff (top level, inside the known mappings, inside each open track). */
export function findUnknownFields(h: Obj): UnknownField[] {
  const out: UnknownField[] = [];
  for (const [k, v] of Object.entries(h)) {
    if (!TOP.includes(k)) out.push({ path: k, ...suggestTop(k), hasContent: hasContent(v) });
  }
  for (const parent of NESTED_PARENTS) {
    const sub = h[parent];
    if (!isObj(sub)) continue;
    for (const [k, v] of Object.entries(sub)) {
      if (!NESTED_ORDER[parent].includes(k)) out.push({ path: `${parent}.${k}`, ...suggestNested(parent, k), hasContent: hasContent(v) });
    }
  }
  const tracks = h.open_tracks ?? h.open_treks;
  if (Array.isArray(tracks)) {
    tracks.forEach((t, i) => {
      if (!isObj(t)) return;
      for (const [k, v] of Object.entries(t)) {
        if (NESTED_ORDER.open_tracks.includes(k)) continue;
        const s = nearest(k, NESTED_ORDER.open_tracks);
        out.push({ path: `open_tracks[${i}].${k}`, suggestion: s ? `open_tracks[${i}].${s}` : null, misplaced: false, hasContent: hasContent(v) });
      }
    });
  }
  return out;
}

/** The warning for one unknown field: `unknown field 'sumary' (did you mean 'summary'?)`. */
export function unknownFieldMessage(u: UnknownField): string {
  if (u.suggestion && u.misplaced) {
    const where = u.suggestion.includes('.')
      ? `it belongs under ${u.suggestion.split('.')[0]}: ${u.suggestion}`
      : `it belongs at the top level: ${u.suggestion}`;
    return `unknown field '${u.path}' (${where})`;
  }
  if (u.suggestion) return `unknown field '${u.path}' (did you mean '${u.suggestion}'?)`;
  return `unknown field '${u.path}' (kept as is; not part of the handoff schema)`;
}
