/**
 * `search`: gather (the search index, brought up to the notes tip) -> decide (prefilter
 * the raw lines, score the survivors, filter by branch and date, order) -> the hits.
 * Every version on every branch; invalid notes are counted, never fatal.
 */
import type { Repo } from '../git/repo.js';
import { loadSearchIndex, type IndexedVersion } from '../git/search-index.js';
import { indexEntryReader, openEncrypted } from './search-index-entry.js';
import { fold, foldIndexed, groupKey, matchFields, mayMatch, queryTerms } from '../core/search.js';
import { UsageError } from '../errors.js';
import { VersionReader } from '../history/reader.js';
import { selectionFor } from './show.js';
import { gitDate } from '../git/dates.js';

/** How hits are shown grouped (the CLI and MCP alike). */
export { groupHits, groupNote } from '../core/search.js';

export type SearchOrder = 'newest' | 'relevance';
export const DEFAULT_SEARCH_LIMIT = 20;

export interface SearchRequest {
  query: string;
  branch?: string;
  /** whatever `git log --since` takes (`yesterday`, `2.weeks.ago`, an ISO date), or a short age (`7d`) */
  since?: string;
  /** how many lines: texts, each with the versions that carry it (groupHits), not versions */
  limit?: number;
  order?: SearchOrder;
  nowMs?: number;
}

export interface SearchHit {
  version: string;
  target: string;
  date: string;
  branch: string | null;
  status: string | null;
  summary: string | null;
  field: string;
  snippet: string;
  score: number;
}

export interface SearchResult {
  query: string;
  order: SearchOrder;
  hits: SearchHit[];
  /** matching versions not among `hits` (beyond the limit's lines) */
  more: number;
  /** versions searched (after --branch / --since) */
  searched: number;
  /** invalid notes passed over */
  skippedInvalid: number;
  /** encrypted versions the user's identity cannot read, not searched */
  unreadable: number;
}

const UNITS: Record<string, number> = { m: 60, h: 3600, d: 86400, w: 604800 };

/**
 * `--since`: the short ages the help names (`7d`, `12h`, `2w`, `30m`: git would read `7d`
 * as a day of the month), else whatever git's own `--since` takes, read by git. Epoch ms.
 */
export async function parseSince(repo: Repo, since: string, nowMs = Date.now()): Promise<number> {
  const short = /^(\d+)([mhdw])$/i.exec(since.trim());
  if (short) return nowMs - Number(short[1]) * UNITS[short[2].toLowerCase()] * 1000;
  const s = since.trim() ? await gitDate(repo, since) : null;
  if (s !== null) return s * 1000;
  throw new UsageError(`search: --since needs a date or an age as git log --since takes it (yesterday, 2.weeks.ago, 2026-01-31, 7d), not '${since}'`);
}

