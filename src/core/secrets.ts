/**
 * The secret scanner (docs/security.md). Pure: text in,
 * hits out. Order of work, so that a 1 MiB handoff scans in a few milliseconds: one pass
 * finds the rules' keywords; only lines holding a keyword run those rules' patterns; then
 * entropy, placeholder checks and the allow list judge what matched.
 *
 * Provider formats are data (`secret-rules.ts`); the generic rule (a credential-named field
 * with a real-looking value, in any syntax) is `secret-assignments.ts` + `secret-values.ts`.
 */
import { SECRET_RULES, type SecretRule } from './secret-rules.js';
import { assignmentsIn, nameWords } from './secret-assignments.js';
import { assignmentContext, judgeAssignment } from './secret-judge.js';
import { entropy, notASecret } from './secret-values.js';
import { KeywordIndex } from './keyword-index.js';

export { SECRET_RULES, type SecretRule } from './secret-rules.js';

export interface SecretHit {
  /** what the refusal calls it ("GitHub token", "password assignment") */
  kind: string;
  /** the provider family ("GitHub"), or "generic" */
  family: string;
  /** the rule's id */
  rule: string;
  value: string;
  /** 1-based line within the scanned text */
  line: number;
  index: number;
  /** leading characters of `value` that are a public prefix (`ghp_`) and may be shown */
  keep: number;
}

interface Compiled {
  rule: SecretRule;
  order: number;
  re: RegExp;
  keep: number;
}

export const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The literal head of a pattern (`ghp_` of `ghp_[0-9a-zA-Z]{36}`): public, safe to show. */
function literalHead(pattern: string): number {
  const s = pattern.replace(/^\\b/, '');
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c === '\\' && /[.\-/_~:]/.test(s[i + 1] ?? '')) {
      n++;
      i++;
    } else if (/[\w~:-]/.test(c)) n++;
    else {
      if (/[*+?{]/.test(c)) n--;
      break;
    }
  }
  return Math.max(0, n);
}

const TOKEN_ROWS: Compiled[] = [];
const NAMED_ROWS: Compiled[] = [];
SECRET_RULES.forEach((rule, order) => {
  if (rule.name) NAMED_ROWS.push({ rule, order, re: new RegExp(`^(?:${rule.pattern})$`, rule.i ? 'i' : ''), keep: rule.keep ?? literalHead(rule.pattern) });
  else TOKEN_ROWS.push({ rule, order, re: new RegExp(rule.pattern, `g${rule.i ? 'i' : ''}`), keep: rule.keep ?? literalHead(rule.pattern) });
});

/** Fragments of a field name that make a line worth reading for assignments. */
const GENERIC_KEYWORDS = ['pass', 'pwd', 'pw', 'secret', 'token', 'key', 'auth', 'cred', 'bearer', 'sig', 'salt', 'cookie'];
const URL_KEYWORD = '://';
const CURL_KEYWORD = 'curl';
const AUTH_KEYWORDS = ['bearer ', 'basic ', 'token ', 'bot '];
const USER_KEYWORD = '--user';

const namedKeywords = new Set(NAMED_ROWS.flatMap((c) => c.rule.keywords));
const ASSIGN_KEYWORDS = new Set([...GENERIC_KEYWORDS, ...namedKeywords]);
const ALL_KEYWORDS = [
  ...new Set([...TOKEN_ROWS.flatMap((c) => c.rule.keywords), ...ASSIGN_KEYWORDS, URL_KEYWORD, CURL_KEYWORD, USER_KEYWORD, ...AUTH_KEYWORDS]),
];
let keywords: KeywordIndex | null = null;
/** Per keyword id: the token rows it opens on its line, and those it opens on the whole text. */
const LINE_ROWS_OF: Compiled[][] = ALL_KEYWORDS.map((k) => TOKEN_ROWS.filter((c) => !c.rule.multiline && c.rule.keywords.includes(k)));
const MULTI_ROWS_OF: Compiled[][] = ALL_KEYWORDS.map((k) => TOKEN_ROWS.filter((c) => c.rule.multiline && c.rule.keywords.includes(k)));
const KW_LEN = ALL_KEYWORDS.map((k) => k.length);
const IS_ASSIGN = ALL_KEYWORDS.map((k) => ASSIGN_KEYWORDS.has(k));
/** Per keyword id, the line rules besides token rows that it opens (bits). */
const OPENS_URL = 1;
const OPENS_CURL = 2;
const OPENS_AUTH = 4;
const KW_OPENS = Uint8Array.from(
  ALL_KEYWORDS,
  (k) => (k === URL_KEYWORD ? OPENS_URL : 0) | (k === CURL_KEYWORD || k === USER_KEYWORD ? OPENS_CURL : 0) | (AUTH_KEYWORDS.includes(k) ? OPENS_AUTH : 0),
);
// Lines are found by the keyword pass's end offsets, so no keyword may hold a line break.
for (const k of ALL_KEYWORDS) if (k.includes('\n')) throw new Error(`secret keyword '${k}' holds a line break`);

