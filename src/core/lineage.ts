/**
 * Lineage (docs/format.md "Lineage"): which versions a version continues, and the
 * decisions made on it that need no git: the trailers' text, the order between heads, what
 * one head holds that another does not, and the document a write joining heads starts from.
 */
import type { Handoff } from './schema.js';
import { isObjectId } from './object-id.js';

export const CONTINUES_TRAILER = 'Handoff-Continues';
export const BESIDE_TRAILER = 'Handoff-Beside';

export interface Lineage {
  /** ids of the versions continued; [] for none (a first version); null: not recorded (an older writer, native git) */
  continues: string[] | null;
  /** the other heads of the branch the writer knew of and left open */
  beside: string[];
}

const ids = (value: string | undefined): string[] =>
  (value ?? '')
    .split(/[\s,]+/)
    .map((x) => x.toLowerCase())
    .filter(isObjectId);

/** Reads the lineage trailers of a version commit (a value that names no id counts as none). */
export function parseLineage(trailers: Record<string, string>): Lineage {
  const raw = trailers[CONTINUES_TRAILER];
  const beside = trailers[BESIDE_TRAILER];
  if (raw === undefined && beside === undefined) return { continues: null, beside: [] };
  return { continues: raw === undefined ? null : [...new Set(ids(raw))], beside: [...new Set(ids(beside))] };
}

/** The trailers a version with this lineage is written with. */
export function lineageTrailers(continues: string[], beside: string[]): Record<string, string> {
  const open = beside.filter((b) => !continues.includes(b));
  return { [CONTINUES_TRAILER]: continues.length ? continues.join(',') : 'none', ...(open.length ? { [BESIDE_TRAILER]: open.join(',') } : {}) };
}

/**
 * The lineage of a re-attach (a note carried onto the commit that now holds its work): it
 * continues the version whose note it carries and the re-attach written just before it in
 * the same run (oldest by lineage first), so a run makes one head, and names the heads of
 * the branch it lands on as left open (`heads`: it does not continue them, so a session's
 * work there stays a head, and a divergence is said); with neither known it records none
 * (and continues what lies below it, as before lineage).
 */
export function reattachLineage(carried: string | undefined, previous: string | null | undefined, heads: string[]): Record<string, string> {
  const continues = [...new Set([carried, previous].filter((x): x is string => typeof x === 'string'))];
  // the heads of the branch it lands on that it does not continue: left open, as any writer records them
  return continues.length ? lineageTrailers(continues, heads) : {};
}

export interface HeadFacts {
  id: string;
  /** committer time, seconds */
  timestamp: number;
  /** the commit its note sits on */
  target: string;
}

/**
 * The order between heads (docs/format.md "Order"): one whose target descends from
 * another's first (`maximal`: the targets no other head's target descends from, as git's
 * `merge-base --independent` says; null when that could not be told), then the newer
 * date, then the smaller id. The same in every clone that holds the same commits and notes.
 */
export function orderHeads<T extends HeadFacts>(heads: T[], maximal: Set<string> | null): T[] {
  const rank = (h: T) => (maximal && !maximal.has(h.target) ? 1 : 0);
  return [...heads].sort((a, b) => rank(a) - rank(b) || newerFirst(a, b));
}

/**
 * "Newer" between two versions by date alone (docs/format.md): the later committer date
 * first, an exact tie to the smaller id. The one rule for the heads' order above and for
 * the side whose note a merge of two histories keeps (core/notes-merge.ts), so a merged
 * tree holds the version every reader shows first. Negative when `a` is the newer.
 */
export function newerFirst(a: { id: string; timestamp: number }, b: { id: string; timestamp: number }): number {
  return b.timestamp - a.timestamp || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

/** The list fields a divergence notice compares, by their JSON names. */
export const HELD_FIELDS = ['ask_user', 'pending_questions', 'guards', 'notes'] as const;
export type HeldField = (typeof HELD_FIELDS)[number];

const listOf = (h: Handoff, field: HeldField): string[] => {
  const v =
    field === 'pending_questions' ? h.cursor?.pending_questions : field === 'notes' ? h.soft_context?.notes : field === 'ask_user' ? h.ask_user : h.guards;
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
};

/** What `other` holds that `shown` does not, field by field (fields with nothing left out are absent). */
export function heldBeyond(shown: Handoff, other: Handoff): Partial<Record<HeldField, string[]>> {
  const out: Partial<Record<HeldField, string[]>> = {};
  for (const f of HELD_FIELDS) {
    const have = new Set(listOf(shown, f));
    const extra = listOf(other, f).filter((x) => !have.has(x));
    if (extra.length) out[f] = extra;
  }
  return out;
}

/**
 * The document a write that joins heads starts from: the first head's, with every item
 * of the compared lists that another head holds added after its own (pending questions
 * stay within their limit of 3; what does not fit is returned to be named).
 */
export function joinHeads(first: Handoff, others: Handoff[]): { handoff: Handoff; leftOut: string[] } {
  const out: Handoff = structuredClone(first);
  const leftOut: string[] = [];
  for (const o of others) {
    for (const [field, extra] of Object.entries(heldBeyond(out, o)) as [HeldField, string[]][]) {
      if (field === 'pending_questions') {
        const cur = [...listOf(out, field)];
        for (const x of extra) (cur.length < 3 ? cur : leftOut).push(x);
        out.cursor = { ...(out.cursor ?? {}), pending_questions: cur } as Handoff['cursor'];
      } else if (field === 'notes') out.soft_context = { ...(out.soft_context ?? {}), notes: [...listOf(out, field), ...extra] } as Handoff['soft_context'];
      else out[field] = [...listOf(out, field), ...extra];
    }
  }
  return { handoff: out, leftOut };
}

/**
 * A commit message with the version ids of its lineage trailers replaced through `map`
 * (`purge` replays the history under new ids: what a version continues must follow).
 */
export function remapLineage(message: string, map: (id: string) => string | undefined): string {
  return message.replace(new RegExp(`^(${CONTINUES_TRAILER}|${BESIDE_TRAILER}):([^\\n]*)$`, 'gm'), (_, key: string, value: string) => {
    return `${key}:${value.replace(/[0-9a-f]{40,64}/g, (id) => map(id) ?? id)}`;
  });
}