export async function searchHandoffs(repo: Repo, req: SearchRequest): Promise<SearchResult> {
  const terms = queryTerms(req.query);
  if (!terms.length) throw new UsageError('search: the query has no words to look for');
  const order = req.order ?? 'newest';
  const limit = req.limit ?? DEFAULT_SEARCH_LIMIT;
  const sinceMs = req.since === undefined ? null : await parseSince(repo, req.since, req.nowMs);
  const phrase = terms.length > 1 ? fold(req.query.trim()) : '';
  // JSON escapes quotes and backslashes: the prefilter looks for what the line holds.
  const escaped = terms.map((t) => ({ ...t, text: JSON.stringify(t.text).slice(1, -1) }));

  const index = await loadSearchIndex(repo, indexEntryReader(repo));
  const { lines, unreadable } = await openEncrypted(repo, index.lines);
  // The index holds NFKC text already, so the haystack only needs the cheap part of
  // folding, in one pass; lower-casing never adds or removes a newline.
  const foldedLines = foldIndexed(lines.join('\n')).split('\n');
  const filtered = req.branch !== undefined || sinceMs !== null;
  const candidates: number[] = [];
  let searched = 0;
  let skippedInvalid = 0;
  for (let n = 0; n < lines.length; n++) {
    const line = lines[n];
    // Cheap facts first: validity, branch and date sit at the start of the line.
    // `"v":` is found within the first hundred characters (no string before it can hold it).
    const vi = line.indexOf('"v":');
    if (vi > 0 && line.charCodeAt(vi + 4) === 48) {
      const e = JSON.parse(line) as IndexedVersion;
      if (e.v === 0 && keep(e, req.branch, sinceMs)) {
        skippedInvalid++;
        continue;
      }
    }
    if (!mayMatch(foldedLines.length === lines.length ? foldedLines[n] : foldIndexed(line), escaped)) {
      if (!filtered) searched++;
      else if (keep(JSON.parse(line) as IndexedVersion, req.branch, sinceMs)) searched++;
      continue;
    }
    if (filtered) {
      const e = JSON.parse(line) as IndexedVersion;
      if (!keep(e, req.branch, sinceMs)) continue;
    }
    searched++;
    candidates.push(n);
  }

  // "Newest" is the one reader's order (src/history/) within the branch: its heads (the
  // latest, then the heads it diverged from, as show and log name them) before its other
  // versions; the versions of other branches stand by time.
  // Each hit names the commit its note sits on now, as log and show --version do (git's copy
  // on amend or rebase moved it: the index's copy lines; a head's, the reader's own answer).
  // No version searched (all encrypted for the reader, say): no head to place, no walk to find them.
  const picked = candidates.length ? await new VersionReader(repo).latest(selectionFor(repo, { branch: req.branch })) : null;
  const heads = picked ? [...(picked.version ? [picked.version] : []), ...picked.diverged] : [];
  const headRank = new Map(heads.map((h, i) => [h.id, i]));
  const moved = async (found: Scored | null): Promise<SearchHit | null> => {
    if (!found) return null;
    const { hit, blob } = found;
    const head = heads.find((v) => v.id === hit.version);
    if (head) return { ...hit, target: head.target };
    const now = await index.moves.apply({ writtenAt: hit.target, target: hit.target }, async () => blob);
    return now.target === hit.target ? hit : { ...hit, target: now.target };
  };
  // Newest first: only the hits shown are parsed and scored, in that order; the rest are
  // counted by the same test on their field texts alone (`more` stays exact).
  if (order === 'newest') {
    const t = (n: number) => Number(lines[n].slice(53, lines[n].indexOf(',', 53)));
    const times = new Map(candidates.map((n) => [n, t(n)]));
    // The heads stand together, in their order, before every other version of their branch
    // (a version they continue may be later by the clock), where its newest stands by time.
    const rank = (n: number) => headRank.get(lines[n].slice(7, 47)) ?? Infinity;
    const branchOf = (n: number) => {
      const at = lines[n].indexOf(',"b":', 53);
      return at < 0 ? '' : lines[n].slice(at + 5, lines[n].indexOf(',"', at + 5));
    };
    const headBranches = new Set(candidates.filter((n) => rank(n) < Infinity).map(branchOf));
    const headTime = Math.max(...candidates.filter((n) => headBranches.has(branchOf(n))).map((n) => times.get(n)!));
    for (const n of candidates) if (rank(n) < Infinity) times.set(n, headTime);
    candidates.sort((a, b) => times.get(b)! - times.get(a)! || rank(a) - rank(b) || b - a);
    // `limit` counts the lines search prints (groupHits): hits are parsed until that many
    // texts are found; each version after that is counted only
    const hits: SearchHit[] = [];
    const shown = new Set<string>();
    let more = 0;
    for (const n of candidates) {
      if (shown.size < limit) {
        const h = await moved(score(lines[n], terms, phrase));
        if (h) {
          hits.push(h);
          shown.add(groupKey(h));
        }
      } else if (mayMatch(fieldTexts(foldedLines.length === lines.length ? foldedLines[n] : foldIndexed(lines[n])), escaped)) more++;
    }
    return { query: req.query, order, hits, more, searched, skippedInvalid, unreadable };
  }
  const matched: { hit: SearchHit; n: number; t: number }[] = [];
  for (const n of candidates) {
    const hit = await moved(score(lines[n], terms, phrase));
    if (hit) matched.push({ hit, n, t: Number(lines[n].slice(53, lines[n].indexOf(',', 53))) });
  }
  matched.sort((a, b) => b.hit.score - a.hit.score || b.t - a.t || b.n - a.n);
  // the first `limit` texts (lines) with every version that carries them; every other version is `more`
  const shown = new Set<string>();
  for (const m of matched) if (shown.size < limit) shown.add(groupKey(m.hit));
  const kept = matched.filter((m) => shown.has(groupKey(m.hit)));
  return {
    query: req.query,
    order,
    hits: kept.map((m) => m.hit),
    more: matched.length - kept.length,
    searched,
    skippedInvalid,
    unreadable,
  };
}

/** A hit, with its note's blob (which says where git's copies moved it). */
interface Scored {
  hit: SearchHit;
  blob: string | undefined;
}

/** A version's line scored against the terms, or null when it does not match. */
function score(line: string, terms: ReturnType<typeof queryTerms>, phrase: string): Scored | null {
  const e = JSON.parse(line) as IndexedVersion;
  if (!e.f) return null;
  const m = matchFields(e.f, terms, phrase);
  if (!m) return null;
  const hit: SearchHit = {
    version: e.id,
    target: e.g,
    date: e.d,
    branch: e.b,
    status: e.status ?? null,
    summary: e.summary ?? null,
    field: m.field,
    snippet: m.snippet,
    score: m.score,
  };
  return { hit, blob: e.n };
}

/**
 * The field texts of a (folded) index line, without the keys, ids, dates and field paths
 * around them: `"f":[["path","text"],...]` with each `["path",` taken out. What is left
 * holds a term exactly when a field does (terms hold no newline, quote or bracket pairs).
 */
function fieldTexts(line: string): string {
  const at = line.indexOf('"f":[');
  return at < 0 ? '' : line.slice(at + 5).replace(/\["[^"\\]*",/g, '');
}

function keep(e: IndexedVersion, branch: string | undefined, sinceMs: number | null): boolean {
  if (branch !== undefined && e.b !== branch) return false;
  if (sinceMs !== null) {
    const ms = Date.parse(e.d);
    if ((Number.isNaN(ms) ? e.t * 1000 : ms) < sinceMs) return false;
  }
  return true;
}

/** `search --json`'s document (the view's `/api/search` answers the same). */
export function searchJson(r: SearchResult) {
  return {
    ok: true,
    query: r.query,
    order: r.order,
    searched: r.searched,
    skipped_invalid: r.skippedInvalid,
    ...(r.unreadable ? { unreadable: r.unreadable } : {}),
    more: r.more,
    results: r.hits,
  };
}
