/**
 * Full-text search over handoff versions. Pure: a version is a list of
 * `[field, text]` pairs; a query is a list of terms; matching is case-folded substring
 * search, so a word matches inside longer words (a Russian stem inside its inflections, a
 * Chinese word inside a sentence with no spaces). Chinese/Japanese/Korean runs longer than
 * two characters also match by their overlapping bigrams (the usual CJK fallback when
 * there is no word segmentation), scored below an exact hit.
 */
import type { Handoff } from './schema.js';

/** One indexed field: its path (`summary`, `cursor.next_step`, `guards[1]`, `open_tracks[0].name`) and its text. */
export type FieldText = [field: string, text: string];

export interface QueryTerm {
  /** folded text that must occur */
  text: string;
  /** for a CJK run of 3+ characters: its bigrams, any order, as a weaker match */
  bigrams?: string[];
}

export interface Match {
  score: number;
  /** the field with the best hits */
  field: string;
  snippet: string;
}

/** Tool-filled fields that are ids and hashes, not words anyone searches for. */
const NOT_TEXT = new Set(['schema', 'date', 'branch', 'head', 'head_tree', 'head_patch_id', 'content_hashes']);

const CJK = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af]/;
const CJK_RUN = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af]+/g;

/** Case and compatibility folding: NFKC, lower case, `ё` as `е` (Russian text writes either). */
export function fold(s: string): string {
  return foldIndexed(s.normalize('NFKC'));
}

/** `fold` for text already in NFKC (the search index stores it so): the cheap part. */
export function foldIndexed(s: string): string {
  return s.toLowerCase().replace(/ё/g, 'е');
}

// Russian inflection endings, longest first; a stem keeps at least 4 letters. A light
// stemmer: "парсера", "парсеры", "парсером" all find "парсер" and it finds them.
const RU_ENDINGS = [
  'иями',
  'ями',
  'ами',
  'ого',
  'его',
  'ому',
  'ему',
  'ыми',
  'ими',
  'ией',
  'ий',
  'ый',
  'ой',
  'ей',
  'ая',
  'яя',
  'ое',
  'ее',
  'ые',
  'ие',
  'ов',
  'ев',
  'ам',
  'ям',
  'ах',
  'ях',
  'ом',
  'ем',
  'ую',
  'юю',
  'а',
  'я',
  'о',
  'е',
  'ы',
  'и',
  'у',
  'ю',
  'ь',
  'й',
];

function stem(word: string): string {
  if (/^[\u0400-\u04ff]+$/.test(word)) {
    for (const e of RU_ENDINGS) if (word.endsWith(e) && word.length - e.length >= 4) return word.slice(0, -e.length);
    return word;
  }
  // English plural: "tests" finds "test" and "testing".
  if (/^[a-z]{4,}s$/.test(word) && !word.endsWith('ss')) return word.slice(0, -1);
  return word;
}

/** Splits a query into terms: words (stemmed) and CJK runs (exact, with bigrams as fallback). */
export function queryTerms(query: string): QueryTerm[] {
  const out: QueryTerm[] = [];
  const seen = new Set<string>();
  const add = (t: QueryTerm) => {
    if (!t.text || seen.has(t.text)) return;
    seen.add(t.text);
    out.push(t);
  };
  for (const raw of fold(query).split(/\s+/)) {
    const word = raw.replace(/^[\p{P}\p{S}]+|[\p{P}\p{S}]+$/gu, '');
    if (!word) continue;
    if (!CJK.test(word)) {
      add({ text: stem(word) });
      continue;
    }
    // A mixed word ("api接口"): its CJK runs and the rest, each a term.
    for (const part of word.split(CJK_RUN)) if (part.replace(/[\p{P}\p{S}]/gu, '')) add({ text: stem(part) });
    for (const run of word.match(CJK_RUN) ?? []) {
      if (run.length <= 2) add({ text: run });
      else add({ text: run, bigrams: Array.from({ length: run.length - 1 }, (_, i) => run.slice(i, i + 2)) });
    }
  }
  return out;
}

