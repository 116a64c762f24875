/**
 * The sweep's reading of one topic file, cheap enough for thousands of files on a commit.
 * It answers exactly what `summarizeTopic(readTopic(text))` (the readable definition in
 * sweep.ts) answers; the property tests in test/unit/sweep-scan.test.ts hold the two together.
 * The front matter is found and its values read by src/core/front-matter.ts, as the
 * definition reads them; what is hand-tuned here is the walk over the entries.
 *
 * Code that runs once per file in a short-lived process runs mostly cold, where every
 * JavaScript step counts and the engine's own string searches are nearly free. So the text is
 * searched with `indexOf` for what can matter (the front matter's end and its four keys,
 * `## `, code fences) instead of being split into lines that are each matched. A text with a
 * line break other than `\n` (a lone `\r`, U+2028, U+2029), where a regular expression's `.`
 * and `$` see lines differently, is read by the definition itself.
 */
import { frontMatterSpan, readScalar, skipBlanks, type Scalar } from './front-matter.js';
import { closingFlag, headingTime, readTopic, summarizeTopic, type TopicSummary } from './sweep.js';

const NL = 10;
const SPACE = 32;
const TAB = 9;

/** Line terminators besides `\n` (once CRLF is LF). */
const OTHER_BREAK = /[\r\u2028\u2029]/;
/** What a plain topic file has none of: other line breaks, code fences, a `...` line. */
const UNUSUAL = /[\r\u2028\u2029]|```|~~~|\n\.\.\./;
const HEADING = /^ {0,3}## +(.*?)(?:\s+#+)?\s*$/;
/** sweep.ts ISO_START with every part present and the zone's colon written: `headingTime` parses exactly the text it matches. */
const FULL_TIME = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})(?![^\s,;:)\]—–-])/y;

/**
 * `summarizeTopic(readTopic(text))` for a `status: active` topic file; null for any other
 * (no front matter, or another status): nobody reads their entries.
 */
export function scanActiveTopic(text: string): TopicSummary | null {
  let src = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  // One search says whether the text needs any of the rarer cases below.
  const unusual = UNUSUAL.test(src);
  if (unusual && OTHER_BREAK.test(src)) {
    src = src.replace(/\r\n/g, '\n');
    if (OTHER_BREAK.test(src)) {
      const t = readTopic(text);
      return t && t.data.status === 'active' ? summarizeTopic(t) : null;
    }
  }
  const span = frontMatterSpan(src, unusual);
  if (!span) return null;
  // The front matter's lines, once: the last line of a key counts.
  let status: Scalar | undefined, topic: Scalar | undefined, fidelity: Scalar | undefined, closing: Scalar | undefined;
  for (let s = span.lines; s < span.close;) {
    const e = src.indexOf('\n', s);
    const c = src.charCodeAt(s); // (s, t, f, c: a first letter rules out three keys at once)
    if (c === 115 && src.startsWith('status:', s)) status = readScalar(valueText(src, s + 7, e));
    else if (c === 116 && src.startsWith('topic:', s)) topic = readScalar(valueText(src, s + 6, e));
    else if (c === 102 && src.startsWith('fidelity:', s)) fidelity = readScalar(valueText(src, s + 9, e));
    else if (c === 99 && src.startsWith('closing:', s)) closing = closingFlag(valueText(src, s + 8, e));
    s = e + 1;
  }
  if (status !== 'active') return null;
  const data: TopicSummary['data'] = { status };
  if (topic !== undefined) data.topic = topic;
  if (fidelity !== undefined) data.fidelity = fidelity;
  if (closing !== undefined) data.closing = closing;
  return entries(src, span.body, data, unusual);
}

/** The text after `key:` on a front matter line [from, e), without the blanks around it (what parseFrontMatter reads). */
function valueText(src: string, from: number, e: number): string {
  const a = skipBlanks(src, from);
  let b = e;
  for (let c = src.charCodeAt(b - 1); b > a && (c === SPACE || c === TAB); c = src.charCodeAt(--b - 1));
  return src.slice(a, b);
}

/**
 * The `## ` headings of the body (from `start`) outside code fences. Walks from one place
 * that can matter to the next, a `## ` or a fence marker, each only where it opens its line
 * (after at most three spaces).
 */