/** A value that documentation uses in place of a real one (`AKIAIOSFODNN7EXAMPLE`, `ghp_xxxx...`). */
const DOC_VALUE = /example|x{6,}|\*{4,}|0{12,}/i;

const ASSIGN_HINT = /[=:>]|\s(?:is|was|are)\s|--/i;
const URL_CREDENTIALS = /\b[a-z][a-z0-9+.-]*:\/\/([^\s:/@"'`]*):([^\s:/@"'`]+)@[\w.[\]-]/gi;
/** `curl -u user:password` (on the curl line) or `--user user:password` (a continued line); a lone `user:` is an API key as user. */
const CURL_USER = /(?:\bcurl\b.*?\s-u|--user)(?:=|\s+)["']?([^\s:"'<[{]*):["']?([^\s"']*)/g;
const AUTH_HEADER = /\b(?:Bearer|Basic|Token|Api-Token|Bot)\s+([A-Za-z0-9._~+/-]{16,}=*)/gi;

interface Candidate extends SecretHit {
  order: number;
  context: string;
}

// Scratch space of the line pass, reused from line to line and call to call.
const lineKw = new Int32Array(ALL_KEYWORDS.length);
const kwStamp = new Int32Array(ALL_KEYWORDS.length);
let stamp = 0;
/** the line's name keyword places (flat pairs); grown, never shrunk (an array cut to length 0 frees its store) */
let lineNames = new Int32Array(256);

/** Finds secrets in `text`, ignoring values that match an allow pattern. */
export function scanText(text: string, allow: RegExp[] = []): SecretHit[] {
  // Built on first use: commands that never scan do not pay for the table.
  keywords ??= new KeywordIndex(ALL_KEYWORDS);
  const count = keywords.scanInto(text);
  if (!count) return [];
  const hits = keywords.hits;
  const found: Candidate[] = [];
  const add = adder(allow, found);
  const multi = new Set<Compiled>();

  // Each line holding a keyword, as the keyword pass meets them (by end offset).
  let lineStart = 0;
  let lineEnd = -1;
  let nkw = 0;
  let nnames = 0;
  if (lineNames.length < 2 * count) lineNames = new Int32Array(2 * count);
  const names = lineNames;
  for (let i = 0; i < 2 * count; i += 2) {
    const k = hits[i];
    const end = hits[i + 1];
    if (end > lineEnd) {
      if (nkw) judgeLine(text, lineStart, lineEnd, lineKw, nkw, names, nnames, add);
      const nl = text.indexOf('\n', end - 1);
      lineStart = text.lastIndexOf('\n', end - 1) + 1;
      lineEnd = nl < 0 ? text.length : nl;
      nkw = 0;
      nnames = 0;
      // A new stamp per line marks the keywords seen on it (wrapping before the buffer's range ends).
      if (++stamp === 0x7fffffff) {
        kwStamp.fill(0);
        stamp = 1;
      }
    }
    if (kwStamp[k] !== stamp) {
      kwStamp[k] = stamp;
      lineKw[nkw++] = k;
      const m = MULTI_ROWS_OF[k];
      for (let j = 0; j < m.length; j++) multi.add(m[j]);
    }
    if (IS_ASSIGN[k]) {
      names[nnames++] = end - KW_LEN[k] - lineStart;
      names[nnames++] = end - lineStart;
    }
  }
  if (nkw) judgeLine(text, lineStart, lineEnd, lineKw, nkw, names, nnames, add);
  // Patterns that span lines, once on the whole text. (Candidates are sorted by rule and
  // place before they are settled, so their order here does not matter.)
  runMulti(text, multi, add);
  return settle(text, found);
}

/**
 * The straightforward path: the text split into lines, each line's keywords found by a plain
 * search of it, then the same rules. `scanText` must agree with it on every text
 * (test/unit/secrets-fast-paths.test.ts); it exists to be compared with.
 */
export function scanTextLineByLine(text: string, allow: RegExp[] = []): SecretHit[] {
  const found: Candidate[] = [];
  const add = adder(allow, found);
  const lines: { start: number; end: number; kw: number[]; names: number[] }[] = [];
  for (let start = 0; start <= text.length;) {
    const nl = text.indexOf('\n', start);
    const end = nl < 0 ? text.length : nl;
    const low = text.slice(start, end).replace(/[A-Z]/g, (c) => c.toLowerCase());
    const on: [number, number][] = [];
    ALL_KEYWORDS.forEach((k, id) => {
      for (let at = low.indexOf(k); at >= 0; at = low.indexOf(k, at + 1)) on.push([id, at]);
    });
    if (on.length) {
      // Names in the order the line's words end, the longer first where two end together.
      on.sort((x, y) => x[1] + KW_LEN[x[0]] - (y[1] + KW_LEN[y[0]]) || KW_LEN[y[0]] - KW_LEN[x[0]] || x[0] - y[0]);
      lines.push({
        start,
        end,
        kw: [...new Set(on.map(([id]) => id))],
        names: on.filter(([id]) => IS_ASSIGN[id]).flatMap(([id, at]) => [at, at + KW_LEN[id]]),
      });
    }
    start = end + 1;
  }
  if (!lines.length) return [];
  for (const l of lines) judgeLine(text, l.start, l.end, l.kw, l.kw.length, l.names, l.names.length, add);
  runMulti(text, new Set(lines.flatMap((l) => l.kw.flatMap((k) => MULTI_ROWS_OF[k]))), add);
  return settle(text, found);
}

function adder(allow: RegExp[], found: Candidate[]): Add {
  return (c) => {
    if (allow.some((a) => a.test(c.value) || a.test(c.context))) return;
    found.push({ ...c, line: 0 });
  };
}

/** Patterns that span lines run once on the whole text. */
function runMulti(text: string, rows: Set<Compiled>, add: Add): void {
  for (const c of [...rows].sort((a, b) => a.order - b.order)) runToken(c, text, 0, add);
}

/** The hits from the candidates: a value already reported by a more specific rule is not reported twice. */
function settle(text: string, found: Candidate[]): SecretHit[] {
  found.sort((a, b) => a.order - b.order || a.index - b.index);
  const taken: [number, number][] = [];
  const out: SecretHit[] = [];
  for (const c of found) {
    const end = c.index + c.value.length;
    if (taken.some(([s, e]) => c.index < e && end > s)) continue;
    taken.push([c.index, end]);
    out.push({ kind: c.kind, family: c.family, rule: c.rule, value: c.value, line: 0, index: c.index, keep: c.keep });
  }
  out.sort((a, b) => a.index - b.index);
  let line = 1;
  let at = 0;
  for (const h of out) {
    for (; at < h.index; at++) if (text.charCodeAt(at) === 10) line++;
    h.line = line;
  }
  return out;
}

/**
 * Runs on the line [start, end) of `text` the rules its keywords open: `kw` (its first `nkw`
 * entries) their ids, `names` (its first `nnames`) where the name keywords sit in the line
 * (flat pairs). Indexed loops and few property reads: this runs for every line, mostly
 * before the engine optimises it.
 */
function judgeLine(text: string, start: number, end: number, kw: ArrayLike<number>, nkw: number, names: ArrayLike<number>, nnames: number, add: Add): void {
  let opens = 0;
  let rows: Compiled[] | null = null;
  let merged = false;
  for (let i = 0; i < nkw; i++) {
    const k = kw[i];
    opens |= KW_OPENS[k];
    const r = LINE_ROWS_OF[k];
    if (r.length === 0) continue;
    if (rows === null) rows = r;
    else {
      rows = rows.concat(r);
      merged = true;
    }
  }
  const lineText = text.slice(start, end);
  if (rows !== null) {
    // Each row once, in the table's order (a keyword's own rows are in it already).
    if (merged) rows = [...new Set(rows)].sort((a, b) => a.order - b.order);
    for (let i = 0; i < rows.length; i++) runToken(rows[i], lineText, start, add);
  }
  if (opens !== 0) {
    if (opens & OPENS_URL && lineText.includes('@')) runPair(URL_CREDENTIALS, 'credential in URL', lineText, start, add);
    if (opens & OPENS_CURL) runPair(CURL_USER, 'credentials in a curl command', lineText, start, add);
    if (opens & OPENS_AUTH) runAuthHeader(lineText, start, add);
  }
  // No operator, no `is`/`was`/`are`, no flag: no assignment on this line.
  if (nnames !== 0 && ASSIGN_HINT.test(lineText)) runAssignments(lineText, start, names, nnames, add);
}

type Add = (c: Omit<Candidate, 'line'>) => void;

/**
 * The next match of the global `re` in `text` (`lastIndex` 0 starts): the loop `matchAll`
 * runs, without its copy of the regex and its iterator. None of these regexes is a `u` one,
 * so an empty match steps one code unit on.
 */
function nextMatch(re: RegExp, text: string): RegExpExecArray | null {
  const m = re.exec(text);
  if (m && m[0] === '') re.lastIndex++;
  return m;
}

function runToken(c: Compiled, text: string, offset: number, add: Add): void {
  c.re.lastIndex = 0;
  for (let m = nextMatch(c.re, text); m; m = nextMatch(c.re, text)) {
    const value = c.rule.group ? m[c.rule.group] : m[0];
    if (!value) continue;
    if (c.rule.entropy && entropy(value) < c.rule.entropy) continue;
    if (DOC_VALUE.test(value)) continue;
    const index = offset + m.index + (c.rule.group ? m[0].indexOf(value) : 0);
    add({
      kind: c.rule.kind,
      family: c.rule.family,
      rule: c.rule.id,
      value,
      index,
      keep: Math.min(c.keep, Math.floor(value.length / 3)),
      order: c.order,
      context: m[0],
    });
  }
}

/** `scheme://user:password@host` and `curl -u user:password`: the password is judged. */
function runPair(re: RegExp, kind: string, text: string, offset: number, add: Add): void {
  re.lastIndex = 0;
  for (let m = nextMatch(re, text); m; m = nextMatch(re, text)) {
    // `curl -u KEY:` sends an API key as the user name, with no password.
    const pw = m[2] || (kind === 'credential in URL' ? '' : m[1]);
    if (!pw || notASecret(pw.replace(/["']$/, ''), 'url')) continue;
    add({
      kind,
      family: 'generic',
      rule: kind === 'credential in URL' ? 'url-credentials' : 'curl-user',
      value: pw,
      index: offset + m.index + m[0].lastIndexOf(pw),
      keep: 0,
      order: 10_000,
      context: m[0],
    });
  }
}

function runAuthHeader(text: string, offset: number, add: Add): void {
  AUTH_HEADER.lastIndex = 0;
  for (let m = nextMatch(AUTH_HEADER, text); m; m = nextMatch(AUTH_HEADER, text)) {
    const v = m[1];
    if (notASecret(v, 'strong') || v.length < 16) continue;
    add({
      kind: 'authorization header',
      family: 'generic',
      rule: 'auth-header',
      value: v,
      index: offset + m.index + m[0].indexOf(v),
      keep: 0,
      order: 10_001,
      context: m[0],
    });
  }
}

/** Per named row, its keywords as they start a word of a field name (`_okta`, `_heroku_api`). */
const NAMED_WORD_HEADS: string[][] = NAMED_ROWS.map((c) => c.rule.keywords.map((k) => `_${k.replace(/[-_.]/g, '_')}`));
/** Any of them: most names hold none, and one search says so. */
const ANY_NAMED_HEAD = new RegExp(NAMED_WORD_HEADS.flat().map(escapeRe).join('|'));

/** `names`: where the line's name keywords sit (flat pairs); an assignment's name holds one of them. */
function runAssignments(text: string, offset: number, names: ArrayLike<number>, nnames: number, add: Add): void {
  const found = assignmentsIn(text, names, 0, nnames);
  for (let i = 0; i < found.length; i++) {
    const a = found[i];
    const nameWordList = nameWords(a.name);
    // A provider's name starts a word of the field name: `OKTA_TOKEN`, not `rookTable`.
    const words = `_${nameWordList.join('_')}`;
    let named: Compiled | undefined;
    if (a.op !== 'prose' && ANY_NAMED_HEAD.test(words)) {
      for (let r = 0; r < NAMED_ROWS.length; r++) {
        const c = NAMED_ROWS[r];
        if (NAMED_WORD_HEADS[r].some((w) => words.includes(w)) && c.re.test(a.value) && (!c.rule.entropy || entropy(a.value) >= c.rule.entropy)) {
          named = c;
          break;
        }
      }
    }
    if (named && !DOC_VALUE.test(a.value)) {
      add({
        kind: named.rule.kind,
        family: named.rule.family,
        rule: named.rule.id,
        value: a.value,
        index: offset + a.index,
        keep: Math.min(named.keep, Math.floor(a.value.length / 3)),
        order: named.order,
        context: assignmentContext(text, a),
      });
      continue;
    }
    const generic = judgeAssignment(a, nameWordList);
    if (generic)
      add({
        kind: `${generic} assignment`,
        family: 'generic',
        rule: 'generic-assignment',
        value: a.value,
        index: offset + a.index,
        keep: 0,
        order: 10_002,
        context: assignmentContext(text, a),
      });
  }
}