/** The searchable text of a handoff: every string (in NFKC), in lists and unknown fields too. */
export function searchableFields(h: Handoff): FieldText[] {
  const out: FieldText[] = [];
  const visit = (v: unknown, path: string) => {
    if (typeof v === 'string') {
      if (v) out.push([path, v.normalize('NFKC')]);
    } else if (typeof v === 'number') {
      // an unknown field's number is still something a user may look for
      out.push([path, String(v)]);
    } else if (Array.isArray(v)) {
      v.forEach((x, i) => visit(x, `${path}[${i}]`));
    } else if (v && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) visit(x, path ? `${path}.${k}` : k);
    }
  };
  for (const [k, v] of Object.entries(h)) if (!NOT_TEXT.has(k)) visit(v, k);
  return out;
}

/** How much a hit in a field counts: where the work stands weighs more than a commit subject. */
function weight(field: string): number {
  if (field === 'summary') return 3;
  if (/^(cursor|mid_task|open_tracks)/.test(field)) return 2;
  if (field.startsWith('recent_commits')) return 0.5;
  return 1;
}

function count(hay: string, needle: string): number {
  let n = 0;
  for (let at = hay.indexOf(needle); at >= 0 && n < 5; at = hay.indexOf(needle, at + needle.length)) n++;
  return n;
}

/**
 * Scores a version against the terms: every term must occur somewhere in it (exactly, or
 * for a long CJK run by all its bigrams); null when one does not.
 */
export function matchFields(fields: FieldText[], terms: QueryTerm[], phrase = ''): Match | null {
  if (!terms.length) return null;
  // fields come from searchableFields, in NFKC already
  const folded = fields.map(([f, t]) => [f, foldIndexed(t)] as const);
  const all = folded.map(([, t]) => t).join('\n');
  for (const t of terms) {
    if (all.includes(t.text)) continue;
    if (!t.bigrams || !t.bigrams.every((b) => all.includes(b))) return null;
  }
  let score = 0;
  let best: { field: string; score: number; text: string; at: number } | null = null;
  for (let i = 0; i < folded.length; i++) {
    const [field, text] = folded[i];
    let s = 0;
    let at = -1;
    for (const t of terms) {
      const n = count(text, t.text);
      if (n) {
        s += n;
        if (at < 0) at = text.indexOf(t.text);
      } else if (t.bigrams) {
        const hits = t.bigrams.filter((b) => text.includes(b)).length;
        s += (hits / t.bigrams.length) * 0.5;
        if (hits && at < 0) at = text.indexOf(t.bigrams.find((b) => text.includes(b))!);
      }
    }
    if (phrase && text.includes(phrase)) s += 2;
    s *= weight(field);
    score += s;
    if (s > 0 && (!best || s > best.score)) best = { field, score: s, text: fields[i][1], at };
  }
  if (!best) return null;
  return { score: Math.round(score * 100) / 100, field: best.field, snippet: snippet(best.text, best.at) };
}

/** About 100 characters of one line around the hit. */
function snippet(text: string, at: number): string {
  const flat = text.replace(/\s+/g, ' ');
  if (flat.length <= 100) return flat;
  const start = Math.max(0, Math.min(at < 0 ? 0 : at - 30, flat.length - 100));
  return `${start > 0 ? '…' : ''}${flat.slice(start, start + 100)}${start + 100 < flat.length ? '…' : ''}`;
}

/** A prefilter over raw text: false when some term surely cannot occur in it. */
export function mayMatch(foldedRaw: string, terms: QueryTerm[]): boolean {
  for (const t of terms) {
    if (foldedRaw.includes(t.text)) continue;
    if (!t.bigrams || !t.bigrams.every((b) => foldedRaw.includes(b))) return false;
  }
  return true;
}

/**
 * Hits that show the same text in the same field (a summary carried forward unchanged by
 * later versions) as one group each, in the order their first hit came; within a group,
 * newest first. Pure.
 */
/** The group a hit is shown in: the same text in the same field is one line, whichever versions carry it. */
export const groupKey = (h: { field: string; snippet: string }) => `${h.field}\u0000${h.snippet}`;

export function groupHits<T extends { field: string; snippet: string; date: string }>(hits: T[]): T[][] {
  const groups = new Map<string, T[]>();
  for (const h of hits) {
    const key = groupKey(h);
    const g = groups.get(key);
    if (g) g.push(h);
    else groups.set(key, [h]);
  }
  // Each group in the order of the hits, which search gives newest first in the one reader's order (not by date).
  return [...groups.values()];
}

/** The note after a group's line: how many versions hold the text, and the oldest of them. */
export function groupNote(group: { version: string }[]): string {
  return group.length > 1 ? ` (${group.length} versions with this text; the oldest: ${group[group.length - 1].version.slice(0, 12)})` : '';
}