function entries(src: string, start: number, data: TopicSummary['data'], unusual: boolean): TopicSummary {
  let count = 0;
  let undated = 0;
  let newest: number | null = null;
  const fenced = unusual && (src.includes('```', start) || src.includes('~~~', start));
  let at = start;
  while (at < src.length) {
    const h = src.indexOf('## ', at);
    const f = fenced ? firstFence(src, at) : -1;
    if (f >= 0 && (h < 0 || f < h)) {
      at = lineIndent(src, f, start) < 0 ? runEnd(src, f) : fenceEnd(src, f, start);
      continue;
    }
    if (h < 0) break;
    const indent = h === start || src.charCodeAt(h - 1) === NL ? 0 : lineIndent(src, h, start);
    if (indent < 0) {
      at = h + 1;
      continue;
    }
    let e = src.indexOf('\n', h);
    if (e < 0) e = src.length;
    const t = entryTime(src, h - indent, h + 3, e);
    if (t !== NOT_AN_ENTRY) {
      count++;
      if (t === null) undated++;
      else if (newest === null || t > newest) newest = t;
    }
    at = e + 1;
  }
  return { data, entries: count, undated, newest };
}

const NOT_AN_ENTRY = -Infinity;

/**
 * The time of the `## ` heading on the line [s, e) whose marker ends at `from` (sweep.ts
 * `entriesOf` and `headingTime`): epoch ms, null when undated, NOT_AN_ENTRY when the regular
 * expression would not take the line as a heading. Without a `#` after the marker the heading
 * is the rest of the line without its leading spaces and trailing white space, and only a
 * heading that starts with a digit can be dated; a line with a `#` goes through the regular
 * expression itself.
 */
function entryTime(src: string, s: number, from: number, e: number): number | null {
  const hash = src.indexOf('#', from);
  if (hash >= 0 && hash < e) {
    const m = HEADING.exec(src.slice(s, e));
    return m ? headingTime(m[1]) : NOT_AN_ENTRY;
  }
  let a = from;
  let c = src.charCodeAt(a);
  while (c === SPACE) c = src.charCodeAt(++a);
  if (a >= e) return null;
  if (c >= 48 && c <= 57) {
    FULL_TIME.lastIndex = a;
    if (FULL_TIME.test(src)) {
      const t = Date.parse(src.slice(a, FULL_TIME.lastIndex));
      return Number.isNaN(t) ? null : t;
    }
  } else if (c > SPACE && c < 127) return null;
  return headingTime(src.slice(a, e).trimEnd());
}

/** The first backtick or tilde run of three at or after `from`. */
function firstFence(src: string, from: number): number {
  const b = src.indexOf('```', from);
  const t = src.indexOf('~~~', from);
  return b < 0 ? t : t < 0 ? b : Math.min(b, t);
}

function runEnd(src: string, at: number): number {
  const c = src.charCodeAt(at);
  let k = at;
  while (src.charCodeAt(k) === c) k++;
  return k;
}

/** How many spaces (0-3) stand between the start of its line and `at`, or -1 when anything else does. */
function lineIndent(src: string, at: number, start: number): number {
  for (let k = 0; k <= 3; k++) {
    const p = at - k;
    if (p === start || src.charCodeAt(p - 1) === NL) return k;
    if (src.charCodeAt(p - 1) !== SPACE) return -1;
  }
  return -1;
}

/**
 * Where scanning resumes after the fence opened by the marker at `at` (which opens its line):
 * after the line that closes it (a run of the same character at least as long, alone on its
 * line but for white space, indented at most three spaces), else at the end of the text.
 */
function fenceEnd(src: string, at: number, start: number): number {
  const len = runEnd(src, at) - at;
  const needle = src.slice(at, at + 3);
  const nl = src.indexOf('\n', at);
  if (nl < 0) return src.length;
  for (let p = src.indexOf(needle, nl); p >= 0;) {
    const k = runEnd(src, p);
    const indent = lineIndent(src, p, start);
    if (indent >= 0 && k - p >= len) {
      let e = src.indexOf('\n', p);
      if (e < 0) e = src.length;
      if (src.slice(p - indent, e).trim() === src.slice(p, k)) return e + 1;
    }
    p = src.indexOf(needle, k);
  }
  return src.length;
}
