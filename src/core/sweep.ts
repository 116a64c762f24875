/**
 * The fidelity sweep's plan. Pure: topic
 * files' text and times in, the plan out.
 *
 * Files `cadence/streaming/*.md` carry YAML front matter (`topic`, `status`, `fidelity`,
 * `closing`); each `## ` heading outside code fences is one entry, dated by an ISO-8601 time
 * at its start (no zone: UTC), else by the file's last commit time, else its mtime. Only
 * `status: active` files take part. High fidelity, an explicit close, or the current
 * continuation: consolidate even with one entry. Any other topic is skipped with fewer than
 * 2 entries or a newest entry under 10 minutes old, and consolidated otherwise.
 */

import { frontMatterSpan, keyLines, readScalar, type Scalar } from './front-matter.js';

/** a topic with fewer entries waits for more */
export const MIN_ENTRIES = 2;
/** a topic whose newest entry is younger is still being written */
export const MIN_AGE_MS = 10 * 60 * 1000;

export type Fidelity = 'Light' | 'Standard' | 'High';

export interface FrontMatter {
  [key: string]: Scalar;
}

/**
 * The front matter's top-level scalars (`key: value`, read by src/core/front-matter.ts),
 * enough for the sweep's four keys and cheap enough for a commit hook; nested values are
 * ignored. null when there is none.
 */
export function parseFrontMatter(text: string): { data: FrontMatter; body: string } | null {
  const src = text.replace(/^\uFEFF/, '').replace(/\r\n/g, '\n');
  const span = frontMatterSpan(src);
  if (!span) return null;
  const data: FrontMatter = {};
  for (const [key, raw] of keyLines(src, span.lines, span.close)) data[key] = key === 'closing' ? closingFlag(raw) : readScalar(raw);
  return { data, body: src.slice(span.body) };
}

/**
 * A topic's `closing`, the user's yes or no: besides YAML's `true` and `false` (any case),
 * the plain words `yes`, `on`, `no` and `off` that people write for it (and that YAML 1.1
 * readers take for booleans) say it too. Every other key reads as YAML 1.2 does.
 */
export function closingFlag(raw: string): Scalar {
  const v = readScalar(raw);
  if (typeof v !== 'string' || raw.charCodeAt(0) === 34 || raw.charCodeAt(0) === 39) return v;
  return /^(true|yes|on)$/i.test(v) ? true : /^(false|no|off)$/i.test(v) ? false : v;
}

const ISO_START = /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)(Z|[+-]\d{2}:?\d{2})?)?(?=$|[\s,;:)\]—–-])/;

/** The time an entry heading starts with (ISO-8601; no zone means UTC), as epoch ms, or null. */
export function headingTime(heading: string): number | null {
  const m = ISO_START.exec(heading.trim());
  if (!m) return null;
  const zone = m[3] ? (m[3] === 'Z' ? 'Z' : m[3].replace(/^([+-]\d{2})(\d{2})$/, '$1:$2')) : 'Z';
  const t = Date.parse(`${m[1]}T${m[2] ?? '00:00'}${m[2] && m[2].length === 5 ? ':00' : ''}${zone}`);
  return Number.isNaN(t) ? null : t;
}

/** Each `## ` heading outside code fences: its text and its own time (null when undated). */
export function entriesOf(body: string): { heading: string; time: number | null }[] {
  const out: { heading: string; time: number | null }[] = [];
  let fence: string | null = null;
  for (const line of body.split('\n')) {
    const f = /^ {0,3}(`{3,}|~{3,})/.exec(line);
    if (f) {
      if (fence === null) fence = f[1];
      else if (f[1][0] === fence[0] && f[1].length >= fence.length && line.trim() === f[1]) fence = null;
      continue;
    }
    if (fence !== null) continue;
    const h = /^ {0,3}## +(.*?)(?:\s+#+)?\s*$/.exec(line);
    if (h) out.push({ heading: h[1], time: headingTime(h[1]) });
  }
  return out;
}

export interface TopicFile {
  /** repository-relative path, e.g. cadence/streaming/parser.md */
  path: string;
  text: string;
  /** what the plan needs of `text`, when the caller read it already (`scanActiveTopic`) */
  summary?: TopicSummary | null;
  /** the file's last commit time (ms), else null */
  committedAt: number | null;
  /** the file's modification time (ms); null when not looked up (every entry is dated) */
  mtime: number | null;
}

export interface ParsedTopic {
  data: FrontMatter;
  entries: { heading: string; time: number | null }[];
}

/** A topic file's front matter and entries, or null without front matter. */
export function readTopic(text: string): ParsedTopic | null {
  const fm = parseFrontMatter(text);
  return fm && { data: fm.data, entries: entriesOf(fm.body) };
}

/** What the plan needs of a topic file (`scanActiveTopic` in sweep-scan.ts reads it cheaply). */
export interface TopicSummary {
  /** the front matter's keys the plan reads (the others are left out) */
  data: { [K in (typeof PLAN_KEYS)[number]]?: string | boolean | null };
  /** `## ` headings outside code fences */
  entries: number;
  /** how many of them carry no time of their own */
  undated: number;
  /** the newest time an entry carries (epoch ms), null when none carries one */
  newest: number | null;
}

/** The front matter keys the plan reads. */
export const PLAN_KEYS = ['topic', 'status', 'fidelity', 'closing'] as const;

/** `readTopic`'s answer as the plan needs it. */
export function summarizeTopic(t: ParsedTopic): TopicSummary {
  const data: TopicSummary['data'] = {};
  for (const k of PLAN_KEYS) if (Object.hasOwn(t.data, k)) data[k] = t.data[k];
  let undated = 0;
  let newest: number | null = null;
  for (const e of t.entries) {
    if (e.time === null) undated++;
    else if (newest === null || e.time > newest) newest = e.time;
  }
  return { data, entries: t.entries.length, undated, newest };
}

export interface TopicPlan {
  path: string;
  topic: string;
  fidelity: Fidelity;
  entries: number;
  /** ISO-8601 UTC of the newest entry, or null without entries */
  newest: string | null;
  action: 'consolidate' | 'skip';
  reason: string;
}

/**
 * A topic's plan, whose `newest` is formatted when it is read: the human plan never shows it,
 * and formatting was a third of planning 2,000 topics. Serialises as a plain TopicPlan.
 */
class PlannedTopic implements TopicPlan {
  readonly #newest: number | null;

  constructor(
    readonly path: string,
    readonly topic: string,
    readonly fidelity: Fidelity,
    readonly entries: number,
    newest: number | null,
    readonly action: TopicPlan['action'],
    readonly reason: string,
  ) {
    this.#newest = newest;
  }

  get newest(): string | null {
    return this.#newest === null ? null : new Date(this.#newest).toISOString();
  }

  toJSON(): TopicPlan {
    return {
      path: this.path,
      topic: this.topic,
      fidelity: this.fidelity,
      entries: this.entries,
      newest: this.newest,
      action: this.action,
      reason: this.reason,
    };
  }
}

function fidelityOf(v: unknown): Fidelity {
  if (v === 'High' || v === 'Light' || v === 'Standard') return v;
  const s = typeof v === 'string' ? v.trim().toLowerCase() : '';
  return s === 'high' ? 'High' : s === 'light' ? 'Light' : 'Standard';
}

function ago(ms: number): string {
  const min = Math.floor(ms / 60000);
  if (min < 60) return `${min} min`;
  if (min < 48 * 60) return `${Math.floor(min / 60)} h`;
  return `${Math.floor(min / 1440)} days`;
}

/**
 * The sweep's plan over the topic files. `continuation`: paths that are the current
 * continuation (cadence/_ACTIVE.md, the latest handoff's continuation_refs).
 */
export function planSweep(files: TopicFile[], continuation: Set<string>, nowMs: number, covered: Map<string, Coverage> = new Map()): TopicPlan[] {
  const out: TopicPlan[] = [];
  for (const f of files) {
    let t = f.summary;
    if (t === undefined) {
      const parsed = readTopic(f.text);
      t = parsed && summarizeTopic(parsed);
    }
    if (!t || t.data.status !== 'active') continue;
    const entries = t.entries;
    // Undated entries take the file's time; the newest entry is the newest of all.
    const newest = entries === 0 ? null : t.undated > 0 ? Math.max(t.newest ?? -Infinity, f.committedAt ?? f.mtime ?? nowMs) : t.newest!;
    const fidelity = fidelityOf(t.data.fidelity);
    const topic = typeof t.data.topic === 'string' ? t.data.topic : f.path.replace(/^.*\//, '').replace(/\.md$/, '');
    const must =
      fidelity === 'High'
        ? 'fidelity High'
        : t.data.closing === true
          ? 'closed by the user'
          : continuation.size && continuation.has(f.path)
            ? 'the current continuation'
            : null;
    let action: TopicPlan['action'] = 'skip';
    let reason: string;
    const done = covered.get(f.path);
    if (newest === null) reason = 'no entries';
    else if (done && done.at >= newest) reason = `consolidated into ${done.by} (the latest handoff's consolidation.produced); a new entry proposes it again`;
    else if (must) {
      action = 'consolidate';
      reason = must;
    } else if (entries < MIN_ENTRIES) reason = `fewer than ${MIN_ENTRIES} entries`;
    else if (nowMs - newest < MIN_AGE_MS) reason = `newest entry under 10 minutes old (${ago(Math.max(0, nowMs - newest))})`;
    else {
      action = 'consolidate';
      reason = `${entries} entries, newest ${ago(nowMs - newest)} old`;
    }
    out.push(new PlannedTopic(f.path, topic, fidelity, entries, newest, action, reason));
  }
  return out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** A topic the latest handoff's `consolidation.produced` covers: by which document, as of when (ms). */
export interface Coverage {
  by: string;
  at: number;
}

/**
 * Which topics the latest handoff's `consolidation.produced` covers (the sweep
 * closes its loop). A produced document covers a topic when it is the topic's own file, has
 * the topic file's name (`docs/division.md` for `cadence/streaming/division.md`), or names
 * the topic file's path in its text (`producedText`). It covers the entries made up to the
 * version's date (`at`); a newer entry makes the topic due again.
 */
export function coveredTopics(topicPaths: string[], produced: string[], at: number, producedText: Map<string, string> = new Map()): Map<string, Coverage> {
  const out = new Map<string, Coverage>();
  if (!produced.length) return out;
  const base = (p: string) => p.replace(/^.*\//, '').replace(/\.md$/i, '').toLowerCase();
  for (const t of topicPaths) {
    const by = produced.find((p) => {
      const doc = p.trim().replace(/^\.\//, '');
      if (doc === t || base(doc) === base(t)) return true;
      const text = producedText.get(p);
      return text !== undefined && (mentions(text, t) || mentions(text, t.replace(/^cadence\//, '')));
    });
    if (by) out.set(t, { by, at });
  }
  return out;
}

/** What to do so a topic stops being proposed: the step the sweep honours. */
export const CONSOLIDATED_STEP =
  "after consolidating a topic into a document, record it with 'git handoff write --produced <document>': a document named like the topic's file (docs/<name>.md) or naming its path stops the topic being proposed until it gets a new entry; or set 'status: consolidated' in the topic's front matter";

/** Paths a continuation document names: `cadence/_ACTIVE.md` text or continuation_refs entries. */
export function continuationPaths(activeText: string | null, refs: string[], candidates: string[]): Set<string> {
  const out = new Set<string>();
  if (!activeText && !refs.length) return out;
  const norm = (p: string) => p.trim().replace(/^\.\//, '');
  const refSet = new Set(refs.map(norm));
  for (const c of candidates) {
    const short = c.replace(/^cadence\//, '');
    if (refSet.has(c) || refSet.has(short)) out.add(c);
    else if (activeText && (mentions(activeText, c) || mentions(activeText, short))) out.add(c);
  }
  return out;
}

function mentions(text: string, path: string): boolean {
  for (let at = text.indexOf(path); at >= 0; at = text.indexOf(path, at + 1)) {
    const before = text[at - 1] ?? '';
    const after = text.slice(at + path.length, at + path.length + 2);
    if (!/[\w.-]/.test(before) && !/^[\w-]|^\.\w/.test(after)) return true;
  }
  return false;
}

export const BARE_HANDOFF_HINT = 'a bare .handoff/ folder at the repository root: move it to cadence/.handoff/ (handoff documents live there)';
